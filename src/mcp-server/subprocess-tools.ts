import { randomUUID } from 'node:crypto';
import { relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { Tool, ToolAttachment, ToolContext, ToolOutput } from '../tools/tool.js';
import { ToolError } from '../contract/tool-error.js';
import type { PermissionRequest } from '../contract/permission.js';
import { ASK_CAPABILITY, AskRequestSchema, CALL_META, CARD_META, LANG_META, type AskResult } from './ask-protocol.js';

/** How long `zhixing mcp serve` has to start and answer `initialize` and `tools/list`. */
const CONNECT_TIMEOUT_MS = 20_000;
/** The registry's own timeout (the tool's) ends a call: the SDK's 60-second default must not come first. */
const CALL_TIMEOUT_MS = 24 * 60 * 60_000;
/** The child's last stderr lines kept, to say why it failed. */
const STDERR_LINES = 20;

export interface SubprocessToolsOptions {
  tools: ToolRegistry;
  /** Absolute, real path of the workspace the child works in too (its home is the same). */
  workspace: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  version: string;
}

export interface SubprocessTools {
  /** The tools now answered by the child. */
  names: string[];
  /** The child's process id. */
  pid: number | null;
  /** Disconnects and stops the child. */
  close(): Promise<void>;
}

/** A file the child says lies in the workspace, relative to it; undefined for anything else. */
function workspacePath(uri: string, workspace: string): string | undefined {
  if (!uri.startsWith('file://')) return undefined;
  const rel = relative(workspace, fileURLToPath(uri));
  return rel && !rel.startsWith('..') && !rel.startsWith(sep) ? rel.split(sep).join('/') : undefined;
}

/** An MCP result back into what the tool itself would have returned: the inverse of toCallToolResult. */
export function fromCallToolResult(result: CallToolResult, workspace: string): ToolOutput {
  const text = result.content
    .filter((c) => c.type === 'text')
    .map((c) => (c as { text: string }).text)
    .join('\n');
  // The child's registry said "Error: …"; ours says it again when this throws.
  if (result.isError) throw new ToolError(text.replace(/^Error: /, ''));
  const card = (result._meta?.[CARD_META] ?? {}) as {
    title?: string;
    metadata?: Record<string, unknown>;
    attachments?: string[];
  };
  const names = card.attachments ?? [];
  const attachments: ToolAttachment[] = [];
  for (const c of result.content) {
    const name = names[attachments.length] ?? `attachment-${attachments.length + 1}`;
    if (c.type === 'image' || c.type === 'audio') attachments.push({ name, mimeType: c.mimeType, data: c.data });
    else if (c.type === 'resource' && 'blob' in c.resource)
      attachments.push({ name, mimeType: c.resource.mimeType ?? 'application/octet-stream', data: c.resource.blob });
    else if (c.type === 'resource_link') {
      const path = workspacePath(c.uri, workspace);
      if (path) attachments.push({ name: c.name, mimeType: c.mimeType ?? 'application/octet-stream', path });
    }
  }
  return {
    output: text,
    ...(card.title !== undefined && { title: card.title }),
    ...(card.metadata !== undefined && { metadata: card.metadata }),
    ...(attachments.length > 0 && { attachments }),
  };
}

/**
 * `--mcp`: the built-in tools answered by a `zhixing mcp serve` child over stdio, through the official
 * SDK client. Each tool keeps its local definition (schema, checks, hints, undo snapshots), so the model
 * sees the same specs; only running it goes to the child. The child's permission asks come back here
 * (ask-protocol.ts) and are decided by this process's own permission layer, where the user is.
 */
export async function useToolsFromSubprocess(options: SubprocessToolsOptions): Promise<SubprocessTools> {
  const transport = new StdioClientTransport({
    command: options.command,
    args: options.args,
    env: options.env,
    cwd: options.cwd,
    stderr: 'pipe',
  });
  const stderr: string[] = [];
  transport.stderr?.on('data', (d: Buffer) => {
    stderr.push(...d.toString('utf8').split('\n').filter(Boolean));
    stderr.splice(0, Math.max(0, stderr.length - STDERR_LINES));
  });
  const client = new Client(
    { name: 'zhixing', version: options.version },
    { capabilities: { experimental: { [ASK_CAPABILITY]: {} } } },
  );
  // The calls running now, by the id they were sent with: whose context answers the child's asks.
  const calls = new Map<string, ToolContext>();
  client.setRequestHandler(AskRequestSchema, async (request): Promise<AskResult> => {
    const ctx = calls.get(request.params.call);
    if (!ctx) return { decision: 'deny', refusal: 'unanswered' };
    const decision = await ctx.ask(request.params.request as unknown as PermissionRequest);
    const refusal = decision === 'deny' ? ctx.refusal?.() : undefined;
    return { decision, ...(refusal && { refusal }) };
  });
  const failed = (err: unknown) =>
    new Error(
      `zhixing mcp serve did not start: ${err instanceof Error ? err.message : String(err)}${stderr.length ? `\n${stderr.join('\n')}` : ''}`,
    );
  let listed;
  try {
    await client.connect(transport, { timeout: CONNECT_TIMEOUT_MS });
    listed = await client.listTools(undefined, { timeout: CONNECT_TIMEOUT_MS });
  } catch (err) {
    await client.close().catch(() => {});
    throw failed(err);
  }

  const proxies: Tool[] = [];
  for (const served of listed.tools) {
    const local = options.tools.get(served.name);
    // `chat` and anything this process does not know itself stay out: the model's tools are the built-in ones.
    if (!local || local.source !== 'builtin') continue;
    proxies.push({
      ...local,
      async execute(args, ctx) {
        const key = randomUUID();
        calls.set(key, ctx);
        try {
          const result = (await client.callTool(
            {
              name: served.name,
              arguments: args as Record<string, unknown>,
              _meta: { [CALL_META]: key, [LANG_META]: ctx.lang },
            },
            undefined,
            { signal: ctx.signal, timeout: CALL_TIMEOUT_MS, onprogress: (p) => p.message && ctx.progress(p.message) },
          )) as CallToolResult;
          return fromCallToolResult(result, options.workspace);
        } finally {
          calls.delete(key);
        }
      },
    });
  }
  const names = options.tools.replaceSource('builtin', proxies);
  return {
    names,
    pid: transport.pid,
    close: () => client.close().catch(() => {}),
  };
}
