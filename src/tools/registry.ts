import { z } from 'zod';
import type { ToolCall, ToolSpec } from '../llm/types.js';
import { say, ToolError, type Tool, type ToolContext } from './tool.js';

/** Past this a tool's output is cut, so one noisy call cannot flood the model's context. */
const MAX_OUTPUT_CHARS = 30_000;
const DEFAULT_TIMEOUT_MS = 60_000;

export interface ToolResult {
  ok: boolean;
  /** What the model reads. Failed calls start with "Error: ". */
  output: string;
  /** The parsed arguments when they were valid JSON, else the raw text. */
  input: unknown;
  ms: number;
}

export interface ToolRegistry {
  specs(): ToolSpec[];
  get(name: string): Tool | undefined;
  names(): string[];
  /** Adds or replaces a tool (MCP servers come and go). */
  register(tool: Tool): void;
  unregister(name: string): void;
  /** Never throws: bad JSON, unknown tools, invalid arguments, exceptions and timeouts come back as `ok: false`. */
  run(call: ToolCall, ctx: ToolContext): Promise<ToolResult>;
}

export function formatZodError(error: z.ZodError): string {
  return error.issues
    .map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message))
    .join('; ');
}

function truncate(text: string): string {
  if (text.length <= MAX_OUTPUT_CHARS) return text;
  const cut = text.length - MAX_OUTPUT_CHARS;
  return `${text.slice(0, MAX_OUTPUT_CHARS)}\n… [${cut} more characters cut]`;
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

/** The arguments parsed when they are valid JSON, else the raw text — how calls are shown and stored. */
export function parseToolInput(raw: string): unknown {
  const parsed = parseArguments(raw);
  return parsed.ok ? parsed.value : raw;
}

export function createToolRegistry(tools: Tool[] = [], options: { defaultTimeoutMs?: number } = {}): ToolRegistry {
  const byName = new Map<string, Tool>(tools.map((t) => [t.name, t]));
  const defaultTimeoutMs = options.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS;

  async function execute(tool: Tool, args: unknown, ctx: ToolContext): Promise<string> {
    const timeoutMs = tool.timeoutMs ?? defaultTimeoutMs;
    const controller = new AbortController();
    const cancelled = () => say(ctx.lang, '已取消。', 'Cancelled.');
    if (ctx.signal.aborted) throw new ToolError(cancelled());
    const pending = tool.execute(args, { ...ctx, signal: controller.signal });
    // A tool that answered at once needs no timer. (Synchronous work cannot be interrupted at all,
    // so synchronous tools must bound their own work, as the calculator bounds its input.)
    if (typeof pending === 'string') return pending;

    let rejectStopped!: (err: Error) => void;
    const stopped = new Promise<never>((_, reject) => (rejectStopped = reject));
    const stop = (message: string) => {
      controller.abort();
      rejectStopped(new ToolError(message));
    };
    const timer = setTimeout(
      () => stop(say(ctx.lang, `${tool.name} 超时（${timeoutMs / 1000} 秒），已停止。`, `${tool.name} timed out after ${timeoutMs / 1000} s and was stopped.`)),
      timeoutMs,
    );
    const onAbort = () => stop(cancelled());
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    try {
      // An asynchronous tool that ignores its signal still cannot hold the turn past its timeout.
      return await Promise.race([pending, stopped]);
    } finally {
      clearTimeout(timer);
      ctx.signal.removeEventListener('abort', onAbort);
    }
  }

  return {
    specs: () => [...byName.values()].map((t) => t.spec),
    get: (name) => byName.get(name),
    names: () => [...byName.keys()],
    register: (tool) => void byName.set(tool.name, tool),
    unregister: (name) => void byName.delete(name),
    async run(call, ctx) {
      const started = performance.now();
      const fail = (input: unknown, reason: string): ToolResult => ({
        ok: false,
        output: `Error: ${truncate(reason)}`,
        input,
        ms: performance.now() - started,
      });

      const parsed = parseArguments(call.arguments);
      if (!parsed.ok) {
        return fail(
          call.arguments,
          say(ctx.lang, `参数不是有效的 JSON（${parsed.reason}），请按工具的参数格式重新发送一个 JSON 对象。`,
            `the arguments are not valid JSON (${parsed.reason}). Send one JSON object that matches the tool's schema.`),
        );
      }
      const tool = byName.get(call.name);
      if (!tool) {
        return fail(
          parsed.value,
          say(ctx.lang, `没有名为 ${call.name} 的工具。可用的工具：${[...byName.keys()].join('、')}。`,
            `there is no tool named "${call.name}". Available tools: ${[...byName.keys()].join(', ')}.`),
        );
      }
      const args = tool.parameters.safeParse(parsed.value);
      if (!args.success) {
        return fail(
          parsed.value,
          say(ctx.lang, `${tool.name} 的参数不对：${formatZodError(args.error)}`,
            `invalid arguments for ${tool.name}: ${formatZodError(args.error)}`),
        );
      }
      try {
        const output = await execute(tool, args.data, ctx);
        return { ok: true, output: truncate(String(output)), input: parsed.value, ms: performance.now() - started };
      } catch (err) {
        if (err instanceof ToolError) return fail(parsed.value, err.message);
        const message = err instanceof Error ? err.message : String(err);
        return fail(parsed.value, say(ctx.lang, `${tool.name} 出错了：${message}`, `${tool.name} failed: ${message}`));
      }
    },
  };
}
