import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp } from '../src/app.js';
import type { BusEvent } from '../src/bus/bus.js';
import { defineTool, type ToolContext } from '../src/tools/tool.js';
import { createScriptedLlm, type ScriptedStep } from './support/scripted-llm.js';
import { tempHome } from './support/temp-home.js';

const cleanups: Array<() => void> = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

async function setup(steps: ScriptedStep[]) {
  const t = tempHome({ ZHIXING_LANG: 'en' });
  const llm = createScriptedLlm(steps);
  const app = await createApp(t.config, { llm });
  const events: BusEvent[] = [];
  app.bus.onAny((e) => events.push(e));
  cleanups.push(() => app.close(), t.cleanup);
  const session = app.sessions.create();
  return { app, llm, events, session, home: t.home };
}

describe('the tool context', () => {
  it('tells a tool which turn and which call it runs for', async () => {
    const { app, session } = await setup([
      { calls: [{ id: 'call_x', name: 'whoami', args: {} }, { id: 'call_y', name: 'whoami', args: {} }] },
      { text: 'ok' },
    ]);
    const seen: Array<Pick<ToolContext, 'sessionId' | 'turnId' | 'callId'>> = [];
    app.tools.register(defineTool({
      name: 'whoami',
      description: 'records its context',
      parameters: z.object({}),
      execute: (_args, ctx) => (seen.push({ sessionId: ctx.sessionId, turnId: ctx.turnId, callId: ctx.callId }), 'noted'),
    }));
    const r = await app.sessions.send(session.id, 'who are you');
    expect(seen).toEqual([
      { sessionId: session.id, turnId: r.turnId, callId: 'call_x' },
      { sessionId: session.id, turnId: r.turnId, callId: 'call_y' },
    ]);
  });
});
