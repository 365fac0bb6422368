import type { ErrorObject } from 'ajv';
import {
  createSchemaChecker,
  MAX_SCHEMA_ERRORS,
  SCHEMA_CHECK_TIME_LIMIT_MS,
  type SchemaChecker,
} from './schema-checker.js';
import type { ArgsCheck, Tool, ToolAnnotations, ToolContext, ToolOutput, ToolSource } from './tool.js';

/** A tool whose parameters are a JSON Schema as it came (an MCP server's `inputSchema`). */
export interface JsonSchemaToolDefinition {
  name: string;
  description: string;
  /** The schema as sent; an object schema (`type: "object"`) as MCP requires. */
  inputSchema: Record<string, unknown>;
  source: ToolSource;
  timeoutMs?: number;
  annotations?: ToolAnnotations;
  changesWorkspace?: boolean;
  maxInputChars?: number;
  remoteServer?: string;
  /** Where the arguments are checked; by default one checker per source (per MCP server). */
  checker?: SchemaChecker;
  execute(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolOutput | string> | ToolOutput | string;
}

// One checker per source, made on first use: a server whose schema is slow to check only makes its
// own calls wait, never another server's. A run with no MCP server never starts a thread; the
// workers are unref'd and end themselves when idle, so nothing has to close them.
const checkers = new Map<ToolSource, SchemaChecker>();
const checkerFor = (source: ToolSource): SchemaChecker => {
  let checker = checkers.get(source);
  if (!checker) checkers.set(source, (checker = createSchemaChecker()));
  return checker;
};

function describe(errors: ErrorObject[], total: number): string {
  if (!errors.length) return 'the arguments do not match the schema';
  const lines = errors.slice(0, MAX_SCHEMA_ERRORS).map((e) => {
    const where = e.instancePath ? e.instancePath.slice(1).replaceAll('/', '.') : '';
    const extra =
      e.keyword === 'required'
        ? ''
        : e.keyword === 'additionalProperties'
          ? ` (${String((e.params as { additionalProperty?: string }).additionalProperty)})`
          : '';
    return `${where ? `${where}: ` : ''}${e.message ?? e.keyword}${extra}`;
  });
  const more = total > lines.length ? `; … ${total - lines.length} more` : '';
  return `${lines.join('; ')}${more}`;
}

/** The schema as the model is shown it: always an object schema, without the dialect tag. */
function modelSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = schema;
  return { ...rest, type: 'object', properties: rest.properties ?? {} };
}

/** Why arguments went unchecked, for the model: it may send simpler arguments, or not call the tool. */
const UNCHECKED: Record<'time' | 'memory' | 'failed', string> = {
  time: `the server's schema took more than ${SCHEMA_CHECK_TIME_LIMIT_MS / 1000} s to check these arguments, so the call was not made; send simpler arguments or do without this tool`,
  memory:
    "checking these arguments against the server's schema needed too much memory, so the call was not made; send simpler arguments or do without this tool",
  failed: "the arguments could not be checked against the server's schema, so the call was not made",
};

/**
 * A tool described by JSON Schema, validated by ajv off the main thread (schema-checker.ts). The
 * validator is compiled once per schema; a schema ajv cannot compile leaves the arguments to the
 * tool's owner to judge (the server checks them again anyway), rather than making the tool unusable.
 * A check that cannot finish within its limits refuses the call: the arguments were never checked.
 */
export function defineJsonSchemaTool(def: JsonSchemaToolDefinition): Tool {
  const schemaText = JSON.stringify(def.inputSchema);
  const spec = { name: def.name, description: def.description, parameters: modelSchema(def.inputSchema) };
  return {
    name: def.name,
    description: def.description,
    source: def.source,
    timeoutMs: def.timeoutMs,
    annotations: def.annotations,
    changesWorkspace: def.changesWorkspace,
    maxInputChars: def.maxInputChars,
    ...(def.remoteServer !== undefined && { remoteServer: def.remoteServer }),
    spec,
    async check(value: unknown): Promise<ArgsCheck> {
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        return { ok: false, message: 'the arguments must be a JSON object' };
      const checker = def.checker ?? checkerFor(def.source);
      const verdict = await checker.check(schemaText, value);
      switch (verdict.kind) {
        case 'valid':
        case 'uncompilable':
          return { ok: true, value };
        case 'invalid':
          return { ok: false, message: describe(verdict.errors, verdict.total) };
        case 'unchecked':
          return { ok: false, message: UNCHECKED[verdict.why] };
      }
    },
    execute: (args, ctx) => def.execute(args as Record<string, unknown>, ctx),
  };
}
