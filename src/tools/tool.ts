import { z } from 'zod';
import type { Lang } from '../i18n.js';
import type { ToolSpec } from '../llm/types.js';
import type { TurnTrust } from '../permission/turn-trust.js';
import type { PermissionDecision, PermissionRefusal, PermissionRequest } from '../contract/permission.js';
import { ToolData } from '../contract/tool-data.js';

/** Longer file names and MIME types than this are not names but data. */
const MAX_ATTACHMENT_NAME_CHARS = 255;

/** Everything a tool gets from the turn that runs it, instead of reaching for globals. */
export interface ToolContext {
  sessionId: string;
  /** The turn the call belongs to, and the id the model gave the call: what the stored part and the events are keyed by. */
  turnId: string;
  callId: string;
  /** Absolute, real path of the session's file sandbox. */
  workspace: string;
  signal: AbortSignal;
  /** Tool output is read by the model and, offline, relayed to the user: write it in this language. */
  lang: Lang;
  ask(request: PermissionRequest): Promise<PermissionDecision>;
  /** After `ask` said 'deny': set when a person, not a rule, refused, so the tool's refusal can say so. */
  refusal?(): PermissionRefusal | undefined;
  /** A line of progress for long work, shown to the user while the tool runs. */
  progress(message: string): void;
  /**
   * The turn's trust record: what outside content entered it, and what the user asked in their own
   * words. Absent outside a model turn (a call from an MCP client): then nothing counts as asked by the user.
   */
  trust?: TurnTrust;
  /**
   * Says the call has reached the point where it takes effect (a rename, a commit) and cannot be
   * stopped any more: a stop or timeout from now on waits for it to finish and reports what it did.
   * Check `signal` just before calling it; call nothing that waits in between.
   */
  unstoppable?(): void;
}

/**
 * A file a tool hands back beside its text: bytes (base64) or a file in the workspace. The UI shows
 * or offers it; it is never pasted into the model's context.
 */
export const ToolAttachment = z.union([
  z.object({
    name: z
      .string()
      .min(1)
      .max(MAX_ATTACHMENT_NAME_CHARS)
      .describe('The file name shown to the user, e.g. "chart.png".'),
    mimeType: z.string().min(1).max(MAX_ATTACHMENT_NAME_CHARS).describe('e.g. "image/png".'),
    data: z.base64().describe('The bytes, base64-encoded.'),
  }),
  z.object({
    name: z.string().min(1).max(MAX_ATTACHMENT_NAME_CHARS).describe('The file name shown to the user.'),
    mimeType: z.string().min(1).max(MAX_ATTACHMENT_NAME_CHARS).describe('e.g. "application/pdf".'),
    path: z.string().min(1).describe('A file in the workspace, relative to it.'),
  }),
]);
export type ToolAttachment = z.infer<typeof ToolAttachment>;

/**
 * What a tool's `execute` returns (a plain string means `{ output }`). Only `output` reaches the
 * model; the rest feeds the UI's cards and is stored with the call, and `data` is what code reads.
 */
export const ToolOutput = z.object({
  output: z.string().describe('What the model reads.'),
  title: z.string().optional().describe('One short line for the call\'s card, e.g. "notes/a.txt" or "(3+5)*2 = 16".'),
  metadata: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('A small JSON object for the card, e.g. { path, bytes }.'),
  attachments: z.array(ToolAttachment).optional().describe('Images and files for the user, never for the model.'),
  data: ToolData.optional().describe(
    'What the output says, as data for code (the offline planner), e.g. the todo list; never for the model.',
  ),
});
export type ToolOutput = z.infer<typeof ToolOutput>;

/** The text the model reads from what `execute` returned. */
export const outputText = (result: ToolOutput | string): string =>
  typeof result === 'string' ? result : result.output;

/** Hints about a tool's effects, with the meanings MCP gives them. Absent means not claimed. */
export interface ToolAnnotations {
  /** Changes nothing, so it may run at the same time as other read-only calls of the same step. */
  readOnly?: boolean;
  /** May delete or overwrite what exists. */
  destructive?: boolean;
  /** Repeating the call with the same arguments changes nothing more. */
  idempotent?: boolean;
  /** Reaches services outside this machine. */
  openWorld?: boolean;
}

export interface ToolDefinition<S extends z.ZodType = z.ZodType> {
  name: string;
  /** Written for the model: when to use the tool and what it returns. */
  description: string;
  parameters: S;
  /** Past this the call is abandoned and reported as a timeout. */
  timeoutMs?: number;
  /** What the tool does to the world, as MCP's tool hints say it. */
  annotations?: ToolAnnotations;
  /** The call may create, change or delete files in the workspace: the turn keeps a snapshot to undo it. */
  changesWorkspace?: boolean;
  /**
   * The MCP server across the network that wrote this tool's description and receives its calls
   * (absent for built-in tools and local servers, whose code runs with the user's rights anyway).
   */
  remoteServer?: string;
  /**
   * The longest arguments text (JSON, in characters) the tool accepts; longer calls are refused
   * before they are parsed. Default 20,000: enough for any field a person would type.
   */
  maxInputChars?: number;
  execute(args: z.infer<S>, ctx: ToolContext): Promise<ToolOutput | string> | ToolOutput | string;
}

/** What a tool's argument check says: the arguments to run with, or what is wrong with them. */
export type ArgsCheck = { ok: true; value: unknown } | { ok: false; message: string };

/** Where a tool comes from: `builtin`, or `mcp:<server>` for a connected MCP server's tools. */
export type ToolSource = string;

/**
 * A tool as the registry holds it, whatever described its parameters: a zod schema (built-in tools)
 * or a JSON Schema as an MCP server sent it.
 */
export interface Tool extends Omit<ToolDefinition, 'parameters'> {
  /** The zod schema of a built-in tool; absent for tools described by JSON Schema. */
  parameters?: z.ZodType;
  spec: ToolSpec;
  source: ToolSource;
  /**
   * Validates parsed arguments against the tool's schema, once per call, before `execute`. A schema
   * from outside (an MCP server's) is checked off the main thread, hence the promise.
   */
  check(value: unknown): ArgsCheck | Promise<ArgsCheck>;
}

/** Zod's issues as one line a model can act on: `path: message; …`. */
export function formatZodError(error: z.ZodError): string {
  return error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ');
}

/**
 * One definition serves the model, MCP, the UI and tests: the JSON Schema is generated
 * from the zod schema, never written twice.
 */
export function defineTool<S extends z.ZodType>(
  def: ToolDefinition<S>,
): Omit<Tool, 'check'> & { check(value: unknown): ArgsCheck } {
  let parameters: Record<string, unknown> | undefined;
  return {
    ...(def as unknown as ToolDefinition),
    source: 'builtin',
    check(value) {
      const args = def.parameters.safeParse(value);
      return args.success ? { ok: true, value: args.data } : { ok: false, message: formatZodError(args.error) };
    },
    spec: {
      name: def.name,
      description: def.description,
      // Generated on first use: the offline planner never needs it, and a one-shot call should not pay for it.
      get parameters() {
        if (!parameters) {
          parameters = z.toJSONSchema(def.parameters, { io: 'input', unrepresentable: 'any' }) as Record<
            string,
            unknown
          >;
          delete parameters.$schema;
        }
        return parameters;
      },
    },
  };
}
