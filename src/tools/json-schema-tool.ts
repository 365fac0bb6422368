import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
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
  execute(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolOutput | string> | ToolOutput | string;
}

/** How many of a schema's complaints are told: the first few are what a model can act on. */
const MAX_ERRORS_SHOWN = 5;

// One validator per dialect, made on first use: a run with no MCP server never loads them.
// `addUsedSchema: false` keeps two servers' schemas that share an `$id` from clashing;
// `strict: false` accepts the keywords and formats servers add that the dialect does not know.
let draft07: Ajv | undefined;
let draft2020: Ajv2020 | undefined;
const options = { strict: false, allErrors: true, addUsedSchema: false, validateFormats: false } as const;

/** MCP's schemas are 2020-12 unless they say otherwise; older servers' draft-07 is read as draft-07. */
function validatorFor(schema: Record<string, unknown>): Ajv | Ajv2020 {
  const dialect = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (/draft-0[4-7]/.test(dialect)) return (draft07 ??= new Ajv(options));
  return (draft2020 ??= new Ajv2020(options));
}

function describe(errors: ErrorObject[] | null | undefined): string {
  if (!errors?.length) return 'the arguments do not match the schema';
  const lines = errors.slice(0, MAX_ERRORS_SHOWN).map((e) => {
    const where = e.instancePath ? e.instancePath.slice(1).replaceAll('/', '.') : '';
    const extra = e.keyword === 'required' ? '' : e.keyword === 'additionalProperties' ? ` (${String((e.params as { additionalProperty?: string }).additionalProperty)})` : '';
    return `${where ? `${where}: ` : ''}${e.message ?? e.keyword}${extra}`;
  });
  const more = errors.length > MAX_ERRORS_SHOWN ? `; … ${errors.length - MAX_ERRORS_SHOWN} more` : '';
  return `${lines.join('; ')}${more}`;
}

/** The schema as the model is shown it: always an object schema, without the dialect tag. */
function modelSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = schema;
  return { ...rest, type: 'object', properties: rest.properties ?? {} };
}

/**
 * A tool described by JSON Schema, validated by ajv. The validator is compiled once, at the first
 * call; a schema ajv cannot compile leaves the arguments to the tool's owner to judge (the server
 * checks them again anyway), rather than making the tool unusable.
 */
export function defineJsonSchemaTool(def: JsonSchemaToolDefinition): Tool {
  let validate: ValidateFunction | null | undefined;
  const compiled = (): ValidateFunction | null => {
    if (validate !== undefined) return validate;
    try {
      validate = validatorFor(def.inputSchema).compile(def.inputSchema);
    } catch {
      validate = null;
    }
    return validate;
  };
  const spec = { name: def.name, description: def.description, parameters: modelSchema(def.inputSchema) };
  return {
    name: def.name,
    description: def.description,
    source: def.source,
    timeoutMs: def.timeoutMs,
    annotations: def.annotations,
    changesWorkspace: def.changesWorkspace,
    maxInputChars: def.maxInputChars,
    spec,
    check(value: unknown): ArgsCheck {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, message: 'the arguments must be a JSON object' };
      const fn = compiled();
      if (!fn || fn(value)) return { ok: true, value };
      return { ok: false, message: describe(fn.errors) };
    },
    execute: (args, ctx) => def.execute(args as Record<string, unknown>, ctx),
  };
}
