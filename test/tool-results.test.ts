import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp } from '../src/app.js';
import type { BusEvent } from '../src/bus/bus.js';
import { defineTool, type ToolContext } from '../src/tools/tool.js';
import { toWireMessages } from '../src/llm/openai-client.js';
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
      {
        calls: [
          { id: 'call_x', name: 'whoami', args: {} },
          { id: 'call_y', name: 'whoami', args: {} },
        ],
      },
      { text: 'ok' },
    ]);
    const seen: Array<Pick<ToolContext, 'sessionId' | 'turnId' | 'callId'>> = [];
    app.tools.register(
      defineTool({
        name: 'whoami',
        description: 'records its context',
        parameters: z.object({}),
        execute: (_args, ctx) => (
          seen.push({ sessionId: ctx.sessionId, turnId: ctx.turnId, callId: ctx.callId }),
          'noted'
        ),
      }),
    );
    const r = await app.sessions.send(session.id, 'who are you');
    expect(seen).toEqual([
      { sessionId: session.id, turnId: r.turnId, callId: 'call_x' },
      { sessionId: session.id, turnId: r.turnId, callId: 'call_y' },
    ]);
  });
});

describe('tool results with a card', () => {
  const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

  async function chartSetup() {
    const s = await setup([
      { calls: [{ id: 'call_chart', name: 'chart', args: { city: 'Beijing' } }] },
      { text: 'Here is the chart.' },
    ]);
    s.app.tools.register(
      defineTool({
        name: 'chart',
        description: 'draws a temperature chart',
        annotations: { readOnly: true },
        parameters: z.object({ city: z.string() }),
        // Slower than a commit, so the card reaches a part already on disk (the quick case is below).
        execute: async ({ city }) => (
          await new Promise((r) => setTimeout(r, 20)),
          {
            output: `Drew the week's temperatures for ${city}.`,
            title: `${city}: 7 days`,
            metadata: { city, days: 7, highC: 31.5 },
            attachments: [{ name: 'week.png', mimeType: 'image/png', data: png.toString('base64') }],
          }
        ),
      }),
    );
    return s;
  }

  it('sends the model only the output, and keeps the title, metadata and attachment with the call', async () => {
    const { app, llm, session, events } = await chartSetup();
    const r = await app.sessions.send(session.id, 'chart Beijing');
    expect(r.reply).toBe('Here is the chart.');

    // The model reads the output and nothing else: the result's data is for the offline planner, never sent.
    const toolMessages = llm.requests[1]!.messages.filter((m) => m.role === 'tool');
    expect(toolMessages).toEqual([
      {
        role: 'tool',
        tool_call_id: 'call_chart',
        content: "Drew the week's temperatures for Beijing.",
        result: { ok: true },
      },
    ]);
    expect(toWireMessages(toolMessages)).toEqual([
      { role: 'tool', tool_call_id: 'call_chart', content: "Drew the week's temperatures for Beijing." },
    ]);
    expect(JSON.stringify(llm.requests[1])).not.toContain(png.toString('base64'));

    // The stored part carries the card; the listing names and sizes the attachment without its bytes.
    const part = app.sessions
      .history(session.id)
      .flatMap((m) => m.parts)
      .find((p) => p.type === 'tool')!;
    expect(part).toEqual({
      id: part.id,
      type: 'tool',
      callId: 'call_chart',
      tool: 'chart',
      input: { city: 'Beijing' },
      output: "Drew the week's temperatures for Beijing.",
      state: 'completed',
      ms: expect.any(Number),
      title: 'Beijing: 7 days',
      metadata: { city: 'Beijing', days: 7, highC: 31.5 },
      attachments: [{ name: 'week.png', mimeType: 'image/png', size: png.length }],
    });

    // The UI fetches the bytes back whole.
    const attachment = app.store.messages.attachment(part.id, 0)!;
    expect(attachment).toMatchObject({ name: 'week.png', mimeType: 'image/png', size: png.length });
    expect(Buffer.from((attachment as { data: string }).data, 'base64')).toEqual(png);
    expect(app.store.messages.attachment(part.id, 1)).toBeUndefined();
    expect(app.store.messages.attachment('prt_none', 0)).toBeUndefined();

    // The event carries the card, the attachment only named and sized.
    const ended = events.find((e) => e.type === 'tool.end')!;
    expect(ended).toMatchObject({
      callId: 'call_chart',
      title: 'Beijing: 7 days',
      metadata: { city: 'Beijing', days: 7, highC: 31.5 },
      attachments: [{ name: 'week.png', mimeType: 'image/png', size: png.length }],
    });
    expect(JSON.stringify(ended)).not.toContain(png.toString('base64'));
    expect(r.actions[0]).toMatchObject({ title: 'Beijing: 7 days', metadata: { days: 7 } });
  });

  it('leaves the --json output as it was', async () => {
    const { app, session } = await chartSetup();
    const r = await app.sessions.send(session.id, 'chart Beijing');
    const { jsonResult } = await import('../src/sessions/json-result.js');
    const json = jsonResult(session.id, 'llm', r);
    expect(Object.keys(json.actions[0]!)).toEqual(['tool', 'input', 'ok', 'output', 'ms']);
  });

  it('keeps the card across a restart, and sends the next turn only the output as history', async () => {
    const t = tempHome({ ZHIXING_LANG: 'en' });
    cleanups.push(t.cleanup);
    const chart = defineTool({
      name: 'chart',
      description: 'draws',
      parameters: z.object({}),
      execute: () => ({
        output: 'drawn',
        title: 'chart',
        metadata: { n: 1 },
        attachments: [{ name: 'a.png', mimeType: 'image/png', data: png.toString('base64') }],
      }),
    });
    const first = await createApp(t.config, {
      llm: createScriptedLlm([{ calls: [{ id: 'c1', name: 'chart', args: {} }] }, { text: 'done' }]),
    });
    first.tools.register(chart);
    const session = first.sessions.create();
    await first.sessions.send(session.id, 'draw');
    first.close();

    const llm = createScriptedLlm([{ text: 'again?' }]);
    const second = await createApp(t.config, { llm });
    cleanups.push(() => second.close());
    const part = second.sessions
      .history(session.id)
      .flatMap((m) => m.parts)
      .find((p) => p.type === 'tool')!;
    expect(part).toMatchObject({
      title: 'chart',
      metadata: { n: 1 },
      attachments: [{ name: 'a.png', size: png.length }],
    });
    await second.sessions.send(session.id, 'and now?');
    expect(llm.requests[0]!.messages.find((m) => m.role === 'tool')).toEqual({
      role: 'tool',
      tool_call_id: 'c1',
      content: 'drawn',
    });
  });

  it('stores a call without a card as before', async () => {
    const { app, session } = await setup([{ calls: [{ name: 'plain', args: {} }] }, { text: 'ok' }]);
    app.tools.register(
      defineTool({ name: 'plain', description: 'plain text', parameters: z.object({}), execute: () => 'just text' }),
    );
    const r = await app.sessions.send(session.id, 'go');
    const part = app.sessions
      .history(session.id)
      .flatMap((m) => m.parts)
      .find((p) => p.type === 'tool')!;
    expect(Object.keys(part).sort()).toEqual(['callId', 'id', 'input', 'ms', 'output', 'state', 'tool', 'type']);
    expect(Object.keys(r.actions[0]!).sort()).toEqual(['callId', 'input', 'ms', 'ok', 'output', 'tool']);
  });
});
