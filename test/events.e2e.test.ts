import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { BusEvent } from '../src/bus/events.js';
import { loadConfig } from '../src/config/config.js';
import { runCli } from './support/cli.js';
import { createScriptedLlm, type ScriptedStep } from './support/scripted-llm.js';
import { startOpenAiServer, textReply } from './support/openai-server.js';
import { tempHome } from './support/temp-home.js';

/**
 * The events a remote client relies on: numbered per session without gaps, naming the stored
 * message and part they belong to, valid against the published zod schema, and replayable from the
 * store after any number.
 */
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(steps: ScriptedStep[]) {
  const t = tempHome({ ZHIXING_LANG: 'en' });
  const app = await createApp(t.config, { llm: createScriptedLlm(steps) });
  cleanups.push(t.cleanup, () => app.close());
  const events: BusEvent[] = [];
  app.bus.onAny((e) => events.push(e));
  return { app, events, home: t.home, session: app.sessions.create() };
}

describe('session events', () => {
  it('are numbered 1, 2, 3… per session across turns, and each one parses with the published schema', async () => {
    const { app, events, session } = await setup([
      { text: 'Let me add.', calls: [{ id: 'c1', name: 'calculator', args: { expression: '1+1' } }] },
      { text: 'It is 2.' },
      { text: 'Hello again.' },
    ]);
    await app.sessions.send(session.id, 'add');
    await app.sessions.send(session.id, 'hi');
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    for (const e of events) expect(BusEvent.parse(e)).toEqual(e);
    expect(events.map((e) => e.type)).toEqual([
      'session.status',
      'turn.start',
      'step.start',
      'text.delta',
      'text.delta',
      'step.end',
      'tool.start',
      'tool.end',
      'step.start',
      'text.delta',
      'text.delta',
      'step.end',
      'turn.end',
      'session.status',
      'session.status',
      'turn.start',
      'step.start',
      'text.delta',
      'text.delta',
      'step.end',
      'turn.end',
      'session.status',
    ]);
  });

  it('name the message and part the history stores, for text, reasoning and tool calls', async () => {
    const { app, events, session } = await setup([
      { text: 'Checking.', calls: [{ id: 'c1', name: 'calculator', args: { expression: '6*7' } }] },
      { text: '42.' },
    ]);
    // A model that thinks: reasoning deltas come before the text.
    const llm = app.llm as ReturnType<typeof createScriptedLlm>;
    const stream = llm.stream.bind(llm);
    llm.stream = async function* (req) {
      yield { type: 'reasoning', delta: 'six sevens' };
      yield* stream(req);
    };
    await app.sessions.send(session.id, 'six times seven');
    const history = app.sessions.history(session.id);
    const partsById = new Map(history.flatMap((m) => m.parts.map((p) => [p.id, { ...p, messageId: m.id }])));
    const turnStart = events.find((e) => e.type === 'turn.start')!;
    expect(history[0]!.id).toBe(turnStart.type === 'turn.start' && turnStart.messageId);
    for (const e of events) {
      if (e.type === 'text.delta' || e.type === 'reasoning.delta' || e.type.startsWith('tool.')) {
        const part = partsById.get((e as { partId: string }).partId);
        expect(part, `${e.type} names a stored part`).toBeDefined();
        expect(part!.messageId).toBe((e as { messageId: string }).messageId);
        expect(part!.type).toBe(e.type === 'text.delta' ? 'text' : e.type === 'reasoning.delta' ? 'reasoning' : 'tool');
      }
    }
    expect(
      events.filter((e) => e.type === 'reasoning.delta').map((e) => e.type === 'reasoning.delta' && e.delta),
    ).toEqual(['six sevens', 'six sevens']);
    const stepEnds = events.filter((e) => e.type === 'step.end');
    expect(stepEnds.map((e) => e.type === 'step.end' && e.calls)).toEqual([1, 0]);
  });

  it('can be replayed from the store after any number, exactly as they were emitted', async () => {
    const { app, events, session } = await setup([
      { text: 'One moment.', calls: [{ name: 'todo_add', args: { content: 'milk' } }] },
      { text: 'Added milk.' },
    ]);
    await app.sessions.send(session.id, 'add milk');
    for (const from of [0, 1, 5, events.length - 1, events.length]) {
      expect(app.events.since(session.id, from)).toEqual(events.slice(from));
    }
  });
});

describe('numbering across processes', () => {
  it('a second process goes on from the first one’s last number', async () => {
    const t = tempHome();
    cleanups.push(t.cleanup);
    const env = { ZHIXING_HOME: t.home, ZHIXING_OFFLINE: '1' };
    const first = JSON.parse((await runCli(['--json', '1+1'], env)).stdout).session;
    await runCli(['--json', '2+2'], env);
    const app = await createApp(loadConfig({ env, cwd: t.home }));
    cleanups.push(() => app.close());
    const seqs = app.events.since(first, 0).map((e) => e.seq);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    const starts = app.events.since(first, 0).filter((e) => e.type === 'turn.start');
    expect(starts).toHaveLength(2);
  });
});

describe('llm.retry and llm.waiting', () => {
  it('name the session and turn whose request is retried', async () => {
    const server = await startOpenAiServer();
    cleanups.push(() => server.close());
    const t = tempHome({ ZHIXING_BASE_URL: server.url, ZHIXING_LANG: 'en' });
    cleanups.push(t.cleanup);
    const app = await createApp(t.config);
    cleanups.push(() => app.close());
    const events: BusEvent[] = [];
    app.bus.onAny((e) => events.push(e));
    const session = app.sessions.create('named');
    server.enqueue({ status: 429, headers: { 'retry-after-ms': '10' } }, textReply('Here.'));
    const r = await app.sessions.send(session.id, 'hello');
    expect(r.reply).toBe('Here.');
    const retry = events.find((e) => e.type === 'llm.retry');
    expect(retry).toMatchObject({ sessionId: session.id, turnId: r.turnId, status: 429, attempt: 1 });
  });
});
