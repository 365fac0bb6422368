import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { say } from '../../i18n.js';
import { defineJsonSchemaTool } from '../../tools/json-schema-tool.js';
import type { Tool, ToolAnnotations, ToolContext } from '../../tools/tool.js';
import { ToolError } from '../../contract/tool-error.js';
import { isTimeout, reasonOf } from './errors.js';
import { cleanText, uniqueToolNames, untrustedDescription } from './names.js';
import { toToolOutput } from './results.js';
import { TooLargeError, TotalTimeoutError, UnavailableError, type ServerConnection } from './connection.js';

/** The tools one server may add: more would flood the model's context with descriptions. */
export const MAX_TOOLS_PER_SERVER = 100;
/** A tool's input schema at most this long (JSON): a schema is a form, not a document. */
const MAX_SCHEMA_CHARS = 20_000;
/**
 * The longest arguments (JSON) an MCP tool is sent: a server's tool may take a file's content
 * (filesystem's write_file), where a built-in's typed fields need 20,000 characters at most.
 */
const MAX_MCP_INPUT_CHARS = 1_000_000;
/** How much of a call's arguments the permission ask shows after the tool's name. */
const ASK_SUMMARY_CHARS = 120;
/**
 * The registry's own clock for an MCP call, a backstop only. The call's real limits are the server's:
 * `timeout_ms` without an answer (counted again from each progress notification, which the
 * registry's clock cannot see) and `max_total_ms` in all, whatever the progress.
 */
export const MCP_CALL_CEILING_MS = 60 * 60_000;

export interface ServerTools {
  tools: Tool[];
  /** What was left out, for the view: over the cap, schemas too big. */
  warning?: string;
}

const annotationsOf = (tool: McpTool): ToolAnnotations => {
  const a = tool.annotations ?? {};
  const out: ToolAnnotations = {};
  if (typeof a.readOnlyHint === 'boolean') out.readOnly = a.readOnlyHint;
  if (typeof a.destructiveHint === 'boolean') out.destructive = a.destructiveHint;
  if (typeof a.idempotentHint === 'boolean') out.idempotent = a.idempotentHint;
  if (typeof a.openWorldHint === 'boolean') out.openWorld = a.openWorldHint;
  return out;
};

/** A call's arguments in one short line, for the permission ask. */
function summary(args: Record<string, unknown>): string {
  const json = JSON.stringify(args);
  if (json === '{}') return '';
  return json.length <= ASK_SUMMARY_CHARS ? json : `${json.slice(0, ASK_SUMMARY_CHARS - 1)}…`;
}

function refusedText(ctx: ToolContext, name: string): string {
  const refusal = ctx.refusal?.();
  if (refusal === 'declined')
    return say(ctx.lang, `用户拒绝调用 ${name}，没有调用。`, `The user declined the call to ${name}; it was not made.`);
  if (refusal === 'unanswered')
    return say(
      ctx.lang,
      `调用 ${name} 需要用户批准，但没有人可以回答（没有终端），所以没有调用。`,
      `Calling ${name} needs the user's approval, and nobody was there to answer (no terminal); it was not called.`,
    );
  if (refusal === 'cancelled')
    return say(
      ctx.lang,
      `等待用户批准时回合被停止了，${name} 没有调用。`,
      `The turn was stopped while waiting for the user's approval; ${name} was not called.`,
    );
  return say(
    ctx.lang,
    `调用 ${name} 的请求被权限设置拒绝了，没有调用。`,
    `The call to ${name} was refused by the permission settings; it was not made.`,
  );
}

/** A call that did not come back as a result, as one sentence the model and the user can act on. */
function failureText(ctx: ToolContext, server: string, name: string, err: unknown, timeoutMs: number): string {
  if (err instanceof UnavailableError)
    return say(
      ctx.lang,
      `MCP 服务器 ${server} 不可用（${err.message}），${name} 没有调用。`,
      `The MCP server "${server}" is not available (${err.message}); ${name} was not called.`,
    );
  if (err instanceof TooLargeError)
    return say(
      ctx.lang,
      `MCP 服务器 ${server} 对 ${name} 的回答超过 10 MB，已丢弃，连接已重置；没有重试。`,
      `The MCP server "${server}" sent an answer to ${name} ${err.message}; it was dropped and the connection reset, and the call was not repeated.`,
    );
  if (err instanceof TotalTimeoutError) {
    const s = err.limitMs / 1000;
    return say(
      ctx.lang,
      `MCP 服务器 ${server} 的 ${name} 调用超过了总时限 ${s} 秒（进度通知不会延长总时限），已取消。可以在 config.json 里为它设置 max_total_ms。`,
      `The call to ${name} on the MCP server "${server}" went past its total limit of ${s} s (progress notifications do not extend it) and was cancelled. Its max_total_ms in config.json sets the limit.`,
    );
  }
  if (isTimeout(err))
    return say(
      ctx.lang,
      `MCP 服务器 ${server} 在 ${timeoutMs / 1000} 秒内没有回答 ${name}（也没有进度），已放弃。`,
      `The MCP server "${server}" did not answer ${name} within ${timeoutMs / 1000} s (and sent no progress); the call was given up.`,
    );
  if (err instanceof McpError && err.code !== ErrorCode.ConnectionClosed)
    return say(
      ctx.lang,
      `MCP 服务器 ${server} 拒绝了 ${name} 的调用：${reasonOf(err)}`,
      `The MCP server "${server}" refused the call to ${name}: ${reasonOf(err)}`,
    );
  return say(
    ctx.lang,
    `调用 MCP 服务器 ${server} 的 ${name} 失败：${reasonOf(err)}`,
    `The call to ${name} on the MCP server "${server}" failed: ${reasonOf(err)}`,
  );
}

/** A progress message is shown this long at most; only its first PROGRESS_SCAN_CHARS are even looked at. */
const PROGRESS_CHARS = 200;
const PROGRESS_SCAN_CHARS = 4 * PROGRESS_CHARS;
/** A call's progress is shown at most this often: a server flooding notifications must not flood the events and the store. */
export const PROGRESS_EVERY_MS = 250;

/**
 * Passes progress lines on at most once per PROGRESS_EVERY_MS; a line that comes sooner waits for
 * the end of the window and gives way to any later one. `stop()` drops what still waits.
 */
function throttled(show: (line: string) => void): { push(line: string): void; stop(): void } {
  let last = 0;
  // A server may go on reporting after the answer (the SDK keeps a task's progress handler): nothing is shown then.
  let stopped = false;
  let waiting: string | undefined;
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    timer = undefined;
    if (waiting === undefined) return;
    last = performance.now();
    show(waiting);
    waiting = undefined;
  };
  return {
    push(line) {
      if (stopped) return;
      waiting = line;
      const due = last + PROGRESS_EVERY_MS - performance.now();
      if (due <= 0 && !timer) flush();
      else timer ??= setTimeout(flush, Math.max(0, due));
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
      waiting = undefined;
    },
  };
}

/** The progress a server sent, as one line: `3/10 message`. */
export function progressLine(progress: number, total: number | undefined, message: string | undefined): string {
  const count = total !== undefined ? `${progress}/${total}` : `${progress}`;
  // Cut before cleaning: a flood of megabyte messages must not cost a full pass over each.
  const text = typeof message === 'string' ? cleanText(message.slice(0, PROGRESS_SCAN_CHARS), PROGRESS_CHARS) : '';
  return text ? `${count} ${text}` : count;
}

/**
 * A server's tools as the registry holds them: `<server>__<tool>`, parameters as the server's JSON
 * Schema, its description labelled as the server's words, each call asking permission first.
 */
export function serverTools(
  server: string,
  listed: McpTool[],
  connection: ServerConnection,
  timeoutMs: number,
  malformed: string[] = [],
  remote = false,
): ServerTools {
  const problems: string[] = [];
  const total = listed.length + malformed.length;
  const oversized = listed.filter((t) => JSON.stringify(t.inputSchema ?? {}).length > MAX_SCHEMA_CHARS);
  let offered = listed.filter((t) => !oversized.includes(t));
  if (offered.length > MAX_TOOLS_PER_SERVER) {
    problems.push(`it lists ${total} tools; only the first ${MAX_TOOLS_PER_SERVER} are offered`);
    offered = offered.slice(0, MAX_TOOLS_PER_SERVER);
  }
  if (oversized.length) {
    problems.push(
      `${oversized.length} tool${oversized.length > 1 ? 's' : ''} left out for a parameter schema over ${MAX_SCHEMA_CHARS / 1000} KB (${oversized
        .slice(0, 3)
        .map((t) => cleanText(t.name, 40))
        .join(', ')})`,
    );
  }
  if (malformed.length) {
    problems.push(
      `${malformed.length} tool${malformed.length > 1 ? 's' : ''} left out for a malformed definition (${malformed.slice(0, 3).join(', ')})`,
    );
  }
  const names = uniqueToolNames(
    server,
    offered.map((t) => t.name),
  );
  const tools = offered.map((tool, i): Tool => {
    const name = names[i]!;
    const annotations = annotationsOf(tool);
    return defineJsonSchemaTool({
      name,
      description: untrustedDescription(server, tool.description ?? tool.title),
      inputSchema: (tool.inputSchema ?? { type: 'object' }) as Record<string, unknown>,
      source: `mcp:${server}`,
      annotations,
      // Undo keeps a snapshot around calls that may change files; only a read-only tool is spared it.
      changesWorkspace: annotations.readOnly !== true,
      ...(remote && { remoteServer: server }),
      timeoutMs: MCP_CALL_CEILING_MS,
      maxInputChars: MAX_MCP_INPUT_CHARS,
      async execute(args, ctx) {
        const target = [name, summary(args)].filter(Boolean).join(' ');
        // A tool that reaches the outside world (the server says so, or does not say it does not) can carry data
        // there; a server across the network receives every call's arguments, whatever it says of its tools.
        const outward = remote || annotations.openWorld !== false;
        const decision = await ctx.ask({
          action: 'mcp.call',
          target,
          insideSandbox: true,
          ...(outward && {
            sendsTo: {
              kind: 'anywhere' as const,
              what: say(ctx.lang, `MCP 工具 ${name}`, `the MCP tool ${name}`),
              ...(remote && { server }),
            },
          }),
        });
        if (decision !== 'allow') throw new ToolError(refusedText(ctx, name));
        const progress = throttled((line) => ctx.progress(line));
        try {
          const result = await connection.call(tool.name, args, {
            signal: ctx.signal,
            onProgress: (done, total, message) => progress.push(progressLine(done, total, message)),
          });
          const output = toToolOutput(name, result);
          // A server may echo what it was configured with (its env, a token): never into the history.
          output.output = connection.redactSecrets(output.output);
          return output;
        } catch (err) {
          if (err instanceof ToolError) throw new ToolError(connection.redactSecrets(err.message));
          // Stopped by the user or the turn: the SDK reports its abort much as a timeout, which would be a wrong reason.
          if (ctx.signal.aborted)
            throw new ToolError(
              say(
                ctx.lang,
                `已告诉 MCP 服务器 ${server} 取消 ${name} 的调用。`,
                `The MCP server "${server}" was told to cancel the call to ${name}.`,
              ),
            );
          throw new ToolError(connection.redact(failureText(ctx, server, name, err, timeoutMs)));
        } finally {
          progress.stop();
        }
      },
    });
  });
  return { tools, ...(problems.length ? { warning: `${problems.join('; ')}.` } : {}) };
}
