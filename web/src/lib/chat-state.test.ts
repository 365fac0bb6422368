import { afterEach, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../../src/app.js';
import type { BusEvent } from '../../../src/bus/events.js';
import type { Llm } from '../../../src/llm/types.js';
import { createScriptedLlm } from '../../../test/support/scripted-llm.js';
import { tempHome } from '../../../test/support/temp-home.js';
import { applyEvent, viewFromHistory, type ChatView } from './chat-state.js';
import type { History, Message } from './types.js';

const cleanups: Array<() => void> = [];
afterEach(() => cleanups.splice(0).forEach((f) => f()));

async function appWith(llm?: Llm): Promise<App> {
  const home = tempHome();
  const app = await createApp(home.config, { llm });
  cleanups.push(() => {
    app.close();
    home.cleanup();
  });
  return app;
}

/** What a person sees of a message: not ids or times, which differ between the two paths only in name. */
const seen = (messages: Message[]) =>
  messages.map((m) => ({
    role: m.role,
    turnId: m.turnId,
    parts: m.parts.map((p) =>
      p.type === 'tool'
        ? { tool: p.tool, input: p.input, output: p.output, state: p.state, title: p.title, attachments: p.attachments }
        : { type: p.type, text: p.text.trim() },
    ),
  }));

/** Runs turns while recording every event, then builds the view both ways. */
async function bothWays(
  app: App,
  messages: string[],
): Promise<{ live: ChatView; stored: ChatView; events: BusEvent[] }> {
  const session = app.sessions.create();
  const events: BusEvent[] = [];
  const off = app.bus.onAny((e) => events.push(e));
  const live = viewFromHistory(session.id, { messages: [], resumeAfter: 0 }, false);
  for (const m of messages) await app.sessions.send(session.id, m);
  off();
  for (const e of events) applyEvent(live, e);
  const history: History = {
    messages: app.sessions.history(session.id) as Message[],
    resumeAfter: app.events.resumePoint(session.id),
  };
  return { live, stored: viewFromHistory(session.id, history, false), events };
}

describe('the chat view', () => {
  it('is the same built from live events as from the stored history (offline planner, tools)', async () => {
    const app = await appWith();
    const { live, stored } = await bothWays(app, ['帮我算一下 (3+5)*2', 'add a todo: buy milk', 'what time is it']);
    expect(seen(live.messages)).toEqual(seen(stored.messages));
    expect(
      live.messages.some((m) =>
        m.parts.some((p) => p.type === 'tool' && p.tool === 'calculator' && p.state === 'completed'),
      ),
    ).toBe(true);
    expect(live.running).toBe(false);
  });

  it('is the same for a model that thinks, calls tools in one step, fails one, and answers', async () => {
    const llm = createScriptedLlm([
      {
        text: 'Let me check.',
        calls: [
          { name: 'calculator', args: { expression: '2+2' } },
          { name: 'todo_done', args: { id: 99 } },
        ],
      },
      { text: 'Two plus two is **4**; there was no todo 99.' },
    ]);
    const app = await appWith(llm);
    const { live, stored } = await bothWays(app, ['sums']);
    expect(seen(live.messages)).toEqual(seen(stored.messages));
    const tools = live.messages.flatMap((m) => m.parts).filter((p) => p.type === 'tool');
    expect(tools.map((p) => p.type === 'tool' && p.state)).toEqual(['completed', 'error']);
  });

  it('ignores events it has already seen, so a replay after a reconnect shows nothing twice', async () => {
    const app = await appWith();
    const { live, events } = await bothWays(app, ['1+1']);
    const before = JSON.stringify(live.messages);
    for (const e of events) expect(applyEvent(live, e)).toBe(false);
    expect(JSON.stringify(live.messages)).toBe(before);
  });

  it('does not call a chat running when it replays the steps of a turn whose server died', async () => {
    const app = await appWith();
    const { events } = await bothWays(app, ['1+1']);
    // What a reload after kill -9 replays: the steps of a turn, never its end; the session is idle.
    const steps = events.filter((e) => e.type === 'step.start' || e.type === 'text.delta' || e.type === 'tool.start');
    const view = viewFromHistory(events[0]!.sessionId, { messages: [], resumeAfter: 0 }, false);
    for (const e of steps) applyEvent(view, e);
    expect(view.running).toBe(false);
    expect(view.messages.length).toBeGreaterThan(0);
  });

  it('shows the reply a stopped turn ends with, as the history does', async () => {
    let waiting!: () => void;
    const midTurn = new Promise<void>((resolve) => (waiting = resolve));
    const llm = createScriptedLlm([{ text: 'Working on it', delayMs: 5_000, onWait: waiting }]);
    const app = await appWith(llm);
    const session = app.sessions.create();
    const events: BusEvent[] = [];
    app.bus.onAny((e) => events.push(e));
    const turn = app.sessions.send(session.id, 'slow');
    await midTurn;
    app.sessions.abort(session.id, 'aborted');
    await turn;
    const live = viewFromHistory(session.id, { messages: [], resumeAfter: 0 }, false);
    for (const e of events) applyEvent(live, e);
    const stored = viewFromHistory(
      session.id,
      { messages: app.sessions.history(session.id) as Message[], resumeAfter: 0 },
      false,
    );
    expect(seen(live.messages)).toEqual(seen(stored.messages));
    // The reply says it stopped; no second notice repeats it.
    expect(live.notice).toBeUndefined();
    expect(live.lastReply?.text).toMatch(/stop|停止/i);
  });
});
