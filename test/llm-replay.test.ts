import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp } from '../src/app.js';
import { defineTool } from '../src/tools/tool.js';
import { fixture, LLM_FIXTURES_DIR, startOpenAiServer, textReply, type OpenAiServer } from './support/openai-server.js';
import { tempHome } from './support/temp-home.js';

/** What each recorded stream must reassemble into. Checked against the files' own deltas. */
const EXPECTED: Record<string, { calls: Array<{ id: string; name: string; args: object }>; text?: RegExp }> = {
  'deepseek-reasoner-tool-call.chunks.txt': {
    calls: [{ id: 'call_00_ioIn7yN9p1ZOMNpDLwd4MgAF', name: 'weather', args: { location: 'San Francisco' } }],
  },
  'grok-3-mini-tool-call.chunks.txt': {
    calls: [{ id: 'call_79382389', name: 'weather', args: { location: 'San Francisco' } }],
  },
  'groq-llama-3.3-tool-call.chunks.txt': { calls: [{ id: 'tk85n1k4m', name: 'weather', args: {} }] },
  'qwen3-max-tool-call.chunks.txt': {
    calls: [{ id: 'call_eee11723464a4b9eb8cee71d', name: 'weather', args: { location: 'San Francisco' } }],
  },
  'claude-haiku-openai-compat-tool-index1.sse': {
    calls: [{ id: 'toolu_sanitized', name: 'read_file', args: { path: 'a.txt' } }],
  },
  'deepseek-reasoner-reasoning.chunks.txt': { calls: [] },
  'qwen3-max-reasoning.chunks.txt': { calls: [] },
};

let server: OpenAiServer;
beforeAll(async () => {
  server = await startOpenAiServer();
});
afterAll(() => server.close());

describe('every recorded provider stream, through the real client and the agent loop', () => {
  it('covers every streamed fixture in the folder', () => {
    const streamed = readdirSync(LLM_FIXTURES_DIR).filter((f) => f.endsWith('.chunks.txt') || f.endsWith('.sse'));
    expect(streamed.sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  for (const [file, expected] of Object.entries(EXPECTED)) {
    it(`replays ${file}`, async () => {
      const t = tempHome({
        ZHIXING_BASE_URL: server.url,
        ZHIXING_API_KEY: 'sk-test-replay-0000',
        ZHIXING_MODEL: 'm',
        ZHIXING_LANG: 'en',
      });
      const app = await createApp(t.config);
      // Stand-ins with the fixtures' own tool names and shapes, so the calls really run.
      const ran: Array<{ tool: string; args: unknown }> = [];
      app.tools.register(
        defineTool({
          name: 'weather',
          description: 'weather',
          parameters: z.object({ location: z.string().optional() }),
          execute: (args) => (ran.push({ tool: 'weather', args }), 'sunny, 18°C'),
        }),
      );
      app.tools.register(
        defineTool({
          name: 'read_file',
          description: 'read',
          parameters: z.object({ path: z.string() }),
          execute: (args) => (ran.push({ tool: 'read_file', args }), 'file text'),
        }),
      );
      try {
        const before = server.requests.length;
        server.enqueue(fixture(file));
        if (expected.calls.length) server.enqueue(textReply('All done.'));
        const session = app.sessions.create();
        const r = await app.sessions.send(session.id, 'go');

        expect(r.error).toBeUndefined();
        expect(ran).toEqual(expected.calls.map((c) => ({ tool: c.name, args: c.args })));
        expect(r.actions.map((a) => ({ id: a.callId, name: a.tool, args: a.input, ok: a.ok }))).toEqual(
          expected.calls.map((c) => ({ ...c, ok: true })),
        );
        // The session title is asked for on the side, without streaming.
        const requests = server.requests.slice(before).filter((q) => q.body?.stream === true);
        expect(requests).toHaveLength(expected.calls.length ? 2 : 1);
        if (expected.calls.length) {
          const sent = requests[1]!.body.messages;
          const toolMsgs = sent.filter((m: { role: string }) => m.role === 'tool');
          expect(toolMsgs.map((m: { tool_call_id: string }) => m.tool_call_id)).toEqual(
            expected.calls.map((c) => c.id),
          );
          expect(r.reply).toBe('All done.');
        } else {
          expect(r.reply.length).toBeGreaterThan(0);
        }
        // Reasoning is kept, but never as part of the reply; within the turn it goes back to the model.
        const reasoning = app.sessions
          .history(session.id)
          .flatMap((m) => m.parts.flatMap((p) => (p.type === 'reasoning' ? [p.text] : [])));
        for (const text of reasoning) expect(r.reply).not.toContain(text.slice(0, 30));
        if (expected.calls.length) {
          const assistant = requests[1]!.body.messages.find((m: { tool_calls?: unknown }) => m.tool_calls);
          expect(assistant.reasoning_content).toBe(reasoning[0]);
        }
        if (file.includes('reason') || file.includes('grok')) expect(reasoning[0]!.length).toBeGreaterThan(20);
        // Usage from whichever chunk carried it is recorded for the turn.
        if (!file.endsWith('.sse')) expect(app.store.turns.get(r.turnId)!.totalTokens).toBeGreaterThan(0);
      } finally {
        app.close();
        t.cleanup();
      }
    });
  }
});
