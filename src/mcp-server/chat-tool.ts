import type { CallToolResult, Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { App } from '../app.js';
import { errorText, languageOf, say } from '../i18n.js';
import { MAX_MESSAGE_CHARS } from '../sessions/limits.js';
import { SessionError } from '../sessions/sessions.js';
import type { ServerAsks } from './server-asks.js';

export const CHAT_TOOL = 'chat';

/** Milliseconds to two decimals, as the CLI's `--json` gives them. */
const roundMs = (ms: number) => Math.round(ms * 100) / 100;

/** The whole assistant as one tool, for agents that delegate: what it takes and gives back (the CLI's `--json`). */
export const chatToolSpec: McpTool = {
  name: CHAT_TOOL,
  title: 'Chat with Zhixing',
  description:
    'Hands one message to Zhixing, a personal assistant that plans and uses its own tools (calculator, todos, files in its workspace, weather, shell), ' +
    'and returns its reply with every tool call it made. Leave out `session` to start a new conversation; pass the `session` of an earlier reply to continue it.',
  inputSchema: {
    type: 'object',
    properties: {
      message: {
        type: 'string',
        minLength: 1,
        maxLength: MAX_MESSAGE_CHARS,
        description: 'What to say to the assistant, in any language.',
      },
      session: {
        type: 'string',
        minLength: 1,
        description: 'The session id of an earlier reply, to continue that conversation.',
      },
    },
    required: ['message'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: {
      reply: { type: 'string' },
      session: { type: 'string' },
      mode: { type: 'string', enum: ['offline', 'llm'] },
      actions: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            tool: { type: 'string' },
            input: {},
            ok: { type: 'boolean' },
            output: { type: 'string' },
            ms: { type: 'number' },
          },
          required: ['tool', 'input', 'ok', 'output', 'ms'],
        },
      },
    },
    required: ['reply', 'session', 'actions'],
  },
  annotations: {
    title: 'Chat with Zhixing',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  },
};

const failure = (text: string): CallToolResult => ({ content: [{ type: 'text', text }], isError: true });

/**
 * One turn of the assistant for an MCP client. Its permission asks are refused like a direct call's
 * (unless the app approves them, `--yes`); its tool calls go out as progress lines.
 */
export async function runChat(
  app: Pick<App, 'sessions' | 'bus' | 'llm' | 'config'>,
  asks: ServerAsks,
  args: unknown,
  options: { signal: AbortSignal; progress?: (message: string) => void },
): Promise<CallToolResult> {
  const a = (typeof args === 'object' && args !== null ? args : {}) as Record<string, unknown>;
  const message = a.message;
  const lang = app.config.lang ?? languageOf(typeof message === 'string' ? message : '', app.config.uiLang);
  if (typeof message !== 'string' || !message.trim())
    return failure(say(lang, 'chat 需要一个非空的 message。', 'chat needs a non-empty "message".'));
  if (a.session !== undefined && typeof a.session !== 'string')
    return failure(say(lang, 'session 必须是字符串。', '"session" must be a string.'));
  const given = a.session as string | undefined;
  if (given !== undefined && !app.sessions.get(given)) {
    return failure(
      say(
        lang,
        `没有会话「${given.slice(0, 80)}」。不带 session 调用 chat 会开始一个新会话。`,
        `There is no session "${given.slice(0, 80)}". Call chat without "session" to start a new one.`,
      ),
    );
  }
  const sessionId = given ?? app.sessions.create().id;
  const release = asks.own(sessionId);
  const offs = options.progress
    ? [
        app.bus.on('tool.start', (e) => e.sessionId === sessionId && options.progress!(`${e.tool} …`)),
        app.bus.on(
          'tool.end',
          (e) => e.sessionId === sessionId && options.progress!(`${e.tool} ${e.ok ? 'done' : 'failed'}`),
        ),
      ]
    : [];
  try {
    const result = await app.sessions.send(sessionId, message, { signal: options.signal });
    const structured = {
      reply: result.reply,
      session: sessionId,
      mode: app.llm.mode,
      actions: result.actions.map((x) => ({
        tool: x.tool,
        input: x.input,
        ok: x.ok,
        output: x.output,
        ms: roundMs(x.ms),
      })),
    };
    return {
      content: [{ type: 'text', text: result.reply }],
      structuredContent: structured,
      ...((result.error || result.stopReason === 'aborted') && { isError: true }),
    };
  } catch (err) {
    if (err instanceof SessionError) return failure(errorText(err, lang));
    throw err;
  } finally {
    offs.forEach((off) => off());
    release();
  }
}
