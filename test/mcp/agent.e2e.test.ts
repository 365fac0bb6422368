/**
 * Through the whole app: servers from config.json, a scripted model calling their tools, the rules
 * deciding the asks, results reaching the model and images staying out of its context.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../src/app.js';
import type { BusEvent } from '../../src/bus/bus.js';
import { createScriptedLlm, type ScriptedStep } from '../support/scripted-llm.js';
import { tempHome } from '../support/temp-home.js';
import { bin } from '../support/mcp.js';

// Real servers start as processes: on a busy machine a test's few connects take more than the default 20 s.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(steps: ScriptedStep[], configFile: object) {
  const t = tempHome({ ZHIXING_LANG: 'en' }, configFile);
  const llm = createScriptedLlm(steps);
  const app = await createApp(t.config, { llm });
  const events: BusEvent[] = [];
  app.bus.onAny((e) => events.push(e));
  cleanups.push(t.cleanup, async () => {
    await app.mcp.close();
    app.close();
  });
  app.mcp.start();
  expect(await app.mcp.ready(15_000)).toEqual([]);
  return { app, llm, events, session: app.sessions.create() };
}

const everythingServer = { command: bin('mcp-server-everything'), args: ['stdio'] };

describe('MCP tools in a turn', () => {
  it("runs the model's call to everything__get-sum; its result reaches the model, the image stays out of its context", async () => {
    const { app, llm, events, session } = await setup(
      [
        {
          calls: [
            { id: 'call_sum', name: 'everything__get-sum', args: { a: 19, b: 23 } },
            { id: 'call_img', name: 'everything__get-tiny-image', args: {} },
          ],
        },
        { text: 'The sum is 42, and here is the image.' },
      ],
      { mcpServers: { everything: everythingServer } },
    );
    // Untrusted until a rule says so: every call asks, and the user allows it once.
    expect(app.mcp.get('everything')!.trusted).toBe(false);
    app.bus.on('permission.asked', (e) => void app.permission.reply(e.id, 'once'));
    // The model is offered the server's tools, under their full names, with the untrusted label.
    const r = await app.sessions.send(session.id, 'add 19 and 23, then show me the tiny image');
    const offered = llm.requests[0]!.tools!.map((t) => t.name);
    expect(offered).toEqual(expect.arrayContaining(['everything__get-sum', 'everything__get-tiny-image']));
    expect(llm.requests[0]!.tools!.find((t) => t.name === 'everything__get-sum')!.description).toMatch(
      /^\[Tool from MCP server "everything"/,
    );

    expect(r.actions.map((a) => [a.tool, a.ok])).toEqual([
      ['everything__get-sum', true],
      ['everything__get-tiny-image', true],
    ]);
    expect(r.actions[0]!.permission).toEqual([
      expect.objectContaining({ action: 'mcp.call', decision: 'allow', by: 'user', rule: '*__*' }),
    ]);
    const asked = events.filter((e) => e.type === 'permission.asked');
    // The two calls run side by side (each one's arguments checked on a worker first): their asks come in either order.
    expect(asked.map((e) => (e as { target?: string }).target).sort()).toEqual([
      'everything__get-sum {"a":19,"b":23}',
      'everything__get-tiny-image',
    ]);

    // The result text is in the model's next request; the image bytes are in no request at all.
    const next = llm.requests[1]!.messages;
    const sumResult = next.find((m) => m.role === 'tool' && m.tool_call_id === 'call_sum');
    expect(sumResult!.content).toMatch(/42/);
    const imageResult = next.find((m) => m.role === 'tool' && m.tool_call_id === 'call_img');
    expect(imageResult!.content).toMatch(/\[image: image\/png, .* shown to the user\]/);
    for (const request of llm.requests) expect(JSON.stringify(request)).not.toContain('iVBORw0KGgo');

    // The image is the call's attachment, stored with the call for the UI.
    const imagePart = app.sessions
      .history(session.id)
      .flatMap((m) => m.parts)
      .find((p) => p.type === 'tool' && p.callId === 'call_img');
    expect(imagePart).toMatchObject({ state: 'completed' });
    const attachments = (imagePart as { attachments?: Array<{ mimeType: string; size: number }> }).attachments;
    expect(attachments).toHaveLength(1);
    expect(attachments![0]).toMatchObject({ mimeType: 'image/png' });
    expect(attachments![0]!.size).toBeGreaterThan(100);
  });

  it('does not ask for a trusted server ("everything__*": "allow")', async () => {
    const { app, events, session } = await setup(
      [{ calls: [{ name: 'everything__get-sum', args: { a: 1, b: 2 } }] }, { text: 'Three.' }],
      { mcpServers: { everything: everythingServer }, permissions: { 'everything__*': 'allow' } },
    );
    expect(app.mcp.get('everything')!.trusted).toBe(true);
    const r = await app.sessions.send(session.id, 'add 1 and 2');
    expect(r.actions[0]).toMatchObject({
      ok: true,
      permission: [{ decision: 'allow', by: 'rule', rule: 'everything__*' }],
    });
    expect(r.actions[0]!.output).toMatch(/3/);
    expect(events.filter((e) => e.type === 'permission.asked')).toHaveLength(0);
  });

  it("shows a long call's progress as tool.progress events, with the server's timeout reset by it", async () => {
    const { app, events, session } = await setup(
      // Twice the timeout in all, a step every tenth of it: only the resets keep the call alive, with room for a busy machine.
      [
        {
          calls: [
            { id: 'call_long', name: 'everything__trigger-long-running-operation', args: { duration: 4, steps: 40 } },
          ],
        },
        { text: 'Done.' },
      ],
      {
        mcpServers: { everything: { ...everythingServer, timeout_ms: 2_000 } },
        permissions: { 'everything__*': 'allow' },
      },
    );
    const r = await app.sessions.send(session.id, 'run the long operation');
    expect(r.actions[0]).toMatchObject({ ok: true });
    const progress = events.filter((e) => e.type === 'tool.progress') as Array<{ callId: string; message: string }>;
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress[0]).toMatchObject({ callId: 'call_long', message: expect.stringMatching(/^1\/40\b/) });
  });

  it('a rule for one tool does not make the whole server trusted', async () => {
    const { app } = await setup([], {
      mcpServers: { everything: everythingServer },
      permissions: { 'everything__get-sum': 'allow' },
    });
    expect(app.mcp.get('everything')!.trusted).toBe(false);
  });

  it('a deny refuses without calling the server', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'zhixing-mcp-deny-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'memory.jsonl');
    const { app, session } = await setup(
      [
        {
          calls: [
            { name: 'memory__create_entities', args: { entities: [{ name: 'X', entityType: 't', observations: [] }] } },
          ],
        },
        { text: 'Refused.' },
      ],
      {
        mcpServers: { memory: { command: bin('mcp-server-memory'), env: { MEMORY_FILE_PATH: file } } },
        permissions: { 'memory__*': 'deny' },
      },
    );
    const r = await app.sessions.send(session.id, 'remember X');
    expect(r.actions[0]).toMatchObject({
      ok: false,
      permission: [{ decision: 'deny', by: 'rule', rule: 'memory__*' }],
    });
    expect(r.actions[0]!.output).toMatch(/refused by the permission settings; it was not made/);
    expect(existsSync(file)).toBe(false);
  });
});
