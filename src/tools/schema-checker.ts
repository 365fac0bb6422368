/**
 * Checks arguments against an MCP server's JSON Schema on a worker thread, with a deadline and a
 * heap limit. The schema comes from the server and the arguments from the model, and either can make
 * ajv's work explode: a `pattern` like `^(a+)+$` backtracks for an hour on forty characters, and
 * `oneOf` over a recursive `$ref` doubles the work at each level of nesting. Patterns run in RE2
 * (linear) where it means the same (see linear-pattern.ts); for everything else the deadline is the
 * bound. Either way the thread that serves every session never waits on it.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { ErrorObject } from 'ajv';
import { workerJobs } from '../worker-jobs.js';
import { linearPattern } from './linear-pattern.js';

/** A real schema checks in milliseconds; this leaves room for starting the thread on a busy machine. */
export const SCHEMA_CHECK_TIME_LIMIT_MS = 10_000;
/** Enough for any real schema and argument; a check that needs more is refused, not the process. */
const SCHEMA_CHECK_HEAP_LIMIT_MB = 256;
/** An idle checker (ajv loaded, its validators compiled) is ended after this long. */
const IDLE_MS = 60_000;
/** Checks run at once; more wait their turn, so a step of many calls does not start a thread for each. */
const MAX_RUNNING = 2;
/** Compiled validators a worker keeps, by schema text: more than a few servers' tools. */
const MAX_CACHED_SCHEMAS = 256;
/** Complaints sent back: the first few are what a model can act on. */
export const MAX_SCHEMA_ERRORS = 5;

/** What a check says: valid, invalid with the first complaints, or the schema could not be compiled. */
export type SchemaVerdict =
  | { kind: 'valid' }
  | { kind: 'invalid'; errors: ErrorObject[]; total: number }
  | { kind: 'uncompilable' }
  | { kind: 'unchecked'; why: 'time' | 'memory' | 'failed' };

export interface SchemaChecker {
  /** Checks `value` against the schema given as JSON text (the text is also the cache key). */
  check(schemaText: string, value: unknown): Promise<SchemaVerdict>;
  close(): Promise<void>;
}

export interface SchemaCheckerOptions {
  timeoutMs?: number;
  heapLimitMb?: number;
}

// CommonJS, given as source text so it runs the same from src/ (tests), dist/ and the bundle.
// One validator per dialect, as json-schema-tool.ts describes; `code.regExp` sends every pattern
// through linearPattern.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Ajv = require(workerData.ajv).default;
const Ajv2020 = require(workerData.ajv2020).default;
const { RE2JS } = require(workerData.re2js);
const linearPattern = ${linearPattern.toString()};
const regExp = (pattern, flags) => linearPattern(pattern, flags, RE2JS);
const options = { strict: false, allErrors: true, addUsedSchema: false, validateFormats: false, code: { regExp } };
let draft07;
let draft2020;
const cache = new Map();
const compile = (text) => {
  if (cache.has(text)) return cache.get(text);
  if (cache.size >= ${MAX_CACHED_SCHEMAS}) cache.clear();
  let validate = null;
  try {
    const schema = JSON.parse(text);
    const dialect = typeof schema.$schema === 'string' ? schema.$schema : '';
    const ajv = /draft-0[4-7]/.test(dialect) ? (draft07 = draft07 || new Ajv(options)) : (draft2020 = draft2020 || new Ajv2020(options));
    validate = ajv.compile(schema);
  } catch {}
  cache.set(text, validate);
  return validate;
};
parentPort.on('message', ({ id, schema, value }) => {
  let reply;
  try {
    const validate = compile(schema);
    if (!validate) reply = { id, reply: { kind: 'uncompilable' } };
    else if (validate(value)) reply = { id, reply: { kind: 'valid' } };
    else {
      const errors = validate.errors || [];
      reply = { id, reply: { kind: 'invalid', errors: errors.slice(0, ${MAX_SCHEMA_ERRORS}).map((e) => ({ instancePath: e.instancePath, keyword: e.keyword, params: e.params, message: e.message })), total: errors.length } };
    }
  } catch (e) {
    reply = { id, reply: { kind: 'unchecked', why: 'failed' } };
  }
  parentPort.postMessage(reply);
});
`;

function modulePaths(): { ajv: string; ajv2020: string; re2js: string } {
  const require = createRequire(import.meta.url);
  return { ajv: require.resolve('ajv'), ajv2020: require.resolve('ajv/dist/2020.js'), re2js: require.resolve('re2js') };
}

/**
 * A checker that keeps one worker between checks. A check that overruns its time or memory takes
 * its worker down with it (the next check starts a fresh one); at most MAX_RUNNING run at once.
 */
export function createSchemaChecker(options: SchemaCheckerOptions = {}): SchemaChecker {
  const heapMb = options.heapLimitMb ?? SCHEMA_CHECK_HEAP_LIMIT_MB;
  const jobs = workerJobs<{ schema: string; value: unknown }, SchemaVerdict>({
    spawn: () =>
      new Worker(WORKER_SOURCE, {
        eval: true,
        workerData: modulePaths(),
        resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 32 },
        stdout: true,
        stderr: true,
      }),
    idleMs: IDLE_MS,
    timeoutMs: options.timeoutMs ?? SCHEMA_CHECK_TIME_LIMIT_MS,
    maxRunning: MAX_RUNNING,
  });
  return {
    async check(schema, value) {
      const result = await jobs.run({ schema, value });
      return result.ok ? result.reply : { kind: 'unchecked', why: result.why };
    },
    close: () => jobs.close(),
  };
}
