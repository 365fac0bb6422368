import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolRequestSchema,
  type CallToolRequest,
  type ServerNotification,
  type ServerRequest,
  ListToolsRequestSchema,
  type CallToolResult,
  type Tool as McpTool,
  type ToolAnnotations as McpToolAnnotations,
} from '@modelcontextprotocol/sdk/types.js';
import type { App } from '../app.js';
import { languageOf, say } from '../i18n.js';
import type { Tool } from '../tools/tool.js';
import type { PermissionDecision, PermissionRefusal, PermissionRequest } from '../contract/permission.js';
import { ASK_CAPABILITY, ASK_METHOD, AskResultSchema, CALL_META, LANG_META } from './ask-protocol.js';
import { CHAT_TOOL, chatToolSpec, runChat } from './chat-tool.js';
import { createServerAsks, serverRefusalText, unansweredAsk } from './server-asks.js';
import { toCallToolResult } from './tool-result.js';

/** How long a result waits after the last progress line it sent (see callTool). */
const PROGRESS_GAP_MS = 20;

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** What the MCP server is built from: the app's parts, nothing global. */
export type McpServerApp = Pick<App, 'config' | 'tools' | 'sessions' | 'bus' | 'llm' | 'workspace'> & {
  permission: Pick<App['permission'], 'askFor' | 'reply' | 'refuseUnanswered'>;
};

export interface McpServerDeps {
  app: McpServerApp;
  version: string;
  /** Told of a handler that failed unexpectedly (the registry itself never throws). */
  log?: (line: string) => void;
  /**
   * Lets a client that declares `zhixing/permission-asks` answer its calls' asks (stdio only: see
   * ask-protocol.ts). Without it every ask is refused as unanswered.
   */
  forwardAsks?: boolean;
}

/** A built server and what to stop when its connection ends. */
export interface BuiltMcpServer {
  server: Server;
  /** Stops refusing this server's asks; the transport is closed by whoever opened it. */
  dispose(): void;
  /**
   * Resolves once every call that is running has settled, or after `ms`: closing the server aborts
   * them, and the app must not close under a call still writing.
   */
  settled(ms: number): Promise<void>;
}

/** A person's answer may take long: a forwarded ask waits as it would in a terminal (the call's cancel still ends it). */
const ASK_WAIT_MS = 24 * 60 * 60_000;

/** "file_read" → "File read": a title for clients that show one. */
const titleOf = (name: string) => name.charAt(0).toUpperCase() + name.slice(1).replace(/_/g, ' ');

/** A built-in tool as MCP lists it: the schema and words the model gets, and its hints. */
export function toMcpTool(tool: Tool): McpTool {
  const a = tool.annotations ?? {};
  const hints: McpToolAnnotations = {
    title: titleOf(tool.name),
    ...(a.readOnly !== undefined && { readOnlyHint: a.readOnly }),
    ...(a.destructive !== undefined && { destructiveHint: a.destructive }),
    ...(a.idempotent !== undefined && { idempotentHint: a.idempotent }),
    ...(a.openWorld !== undefined && { openWorldHint: a.openWorld }),
  };
  return {
    name: tool.name,
    title: titleOf(tool.name),
    description: tool.spec.description,
    inputSchema: { type: 'object', ...tool.spec.parameters } as McpTool['inputSchema'],
    annotations: hints,
  };
}

/** Only Zhixing's own tools are served: never those it got from other MCP servers (they are not ours to pass on). */
const servedTools = (app: McpServerApp) => app.tools.list().filter((t) => t.source === 'builtin');

/**
 * Zhixing as an MCP server, on the SDK's low-level `Server` (the tools come with JSON Schemas, not zod
 * shapes): the built-in tools from the same definitions the model uses, run through the same
 * registry, plus `chat`, the whole assistant as one tool. One built server serves one connection.
 */
export function buildMcpServer(deps: McpServerDeps): BuiltMcpServer {
  const { app } = deps;
  const log = deps.log ?? (() => {});
  const server = new Server(
    { name: 'zhixing', title: 'Zhixing', version: deps.version },
    {
      capabilities: { tools: { listChanged: false } },
      instructions:
        "Zhixing's own tools (calculator, todos, files in its workspace, weather, shell, skills) and `chat`, which hands a whole request to the assistant. " +
        "Unless the server was started with --yes, calls that would need a person's approval are refused with the reason and how to allow them.",
    },
  );
  const asks = createServerAsks({ bus: app.bus, permission: app.permission });
  // Direct calls of this connection belong to one session id of their own; no conversation is stored for them.
  const sessionId = `mcp_${randomUUID()}`;
  let calls = 0;

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [...servedTools(app).map(toMcpTool), chatToolSpec],
  }));

  const running = new Set<Promise<unknown>>();
  const track = <T>(call: Promise<T>): Promise<T> => {
    const settled = call.then(
      () => {},
      () => {},
    );
    running.add(settled);
    void settled.then(() => running.delete(settled));
    return call;
  };

  server.setRequestHandler(CallToolRequestSchema, (request, extra) => track(callTool(request, extra)));

  async function callTool(request: CallToolRequest, extra: Extra): Promise<CallToolResult> {
    const token = request.params._meta?.progressToken;
    let settled = false;
    let step = 0;
    const sends: Promise<unknown>[] = [];
    // Progress goes out only while the call runs: a line after its result would name a finished request.
    const progress =
      token === undefined
        ? undefined
        : (message: string) => {
            if (settled) return;
            step++;
            sends.push(
              extra
                .sendNotification({
                  method: 'notifications/progress',
                  params: { progressToken: token, progress: step, message },
                })
                .catch(() => {}),
            );
          };
    try {
      const result = await runCall(request, extra, progress);
      // The result goes after the progress already told: a client drops progress that comes after it.
      await Promise.all(sends);
      // The SDK's client handles a progress line a tick after reading it but its call's answer at once, so
      // one read holding both loses the line: a moment's gap lets the last progress be read on its own.
      if (sends.length) await new Promise((resolve) => setTimeout(resolve, PROGRESS_GAP_MS));
      return result;
    } finally {
      settled = true;
    }
  }

  async function runCall(
    request: CallToolRequest,
    extra: Extra,
    progress: ((message: string) => void) | undefined,
  ): Promise<CallToolResult> {
    const { name, arguments: args } = request.params;
    try {
      if (name === CHAT_TOOL) return await runChat(app, asks, args, { signal: extra.signal, progress });
      const tool = app.tools.get(name);
      const text = JSON.stringify(args ?? {});
      const meta = request.params._meta ?? {};
      const lang =
        meta[LANG_META] === 'zh' || meta[LANG_META] === 'en'
          ? meta[LANG_META]
          : (app.config.lang ?? languageOf(text, app.config.uiLang));
      if (!tool || tool.source !== 'builtin') {
        const known = [...servedTools(app).map((t) => t.name), CHAT_TOOL];
        const shown = name.slice(0, 80);
        return {
          content: [
            {
              type: 'text',
              text: `Error: ${say(lang, `没有名为 ${shown} 的工具。可用的工具：${known.join('、')}。`, `there is no tool named "${shown}". Available tools: ${known.join(', ')}.`)}`,
            },
          ],
          isError: true,
        };
      }
      const callId = `mcp_call_${++calls}`;
      const turnId = `mcp_turn_${randomUUID()}`;
      const callerCall = typeof meta[CALL_META] === 'string' ? meta[CALL_META] : undefined;
      const forward =
        deps.forwardAsks === true &&
        callerCall !== undefined &&
        server.getClientCapabilities()?.experimental?.[ASK_CAPABILITY] !== undefined;
      // A caller that decides permissions itself (`--mcp`) gets every request the tool makes, as the tool
      // made it, and its own permission layer decides and records it. Its approval never carries a call
      // outside this workspace: that line holds here whatever it says.
      let refusal: PermissionRefusal | undefined;
      const askCaller = async (req: PermissionRequest): Promise<PermissionDecision> => {
        try {
          const answer = await extra.sendRequest(
            { method: ASK_METHOD, params: { call: callerCall, request: req } } as never,
            AskResultSchema,
            { signal: extra.signal, timeout: ASK_WAIT_MS },
          );
          refusal = answer.decision === 'deny' ? answer.refusal : undefined;
          return answer.decision === 'allow' && req.insideSandbox ? 'allow' : 'deny';
        } catch {
          refusal = extra.signal.aborted ? 'cancelled' : 'unanswered';
          return 'deny';
        }
      };
      const permissions = app.permission.askFor({ tool: name, callId, sessionId, turnId, signal: extra.signal });
      const release = forward ? () => {} : asks.own(sessionId);
      try {
        const result = await app.tools.run(
          { id: callId, name, arguments: text },
          {
            sessionId,
            turnId,
            callId,
            workspace: app.workspace,
            signal: extra.signal,
            lang,
            ...(forward
              ? { ask: askCaller, refusal: () => refusal }
              : { ask: permissions.ask, refusal: permissions.refusal }),
            progress: progress ?? (() => {}),
          },
        );
        // A caller that answered the asks itself gets the tool's own words, as in-process.
        const refused = result.ok || forward ? undefined : unansweredAsk(permissions.records());
        if (refused)
          return {
            content: [
              {
                type: 'text',
                text: `Error: ${serverRefusalText(lang, name, refused, app.config.home, { stdio: deps.forwardAsks === true })}`,
              },
            ],
            isError: true,
          };
        return toCallToolResult(result, app.workspace);
      } finally {
        release();
      }
    } catch (err) {
      log(`zhixing: MCP tools/call ${name} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      const message = err instanceof Error ? err.message : String(err);
      const lang = app.config.lang ?? app.config.uiLang;
      return {
        content: [
          { type: 'text', text: `Error: ${say(lang, `${name} 出错了：${message}`, `${name} failed: ${message}`)}` },
        ],
        isError: true,
      };
    }
  }

  return {
    server,
    dispose: () => asks.stop(),
    async settled(ms) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all([...running]),
        new Promise<void>((resolve) => (timer = setTimeout(resolve, ms))),
      ]);
      clearTimeout(timer);
    },
  };
}
