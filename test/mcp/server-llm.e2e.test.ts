import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { stdioClient } from '../support/mcp-peer.js';
import { startOpenAiServer, textReply, toolCallsReply, type OpenAiServer } from '../support/openai-server.js';
import { useTempHomes } from '../support/temp-home.js';

const KEY = 'sk-test-mcp-0123456789abcdef';
const home = useTempHomes();
let server: OpenAiServer;
beforeAll(async () => {
  server = await startOpenAiServer();
});
afterAll(() => server?.close());

const modelEnv = (h: string) => ({
  ZHIXING_HOME: h,
  ZHIXING_BASE_URL: server.url,
  ZHIXING_API_KEY: KEY,
  ZHIXING_MODEL: 'test-model',
  ZHIXING_LANG: 'en',
});
const chatRequests = () =>
  server.requests.filter((r) => r.path.endsWith('/chat/completions') && Array.isArray(r.body?.tools));

describe('Zhixing with a model, as an MCP server and through --mcp', () => {
  it("chat over stdio runs the model's turn: its tool calls, its reply, and never the key", async () => {
    const h = home();
    server.enqueue(
      toolCallsReply([{ id: 'call_1', name: 'calculator', args: { expression: '(3+5)*2' } }]),
      textReply('(3+5)*2 is 16.'),
    );
    const { client, stderr } = await stdioClient(modelEnv(h.home));
    try {
      const r = (await client.callTool({ name: 'chat', arguments: { message: 'work out (3+5)*2' } })) as CallToolResult;
      expect(r.isError).toBeFalsy();
      expect(r.structuredContent).toMatchObject({
        reply: '(3+5)*2 is 16.',
        mode: 'llm',
        actions: [{ tool: 'calculator', input: { expression: '(3+5)*2' }, ok: true, output: '16' }],
      });
      // The tools the model was offered are the ones MCP lists, by the same names and schemas.
      const offered = chatRequests()
        .at(-1)!
        .body.tools.map((t: { function: { name: string; parameters: unknown } }) => t.function);
      const { tools } = await client.listTools();
      for (const tool of tools.filter((t) => t.name !== 'chat')) {
        const same = offered.find((o: { name: string }) => o.name === tool.name);
        expect(same, tool.name).toBeDefined();
        expect({ type: 'object', ...same.parameters }).toEqual(tool.inputSchema);
      }
      expect(JSON.stringify(r) + JSON.stringify(tools) + stderr()).not.toContain(KEY);
    } finally {
      await client.close();
    }
  });

  it('--mcp offers the model the same tools as in-process, and gives the same result', async () => {
    const runs = [];
    for (const mcp of [false, true]) {
      const h = home();
      server.enqueue(
        toolCallsReply([
          { id: 'call_1', name: 'file_write', args: { path: 'a.txt', content: 'hi' } },
          { id: 'call_2', name: 'calculator', args: { expression: '2**10' } },
        ]),
        textReply('Done.'),
      );
      const before = chatRequests().length;
      const r = await runCli(
        ['--json', ...(mcp ? ['--mcp'] : []), 'write hi to a.txt and work out 2**10'],
        modelEnv(h.home),
        { timeoutMs: 30_000 },
      );
      expect(r.code, r.stderr).toBe(0);
      const out = JSON.parse(r.stdout) as {
        reply: string;
        actions: Array<{ tool: string; ok: boolean; output: string }>;
      };
      runs.push({
        tools: chatRequests()[before]!.body.tools,
        actions: out.actions.map(({ tool, ok, output }) => ({ tool, ok, output })),
        reply: out.reply,
      });
    }
    expect(runs[1]!.tools).toEqual(runs[0]!.tools);
    expect(runs[1]!.actions).toEqual(runs[0]!.actions);
    expect(runs[1]!.actions.map((a) => a.output)).toEqual([expect.stringContaining('a.txt'), '1024']);
    expect(runs[1]!.reply).toBe('Done.');
  });
});
