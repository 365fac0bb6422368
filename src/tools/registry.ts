import type { ToolCall, ToolSpec } from '../llm/types.js';
import { say } from '../i18n.js';
import { boundResult, type BoundAttachment } from './bound-result.js';
import { UNTRUSTED_CLOSE } from '../contract/untrusted-fence.js';
import type { Tool, ToolContext, ToolOutput, ToolSource } from './tool.js';
import { ToolError, type ToolErrorKind } from '../contract/tool-error.js';
import type { ToolData } from '../contract/tool-data.js';
import type { ActionRecord } from '../contract/tool-outcome.js';

/** Past this a tool's output is cut, so one noisy call cannot flood the model's context. */
export const TOOL_OUTPUT_LIMIT = 30_000;
const MAX_OUTPUT_CHARS = TOOL_OUTPUT_LIMIT;
/** When a cut falls inside fenced content, this much from the last closing fence on is kept after it. */
const MAX_KEPT_TAIL_CHARS = 2_000;
const DEFAULT_TIMEOUT_MS = 60_000;
/** The arguments a tool takes unless it says otherwise: no typed field needs more. */
const DEFAULT_MAX_INPUT_CHARS = 20_000;
/** How much of refused arguments is kept for the history and the trace. */
const REFUSED_INPUT_PREVIEW_CHARS = 200;
/** After a stop, how long a tool has to stop or finish before the call is reported as possibly still running. */
const DEFAULT_SETTLE_GRACE_MS = 10_000;

/** A call's outcome as the registry gives it to the turn, which reports it as an `ActionRecord`. */
export interface ToolResult extends Pick<ActionRecord, 'ok' | 'output' | 'input' | 'ms' | 'title' | 'metadata'> {
  /** Files for the user, never sent to the model (at most 5 MB of data per call). */
  attachments?: BoundAttachment[];
  /** A failure whose message quotes words from outside (ToolError.outside). */
  outside?: boolean;
  /** When `ok` is false: what kind of failure. */
  error?: ToolErrorKind;
  /** What the output says, as data for code (the offline planner); never sent to the model. */
  data?: ToolData;
}

export interface ToolRegistry {
  specs(): ToolSpec[];
  get(name: string): Tool | undefined;
  names(): string[];
  /**
   * Reads a call's arguments once, for everything that follows: the store, the events, the repeat
   * guard, the history sent back to the model and `run`. Oversized arguments are not parsed at all.
   */
  prepare(call: ToolCall): PreparedCall;
  /** Adds or replaces a tool (MCP servers come and go). */
  register(tool: Tool): void;
  unregister(name: string): void;
  /**
   * Makes `tools` the whole set from `source` (an MCP server's list after it connected or changed):
   * that source's tools not in it are removed. A name another source holds is not taken over.
   * Returns the names registered.
   */
  replaceSource(source: ToolSource, tools: Tool[]): string[];
  /** Removes every tool from `source` (a server removed or disabled). */
  removeSource(source: ToolSource): void;
  /** Every tool with where it came from, in registration order. */
  list(): Tool[];
  /** Told after the set of tools changed (not on a replace that changed nothing); returns an unsubscribe. */
  onChange(listener: () => void): () => void;
  /** Never throws: bad JSON, unknown tools, invalid arguments, exceptions and timeouts come back as `ok: false`. */
  run(call: ToolCall | PreparedCall, ctx: ToolContext): Promise<ToolResult>;
}

/** A call with its arguments read: the one parse a call gets. */
export interface PreparedCall {
  call: ToolCall;
  parsed: { ok: true; value: unknown } | { ok: false; reason: string } | { ok: false; oversized: number };
  /** As stored and shown: the parsed value, else the raw text, else (oversized) a short preview. */
  input: unknown;
  /** The arguments as sent back to the model in the history: `{}` when they cannot be sent back whole. */
  arguments: string;
}

export { formatZodError } from './tool.js';

/**
 * Cuts an output over the limit. A cut inside fenced outside content would leave the fence open, so
 * everything after it would read as more content (and a planted "</untrusted-content>" could not be
 * told from the real one): the last closing fence and what follows it (a short note) are kept.
 */
export function truncate(text: string): string {
  if (text.length <= MAX_OUTPUT_CHARS) return text;
  const close = text.lastIndexOf(UNTRUSTED_CLOSE);
  const fenced = close >= 0 && text.lastIndexOf('<untrusted-content', close) >= 0;
  if (!fenced || close + UNTRUSTED_CLOSE.length <= MAX_OUTPUT_CHARS) {
    return `${text.slice(0, MAX_OUTPUT_CHARS)}\n… [${text.length - MAX_OUTPUT_CHARS} more characters cut]`;
  }
  let tail = text.slice(close);
  if (tail.length > MAX_KEPT_TAIL_CHARS) tail = `${tail.slice(0, MAX_KEPT_TAIL_CHARS)}\n…`;
  const head = MAX_OUTPUT_CHARS - tail.length;
  const cut = text.length - head - tail.length;
  return `${text.slice(0, head)}\n… [${cut} more characters cut]\n${tail}`;
}

/** A call's arguments as JSON; empty text counts as `{}` (some providers send nothing for no arguments). */
export function parseArguments(raw: string): { ok: true; value: unknown } | { ok: false; reason: string } {
  if (raw.trim() === '') return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(raw) };
  } catch (err) {
    return { ok: false, reason: (err as Error).message };
  }
}

const refusedPreview = (raw: string) => `${raw.slice(0, REFUSED_INPUT_PREVIEW_CHARS)}…`;

interface PausableTimer {
  pause(): void;
  resume(): void;
  /** For good: a resume after this does nothing. */
  clear(): void;
}

/** A timeout that can stop and later go on with the time it had left. */
function pausableTimer(onTimeout: () => void, ms: number, running: boolean): PausableTimer {
  let left = ms;
  let since = 0;
  let handle: NodeJS.Timeout | undefined;
  let cleared = false;
  const timer: PausableTimer = {
    pause() {
      if (!handle) return;
      clearTimeout(handle);
      handle = undefined;
      left -= performance.now() - since;
    },
    resume() {
      if (handle || cleared) return;
      since = performance.now();
      handle = setTimeout(onTimeout, Math.max(0, left));
    },
    clear() {
      cleared = true;
      timer.pause();
    },
  };
  if (running) timer.resume();
  return timer;
}

/**
 * Takes the API key out of what passes through the tools. A model service holds the key and may
 * echo it in a call's arguments (escaped in ways only parsing reveals) or get a tool to rebuild it;
 * it must never reach a file, the store, the terminal or the history from there.
 */
export interface Scrub {
  text(text: string): string;
  /** Every string in a parsed JSON value, object keys too. */
  value<T>(value: T): T;
}

export interface RegistryOptions {
  defaultTimeoutMs?: number;
  settleGraceMs?: number;
  scrub?: Scrub;
}

export function createToolRegistry(tools: Tool[] = [], options: RegistryOptions = {}): ToolRegistry {
  const scrub = options.scrub;
  const byName = new Map<string, Tool>(tools.map((t) => [t.name, t]));
  const defaultTimeoutMs = options.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS;
  const settleGraceMs = options.settleGraceMs ?? DEFAULT_SETTLE_GRACE_MS;

  /** A result as it may leave the registry: output and card without the key (a tool may have rebuilt it). */
  function clean(result: ToolResult): ToolResult {
    if (!scrub) return result;
    const { output, title, metadata, data, ...rest } = result;
    return {
      ...rest,
      output: scrub.text(output),
      ...(title === undefined ? {} : { title: scrub.text(title) }),
      ...(metadata === undefined ? {} : { metadata: scrub.value(metadata) }),
      ...(data === undefined ? {} : { data: scrub.value(data) }),
    };
  }

  function prepare(call: ToolCall): PreparedCall {
    const max = byName.get(call.name)?.maxInputChars ?? DEFAULT_MAX_INPUT_CHARS;
    if (call.arguments.length > max)
      return { call, parsed: { ok: false, oversized: max }, input: refusedPreview(call.arguments), arguments: '{}' };
    const parsed = parseArguments(call.arguments);
    if (!scrub) return { call, parsed, input: parsed.ok ? parsed.value : call.arguments, arguments: call.arguments };
    // What the tool, the store and the history see is the scrubbed value, all alike.
    if (!parsed.ok) return { call, parsed, input: scrub.text(call.arguments), arguments: '{}' };
    const value = scrub.value(parsed.value);
    return { call, parsed: { ok: true, value }, input: value, arguments: JSON.stringify(value) };
  }

  async function execute(tool: Tool, args: unknown, ctx: ToolContext): Promise<ToolOutput | string> {
    const timeoutMs = tool.timeoutMs ?? defaultTimeoutMs;
    // Made when the tool first looks at its signal, or when it is stopped: most calls never need one.
    let controller: AbortController | undefined;
    const abort = () => (controller ??= new AbortController()).abort();
    if (ctx.signal.aborted)
      throw new ToolError(say(ctx.lang, '已取消，没有执行。', 'Cancelled before it started; nothing was done.'), {
        kind: 'stopped',
      });
    // The clock stops while the user decides a permission ask, and goes on with the time that was left.
    let asking = 0;
    let clock: PausableTimer | undefined;
    const ask: ToolContext['ask'] = async (request) => {
      if (asking++ === 0) clock?.pause();
      try {
        // What an ask names is announced, shown and stored with the call: never with the key in it.
        return await ctx.ask(scrub ? scrub.value(request) : request);
      } finally {
        if (--asking === 0) clock?.resume();
      }
    };
    let committed = false;
    const pending = tool.execute(args, {
      ...ctx,
      get signal() {
        return (controller ??= new AbortController()).signal;
      },
      ask,
      unstoppable: () => void (committed = true),
    });
    // A tool that answered at once needs no timer. (Synchronous work cannot be interrupted at all,
    // so synchronous tools must bound their own work, as the calculator bounds its input.)
    if (!(pending instanceof Promise)) return pending;

    let why = '';
    let whyKind: ToolErrorKind = 'stopped';
    let graceMs = settleGraceMs;
    let onStop!: () => void;
    const stopped = new Promise<void>((resolve) => (onStop = resolve));
    const stop = (message: string, kind: ToolErrorKind, grace = settleGraceMs) => {
      why = message;
      whyKind = kind;
      graceMs = grace;
      abort();
      onStop();
    };
    clock = pausableTimer(
      // A tool with a short timeout gets as short a grace.
      () =>
        stop(
          say(
            ctx.lang,
            `${tool.name} 超时（${timeoutMs / 1000} 秒），已要求它停止。`,
            `${tool.name} timed out after ${timeoutMs / 1000} s and was told to stop.`,
          ),
          'timeout',
          Math.min(settleGraceMs, timeoutMs),
        ),
      timeoutMs,
      asking === 0,
    );
    const onAbort = () => stop(say(ctx.lang, '已要求停止。', 'It was told to stop.'), 'stopped');
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    try {
      const first = await Promise.race([pending.then((output) => ({ output })), stopped]);
      if (first) return first.output;
    } finally {
      clock.clear();
      ctx.signal.removeEventListener('abort', onAbort);
    }
    return afterStop(pending, why, whyKind, ctx.lang, graceMs, () => committed);
  }

  /**
   * A stop was asked and the tool's signal fired. What the call reports must match what it did, so
   * the tool is given a grace period to stop or finish; a write that lands is reported as done.
   */
  async function afterStop(
    pending: Promise<ToolOutput | string>,
    why: string,
    kind: ToolErrorKind,
    lang: ToolContext['lang'],
    graceMs: number,
    committed: () => boolean,
  ): Promise<ToolOutput | string> {
    let graceTimer: NodeJS.Timeout | undefined;
    const outcome = pending.then(
      (output) => ({ output }),
      (error: unknown) => ({ error }),
    );
    const grace = new Promise<'still running'>(
      (resolve) => (graceTimer = setTimeout(() => resolve('still running'), graceMs)),
    );
    try {
      let settled = await Promise.race([outcome, grace]);
      // Past its point of no return the call is waited for, however long: only then does the report match.
      if (settled === 'still running' && committed()) settled = await outcome;
      if (settled === 'still running') {
        throw new ToolError(
          `${why} ${say(
            lang,
            `它在 ${graceMs / 1000} 秒内没有确认已停止，可能仍会完成。`,
            `It did not confirm within ${graceMs / 1000} s that it stopped, so it may still finish.`,
          )}`,
          { kind },
        );
      }
      if ('output' in settled) {
        const note = say(lang, '（停止请求到达前它已经完成。）', '(It finished before the stop could take effect.)');
        const done = settled.output;
        return typeof done === 'string' ? `${done}\n${note}` : { ...done, output: `${done.output}\n${note}` };
      }
      // The tool's own account (e.g. "nothing was written") is the most precise one.
      const own = settled.error instanceof ToolError ? ` ${settled.error.message}` : '';
      throw new ToolError(`${why}${own || say(lang, '它已停止。', ' It stopped.')}`, { kind });
    } finally {
      clearTimeout(graceTimer);
    }
  }

  const listeners = new Set<() => void>();
  const changed = () => {
    for (const listener of [...listeners]) {
      try {
        listener();
      } catch {
        // A host's listener failing must not undo the change or stop the others hearing of it.
      }
    }
  };

  return {
    specs: () => [...byName.values()].map((t) => t.spec),
    get: (name) => byName.get(name),
    names: () => [...byName.keys()],
    list: () => [...byName.values()],
    prepare,
    register: (tool) => {
      byName.set(tool.name, tool);
      changed();
    },
    unregister: (name) => {
      if (byName.delete(name)) changed();
    },
    replaceSource(source, tools) {
      let dirty = false;
      const kept = new Set<string>();
      for (const tool of tools) {
        const held = byName.get(tool.name);
        if (held && held.source !== source) continue;
        if (held !== tool) dirty = true;
        byName.set(tool.name, tool);
        kept.add(tool.name);
      }
      for (const [name, tool] of byName) {
        if (tool.source === source && !kept.has(name)) {
          byName.delete(name);
          dirty = true;
        }
      }
      if (dirty) changed();
      return [...kept];
    },
    removeSource(source) {
      let dirty = false;
      for (const [name, tool] of byName) {
        if (tool.source === source) {
          byName.delete(name);
          dirty = true;
        }
      }
      if (dirty) changed();
    },
    onChange(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    async run(callOrPrepared, ctx) {
      const started = performance.now();
      const { call, parsed } = 'parsed' in callOrPrepared ? callOrPrepared : prepare(callOrPrepared);
      const fail = (input: unknown, reason: string, error: ToolErrorKind, outside = false): ToolResult =>
        clean({
          ok: false,
          output: `Error: ${truncate(reason)}`,
          input,
          ms: performance.now() - started,
          error,
          ...(outside && { outside: true }),
        });

      const tool = byName.get(call.name);
      // A huge argument is refused whole, never parsed, stored or shown.
      if ('oversized' in parsed) {
        const size = call.arguments.length.toLocaleString('en-US');
        const max = parsed.oversized.toLocaleString('en-US');
        return fail(
          refusedPreview(call.arguments),
          say(
            ctx.lang,
            `${call.name} 的参数太长（${size} 个字符，上限 ${max}），没有执行。`,
            `the arguments for ${call.name} are too long (${size} characters, at most ${max}); it was not run.`,
          ),
          'invalid',
        );
      }
      if (!parsed.ok) {
        return fail(
          call.arguments,
          say(
            ctx.lang,
            `参数不是有效的 JSON（${parsed.reason}），请按工具的参数格式重新发送一个 JSON 对象。`,
            `the arguments are not valid JSON (${parsed.reason}). Send one JSON object that matches the tool's schema.`,
          ),
          'invalid',
        );
      }
      if (!tool) {
        return fail(
          parsed.value,
          say(
            ctx.lang,
            `没有名为 ${call.name} 的工具。可用的工具：${[...byName.keys()].join('、')}。`,
            `there is no tool named "${call.name}". Available tools: ${[...byName.keys()].join(', ')}.`,
          ),
          'unknown_tool',
        );
      }
      const args = await tool.check(parsed.value);
      if (!args.ok) {
        return fail(
          parsed.value,
          say(
            ctx.lang,
            `${tool.name} 的参数不对：${args.message}`,
            `invalid arguments for ${tool.name}: ${args.message}`,
          ),
          'invalid',
        );
      }
      try {
        const bound = await boundResult(await execute(tool, args.value, ctx), ctx);
        if (!bound)
          return fail(
            parsed.value,
            say(
              ctx.lang,
              `${tool.name} 出错了：结果里没有输出文字。`,
              `${tool.name} failed: its result had no output text.`,
            ),
            'failed',
          );
        const { notes, output, ...card } = bound;
        return clean({
          ok: true,
          output: [truncate(output), ...notes].join('\n'),
          input: parsed.value,
          ms: performance.now() - started,
          ...card,
        });
      } catch (err) {
        if (err instanceof ToolError) return fail(parsed.value, err.message, err.kind, err.outside);
        const message = err instanceof Error ? err.message : String(err);
        return fail(
          parsed.value,
          say(ctx.lang, `${tool.name} 出错了：${message}`, `${tool.name} failed: ${message}`),
          'failed',
        );
      }
    },
  };
}
