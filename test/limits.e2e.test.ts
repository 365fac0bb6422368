import { createServer } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { createApp } from '../src/app.js';
import type { Llm, LlmEvent } from '../src/llm/types.js';
import { MAX_TOOL_CALLS_PER_STEP } from '../src/agent/read-step.js';
import { runCli } from './support/cli.js';
import { createScriptedLlm } from './support/scripted-llm.js';
import { tempHome } from './support/temp-home.js';

/** Nothing a model sends may grow without bound, be stored whole, or slow a session down for good. */
const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function appWith(llm: Llm, env: Record<string, string> = {}) {
  const t = tempHome({ ZHIXING_LANG: 'en', ...env });
  const app = await createApp(t.config, { llm });
  cleanups.push(() => app.close(), t.cleanup);
  return { app, session: app.sessions.create(), home: t.home };
}

/** A model that never stops talking; counts how far it got before it was stopped. */
function endlessLlm(kind: 'text' | 'reasoning') {
  const state = { yielded: 0, closed: false };
  const llm: Llm = {
    mode: 'llm',
    provider: 'test',
    model: 'endless',
    async *stream(): AsyncIterable<LlmEvent> {
      try {
        for (;;) {
          state.yielded++;
          yield { type: kind, delta: 'blah '.repeat(2_000) };
        }
      } finally {
        state.closed = true;
      }
    },
  };
  return { llm, state };
}

const storedChars = (home: string) => {
  const db = new Database(join(home, 'zhixing.db'), { readonly: true });
  const row = db.prepare('SELECT sum(length(text)) + sum(coalesce(length(input), 0)) AS n FROM parts').get() as {
    n: number;
  };
  db.close();
  return row.n;
};

describe('limits on what a model sends', () => {
  it('cuts an endless reply at ZHIXING_MAX_REPLY_CHARS, closes the stream and says why', async () => {
    const { llm, state } = endlessLlm('text');
    const { app, session, home } = await appWith(llm, { ZHIXING_MAX_REPLY_CHARS: '50000' });
    const r = await app.sessions.send(session.id, 'talk');
    expect(r.stopReason).toBe('limit');
    expect(r.error).toMatchObject({ code: 'limit' });
    expect(r.reply).toContain('passed the limit of 50,000 characters');
    expect(state.closed).toBe(true);
    expect(state.yielded).toBeLessThan(10);
    expect(storedChars(home)).toBeLessThan(60_000);
  });

  it('cuts endless reasoning too', async () => {
    const { llm, state } = endlessLlm('reasoning');
    const { app, session } = await appWith(llm, { ZHIXING_MAX_REPLY_CHARS: '10000' });
    const r = await app.sessions.send(session.id, 'think');
    expect(r.stopReason).toBe('limit');
    expect(r.reply).toContain('reasoning passed the limit');
    expect(state.closed).toBe(true);
  });

  it('runs none of a step with more tool calls than a step may hold', async () => {
    const calls = Array.from({ length: 10_000 }, (_, i) => ({ name: 'todo_add', args: { content: `item ${i}` } }));
    const { app, session } = await appWith(createScriptedLlm([{ calls }]));
    const r = await app.sessions.send(session.id, 'add a lot');
    expect(r.stopReason).toBe('limit');
    expect(r.reply).toContain(`more than ${MAX_TOOL_CALLS_PER_STEP} tool calls in one step; none of them was run`);
    expect(r.actions).toEqual([]);
    expect(app.store.todos.list()).toEqual([]);
  });

  it('refuses a 1 MB tool argument whole: not run, not stored, the list unharmed', async () => {
    const huge = 'x'.repeat(1_000_000);
    const { app, session, home } = await appWith(
      createScriptedLlm([
        { calls: [{ name: 'todo_add', args: { content: 'real item' } }] },
        { calls: [{ name: 'todo_add', args: { content: 'pay rent', due: huge } }] },
        { calls: [{ name: 'todo_add', args: { content: 'pay rent', due: 'y'.repeat(5_000) } }] },
        { calls: [{ name: 'todo_list', args: {} }] },
        { text: 'ok' },
      ]),
    );
    const r = await app.sessions.send(session.id, 'add things');
    expect(r.actions.map((a) => a.ok)).toEqual([true, false, false, true]);
    expect(r.actions[1]!.output).toMatch(
      /^Error: the arguments for todo_add are too long \(1,000,0\d\d characters, at most 20,000\); it was not run\.$/,
    );
    expect(r.actions[2]!.output).toMatch(/^Error: invalid arguments for todo_add: due: /);
    expect(app.store.todos.list().map((t) => t.content)).toEqual(['real item']);
    expect(r.actions[3]!.output).toContain('1. [ ] real item');
    expect(storedChars(home)).toBeLessThan(20_000);
  });

  it('keeps later turns small after one huge message: the context reads a window, not the session', async () => {
    const llm = createScriptedLlm([{ text: 'first' }, { text: 'second' }, { text: 'third' }]);
    const { app, session, home } = await appWith(llm);
    await app.sessions.send(session.id, 'one');
    // A 50 MB reply as an older version could store it.
    const db = new Database(join(home, 'zhixing.db'));
    const msg = db.prepare("SELECT id FROM messages WHERE role = 'assistant' ORDER BY rowid DESC LIMIT 1").get() as {
      id: string;
    };
    db.prepare("UPDATE parts SET text = ? WHERE message_id = ? AND type = 'text'").run('z'.repeat(50_000_000), msg.id);
    db.prepare('UPDATE messages SET size = ? WHERE id = ?').run(50_000_000, msg.id);
    db.close();
    await app.sessions.send(session.id, 'two');
    await app.sessions.send(session.id, 'three');
    const sent = llm.requests.slice(1).map((req) => JSON.stringify(req.messages).length);
    for (const n of sent) expect(n).toBeLessThan(200_000);
    expect(llm.requests[2]!.messages.map((m) => m.content)).toContain('two');
  });
});

describe('answers that end early', () => {
  const once = (events: LlmEvent[]): Llm => ({
    mode: 'llm',
    provider: 'test',
    model: 'once',
    async *stream() {
      yield* events;
    },
  });

  it('says so when the model hit its own token limit mid-answer, keeping what it said', async () => {
    const { app, session } = await appWith(
      once([
        { type: 'text', delta: 'The first half of' },
        { type: 'finish', reason: 'length' },
      ]),
    );
    const r = await app.sessions.send(session.id, 'long one');
    expect(r.error).toMatchObject({ code: 'length' });
    expect(r.reply).toContain('reached its own output limit (max tokens)');
    const texts = app.sessions
      .history(session.id)
      .flatMap((m) => m.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])));
    expect(texts).toContain('The first half of');
  });

  it('says so when the model answered nothing at all', async () => {
    const { app, session } = await appWith(once([{ type: 'finish', reason: 'stop' }]));
    const r = await app.sessions.send(session.id, 'hello?');
    expect(r.error).toMatchObject({ code: 'empty_reply' });
    expect(r.reply).toContain('the model returned an empty reply');
  });
});

/** A server that streams one delta forever (until the client hangs up); counts what it sent. */
async function endlessServer(delta: object) {
  const state = { closed: false, sent: 0 };
  const server = createServer(async (req, res) => {
    let body = '';
    for await (const part of req) body += part;
    // Titles are asked without streaming: not this test's business.
    if (!JSON.parse(body).stream) return void res.writeHead(500).end();
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const chunk = `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`;
    const pump = () => {
      if (res.destroyed) return;
      state.sent++;
      if (state.sent > 100_000) return res.end();
      if (res.write(chunk)) setImmediate(pump);
      else res.once('drain', pump);
    };
    res.on('close', () => (state.closed = true));
    pump();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanups.push(() => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))));
  return { state, url: `http://127.0.0.1:${(server.address() as { port: number }).port}/v1` };
}

describe('an endless stream over HTTP', () => {
  it.each([
    ['text', { content: 'na '.repeat(3_000) }, 'limit', 'passed the limit of 100,000 characters'],
    [
      'tool-call arguments',
      {
        tool_calls: [
          { index: 0, id: 'c1', type: 'function', function: { name: 'file_write', arguments: 'x'.repeat(50_000) } },
        ],
      },
      'bad_response',
      'over 16,000,000 characters of tool-call arguments',
    ],
  ])(
    'of %s: ./bin/zhixing stops reading, closes the connection and exits 1 with the reason in --json',
    async (_kind, delta, code, says) => {
      const { state, url } = await endlessServer(delta);
      const t = tempHome();
      cleanups.push(t.cleanup);
      const r = await runCli(['--json', '--new', 'talk'], {
        ZHIXING_HOME: t.home,
        ZHIXING_BASE_URL: url,
        ZHIXING_MAX_REPLY_CHARS: '100000',
        ZHIXING_LANG: 'en',
      });
      expect(r.code).toBe(1);
      const out = JSON.parse(r.stdout);
      expect(out.error).toMatchObject({ code });
      expect(out.reply).toContain(says);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(state.closed).toBe(true);
      expect(state.sent).toBeLessThan(2_000);
    },
  );
});
