import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp, type App } from '../src/app.js';
import type { BusEvent } from '../src/bus/bus.js';
import { defineTool } from '../src/tools/tool.js';
import { createScriptedLlm, type ScriptedStep } from './support/scripted-llm.js';
import { tempHome } from './support/temp-home.js';

const cleanups: Array<() => void> = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

async function setup(steps: ScriptedStep[], env: Record<string, string> = {}) {
  const t = tempHome({ ZHIXING_LANG: 'en', ...env });
  const llm = createScriptedLlm(steps);
  const app = await createApp(t.config, { llm });
  const events: BusEvent[] = [];
  app.bus.onAny((e) => events.push(e));
  cleanups.push(() => app.close(), t.cleanup);
  const session = app.sessions.create();
  return { app, llm, events, session, home: t.home };
}

const toolMessages = (app: App, sessionId: string) =>
  app.sessions.history(sessionId).flatMap((m) => m.parts.filter((p) => p.type === 'tool'));

describe('the agent loop', () => {
  it('runs two calls of one step in order and sends both results back with matching ids', async () => {
    const { app, llm, session, events } = await setup([
      {
        text: 'Let me work that out.',
        calls: [
          { id: 'call_a', name: 'calculator', args: { expression: '(3+5)*2' } },
          { id: 'call_b', name: 'calculator', args: { expression: '2^10' } },
        ],
      },
      { text: '16 and 1024.' },
    ]);
    const r = await app.sessions.send(session.id, 'two sums please');
    expect(r.stopReason).toBe('done');
    expect(r.reply).toBe('16 and 1024.');
    expect(r.actions.map((a) => [a.callId, a.output, a.ok])).toEqual([
      ['call_a', '16', true],
      ['call_b', '1024', true],
    ]);

    const second = llm.requests[1]!.messages;
    const tail = second.slice(-3);
    expect(tail[0]).toMatchObject({ role: 'assistant', tool_calls: [{ id: 'call_a' }, { id: 'call_b' }] });
    expect(tail[1]).toEqual({ role: 'tool', tool_call_id: 'call_a', content: '16', result: { ok: true } });
    expect(tail[2]).toEqual({ role: 'tool', tool_call_id: 'call_b', content: '1024', result: { ok: true } });

    const types = events.map((e) => e.type);
    expect(types[0]).toBe('session.status');
    expect(types.indexOf('turn.start')).toBeLessThan(types.indexOf('text.delta'));
    expect(types.filter((t) => t === 'tool.start')).toHaveLength(2);
    expect(types.at(-2)).toBe('turn.end');

    const parts = toolMessages(app, session.id);
    expect(parts.map((p) => p.type === 'tool' && [p.tool, p.state, p.output])).toEqual([
      ['calculator', 'completed', '16'],
      ['calculator', 'completed', '1024'],
    ]);
  });

  it('turns bad JSON, unknown tools, invalid arguments, thrown errors and timeouts into tool results', async () => {
    const { app, session } = await setup([
      {
        calls: [
          { id: 'c1', name: 'calculator', args: '{"expression": "1+' },
          { id: 'c2', name: 'teleport', args: { to: 'moon' } },
          { id: 'c3', name: 'calculator', args: { expression: 42 } },
          { id: 'c4', name: 'explode', args: {} },
          { id: 'c5', name: 'sleepy', args: {} },
        ],
      },
      { text: 'Some of that failed.' },
    ]);
    app.tools.register(
      defineTool({
        name: 'explode',
        description: 'throws',
        parameters: z.object({}),
        execute: () => {
          throw new Error('boom');
        },
      }),
    );
    app.tools.register(
      defineTool({
        name: 'sleepy',
        description: 'never ends',
        parameters: z.object({}),
        timeoutMs: 50,
        execute: () => new Promise<string>(() => {}),
      }),
    );
    const r = await app.sessions.send(session.id, 'do odd things');
    expect(r.stopReason).toBe('done');
    expect(r.actions.every((a) => !a.ok)).toBe(true);
    const out = r.actions.map((a) => a.output);
    expect(out[0]).toMatch(/^Error: the arguments are not valid JSON/);
    expect(out[1]).toMatch(/^Error: there is no tool named "teleport"\. Available tools: calculator/);
    expect(out[2]).toMatch(/^Error: invalid arguments for calculator: expression:/);
    expect(out[3]).toBe('Error: explode failed: boom');
    expect(out[4]).toMatch(/^Error: sleepy timed out after 0.05 s/);
    expect(toolMessages(app, session.id).every((p) => p.type === 'tool' && p.state === 'error')).toBe(true);
  });

  it('runs read-only calls of one step at once, keeps results in call order, and runs writes alone', async () => {
    const { app, session, events } = await setup([
      {
        calls: [
          { id: 'slow', name: 'look_slow', args: {} },
          { id: 'fast', name: 'look_fast', args: {} },
          { id: 'add', name: 'todo_add', args: { content: 'after the looks' } },
          { id: 'list', name: 'todo_list', args: {} },
        ],
      },
      { text: 'ok' },
    ]);
    const sleep = (ms: number) => new Promise<string>((r) => setTimeout(() => r(`slept ${ms}`), ms));
    app.tools.register(
      defineTool({
        name: 'look_slow',
        description: 'slow read',
        annotations: { readOnly: true },
        parameters: z.object({}),
        execute: () => sleep(150),
      }),
    );
    app.tools.register(
      defineTool({
        name: 'look_fast',
        description: 'fast read',
        annotations: { readOnly: true },
        parameters: z.object({}),
        execute: () => sleep(10),
      }),
    );
    const r = await app.sessions.send(session.id, 'look twice, then add and list');
    expect(r.actions.map((a) => a.callId)).toEqual(['slow', 'fast', 'add', 'list']);
    // The fast look finished first: the two looks ran side by side.
    const ended = events.flatMap((e) => (e.type === 'tool.end' ? [e.callId] : []));
    expect(ended).toEqual(['fast', 'slow', 'add', 'list']);
    // The write ran before the list that follows it, which therefore sees the new item.
    expect(r.actions[3]!.output).toContain('after the looks');
  });

  it('runs many network-style calls of one step at once without a listener-leak warning on the turn signal', async () => {
    const calls = Array.from({ length: 16 }, (_, n) => ({ id: `w${n}`, name: 'look_net', args: { n } }));
    const { app, session } = await setup([{ calls }, { text: 'ok' }]);
    // Like web_fetch and web_search: each call listens on the turn's signal while it waits.
    app.tools.register(
      defineTool({
        name: 'look_net',
        description: 'network read',
        annotations: { readOnly: true },
        parameters: z.object({ n: z.number() }),
        execute: async (_args, ctx) => {
          const onAbort = () => {};
          ctx.signal.addEventListener('abort', onAbort);
          await new Promise((r) => setTimeout(r, 30));
          ctx.signal.removeEventListener('abort', onAbort);
          return 'seen';
        },
      }),
    );
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
    process.on('warning', onWarning);
    try {
      const r = await app.sessions.send(session.id, 'look at sixteen pages');
      expect(r.actions.map((a) => a.output)).toEqual(Array(16).fill('seen'));
      await new Promise((r) => setTimeout(r, 20));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.filter((w) => w.startsWith('MaxListenersExceededWarning'))).toEqual([]);
  });

  it('stops at the step limit with an honest reply', async () => {
    const steps = Array.from({ length: 10 }, (_, i) => ({
      calls: [{ name: 'calculator', args: { expression: `${i}+1` } }],
    }));
    const { app, session } = await setup(steps, { ZHIXING_MAX_STEPS: '3' });
    const r = await app.sessions.send(session.id, 'count forever');
    expect(r.stopReason).toBe('max_steps');
    expect(r.actions).toHaveLength(3);
    expect(r.reply).toContain('step limit');
    expect(r.reply).toContain('calculator: 1');
    // The code-written reply is part of the history too.
    const last = app.sessions.history(session.id).at(-1)!;
    expect(last.parts[0]).toMatchObject({ type: 'text', text: r.reply });
  });

  it('stops when the same call is made a third time, without running it', async () => {
    const same = { calls: [{ name: 'todo_add', args: { content: 'buy milk' } }] };
    const { app, session } = await setup([same, same, same, { text: 'never reached' }]);
    const r = await app.sessions.send(session.id, 'add milk');
    expect(r.stopReason).toBe('repeated_call');
    expect(r.actions.map((a) => a.ok)).toEqual([true, true, false]);
    expect(r.actions[2]!.output).toContain('already made twice');
    expect(app.store.todos.list()).toHaveLength(2);
    expect(r.reply).toContain('repeated three times');
  });

  it('aborts mid-stream and keeps what was said', async () => {
    const controller = new AbortController();
    // Stopped once the model has said its text and is still going.
    const { app, session } = await setup([
      { text: 'Thinking about it', delayMs: 5_000, onWait: () => controller.abort() },
    ]);
    const r = await app.sessions.send(session.id, 'slow one', { signal: controller.signal });
    expect(r.stopReason).toBe('aborted');
    expect(r.reply).toContain('Stopped');
    const texts = app.sessions
      .history(session.id)
      .flatMap((m) => m.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])));
    expect(texts).toEqual(['slow one', 'Thinking about it', r.reply]);
    expect(app.sessions.status(session.id)).toBe('idle');
  });

  it('reports a model failure as an error event and an honest reply, after the work already done', async () => {
    const failure = Object.assign(new Error('The model service could not be reached.'), { code: 'network' });
    const { app, session, events } = await setup([
      { calls: [{ name: 'calculator', args: { expression: '1+1' } }] },
      { error: failure },
    ]);
    const r = await app.sessions.send(session.id, 'add');
    expect(r.stopReason).toBe('error');
    expect(r.error).toEqual({ code: 'network', message: 'The model service could not be reached.' });
    expect(r.reply).toContain('could not finish');
    expect(r.reply).toContain('calculator: 2');
    expect(events.find((e) => e.type === 'error')).toMatchObject({ code: 'network' });
  });

  it('sends earlier turns, tool calls included, as history on the next turn', async () => {
    const { app, llm, session } = await setup([
      { calls: [{ id: 'x1', name: 'calculator', args: { expression: '6*7' } }] },
      { text: '42' },
      { text: 'You asked about 6*7.' },
    ]);
    await app.sessions.send(session.id, 'six times seven');
    await app.sessions.send(session.id, 'what did I ask?');
    const msgs = llm.requests[2]!.messages;
    expect(msgs.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'user']);
    expect(msgs[3]).toEqual({ role: 'tool', tool_call_id: 'x1', content: '42' });
  });

  it('records token usage per turn', async () => {
    const usage = { promptTokens: 10, completionTokens: 5, totalTokens: 15 };
    const { app, session } = await setup([
      { calls: [{ name: 'calculator', args: { expression: '1+1' } }], usage },
      { text: '2', usage },
    ]);
    const r = await app.sessions.send(session.id, 'add');
    expect(r.usage).toEqual({ promptTokens: 20, completionTokens: 10, totalTokens: 30 });
    expect(app.store.turns.get(r.turnId)).toMatchObject({ steps: 2, totalTokens: 30, stopReason: 'done' });
  });
});

describe('sessions', () => {
  it('runs one turn at a time per session and titles a session from its first message', async () => {
    const { app, session } = await setup([{ text: 'slow', delayMs: 200 }, { text: 'ok' }]);
    const first = app.sessions.send(session.id, 'Plan my week with three goals and a budget please');
    await expect(app.sessions.send(session.id, 'again')).rejects.toMatchObject({ code: 'busy' });
    await first;
    expect(app.sessions.get(session.id)!.title).toBe('Plan my week with three goals…');
    await app.sessions.send(session.id, 'again');
  });

  it('deletes a session mid-turn without touching another session that is running', async () => {
    const t = tempHome();
    cleanups.push(t.cleanup);
    // Session A's model is slow; session B's step calls a slow tool.
    // A is deleted once its model is mid-step and B's nap has begun.
    let aWaiting!: () => void;
    const aMidStep = new Promise<void>((resolve) => (aWaiting = resolve));
    let bNapping!: () => void;
    const bMidCall = new Promise<void>((resolve) => (bNapping = resolve));
    const llm = createScriptedLlm([
      (req) =>
        req.messages.at(-1)?.content === 'a'
          ? { text: 'thinking', delayMs: 5_000, onWait: aWaiting }
          : { calls: [{ id: 'b1', name: 'nap', args: {} }] },
      (req) =>
        req.messages.at(-1)?.content === 'a'
          ? { text: 'thinking', delayMs: 5_000, onWait: aWaiting }
          : { calls: [{ id: 'b1', name: 'nap', args: {} }] },
      { text: 'B done' },
    ]);
    const app = await createApp(t.config, { llm });
    cleanups.push(() => app.close());
    app.tools.register(
      defineTool({
        name: 'nap',
        description: 'naps',
        annotations: { readOnly: true },
        parameters: z.object({}),
        execute: () => new Promise<string>((r) => (bNapping(), setTimeout(() => r('rested'), 150))),
      }),
    );
    const a = app.sessions.create();
    const b = app.sessions.create();
    const turnA = app.sessions.send(a.id, 'a');
    const turnB = app.sessions.send(b.id, 'b');
    await Promise.all([aMidStep, bMidCall]);
    await app.sessions.delete(a.id);
    expect((await turnA).stopReason).toBe('aborted');
    const rB = await turnB;
    expect(rB.reply).toBe('B done');
    expect(app.sessions.get(a.id)).toBeUndefined();
    const parts = app.sessions
      .history(b.id)
      .flatMap((m) => m.parts.map((p) => (p.type === 'tool' ? `${p.tool}:${p.state}:${p.output}` : p.type)));
    expect(parts).toEqual(['text', 'nap:completed:rested', 'text']);
  });

  it('caps how many sessions run at once', async () => {
    const t = tempHome();
    cleanups.push(t.cleanup);
    const llm = createScriptedLlm([{ text: 'a', delayMs: 200 }]);
    const { createSessions } = await import('../src/sessions/sessions.js');
    const app = await createApp(t.config, { llm });
    cleanups.push(() => app.close());
    const sessions = createSessions({
      llm,
      tools: app.tools,
      bus: app.bus,
      store: app.store,
      askFor: () => ({ ask: async () => 'allow' }),
      workspace: t.home,
      maxSteps: 8,
      detectLang: () => 'en',
      maxRunning: 1,
    });
    const a = sessions.create();
    const b = sessions.create();
    const running = sessions.send(a.id, 'one');
    await expect(sessions.send(b.id, 'two')).rejects.toMatchObject({ code: 'too_many' });
    await running;
  });

  it('renames, lists most recent first and deletes with history', async () => {
    const { app, session } = await setup([{ text: 'hi' }]);
    await app.sessions.send(session.id, 'hello');
    const other = app.sessions.create('Second');
    expect(app.sessions.list().map((s) => s.id)).toEqual([other.id, session.id]);
    expect(app.sessions.rename(session.id, 'Renamed').title).toBe('Renamed');
    await app.sessions.delete(session.id);
    expect(app.sessions.get(session.id)).toBeUndefined();
    expect(app.store.messages.list(session.id)).toEqual([]);
    expect(() => app.sessions.history(session.id)).toThrow(/no session/);
  });
});
