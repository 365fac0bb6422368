import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp } from '../src/app.js';
import type { BusEvent, EventOf } from '../src/bus/bus.js';
import type { PermissionReply } from '../src/permission/permission.js';
import { checkPath } from '../src/tools/sandbox.js';
import { defineTool } from '../src/tools/tool.js';
import { createScriptedLlm, type ScriptedStep } from './support/scripted-llm.js';
import { tempHome } from './support/temp-home.js';

const cleanups: Array<() => void> = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

/** Waits, or stops early (rejecting) when the tool is told to stop. */
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), reject(new Error('stopped'))), { once: true });
  });

/** A tool that asks before it "stamps" a file, the way the file tools ask: through checkPath. */
const stamp = (options: { timeoutMs?: number; workMs?: [before: number, after: number] } = {}) =>
  defineTool({
    name: 'stamp',
    description: 'Stamps a file (test tool that asks first).',
    parameters: z.object({ path: z.string().describe('file to stamp') }),
    timeoutMs: options.timeoutMs,
    async execute(args, ctx) {
      const [before, after] = options.workMs ?? [0, 0];
      if (before) await sleep(before, ctx.signal);
      const located = await checkPath(ctx, 'file.write', args.path);
      if (after) await sleep(after, ctx.signal);
      return `stamped ${located.display}`;
    },
  });

async function setup(steps: ScriptedStep[], tool = stamp()) {
  const t = tempHome({ ZHIXING_LANG: 'en' });
  const app = await createApp(t.config, { llm: createScriptedLlm(steps) });
  app.tools.register(tool);
  app.permission.setRules({ stamp: 'ask' });
  const events: BusEvent[] = [];
  app.bus.onAny((e) => events.push(e));
  cleanups.push(() => app.close(), t.cleanup);
  return { app, events, session: app.sessions.create() };
}

/** Answers every ask with the next of `replies`, after `afterMs`. */
function answer(app: Awaited<ReturnType<typeof setup>>['app'], replies: PermissionReply[], afterMs = 0) {
  app.bus.on('permission.asked', (e) => {
    const reply = replies.shift();
    if (reply) setTimeout(() => app.permission.reply(e.id, reply), afterMs);
  });
}

const of = <T extends BusEvent['type']>(events: BusEvent[], type: T) =>
  events.filter((e): e is EventOf<T> => e.type === type);

describe('a tool that asks, in the agent loop', () => {
  it('waits for the answer; "once" runs the call, and the ask names the session, turn, call, tool and target', async () => {
    const { app, events, session } = await setup([
      { calls: [{ id: 'call_1', name: 'stamp', args: { path: 'notes/a.txt' } }] },
      { text: 'Stamped.' },
    ]);
    answer(app, ['once'], 50);
    const r = await app.sessions.send(session.id, 'stamp notes/a.txt');
    expect(r.actions.map((a) => [a.ok, a.output])).toEqual([[true, 'stamped notes/a.txt']]);
    const turnId = of(events, 'turn.start')[0]!.turnId;
    const [asked] = of(events, 'permission.asked');
    expect(asked).toEqual({
      type: 'permission.asked',
      seq: asked!.seq,
      id: asked!.id,
      sessionId: session.id,
      turnId,
      callId: 'call_1',
      tool: 'stamp',
      action: 'file.write',
      target: `${app.config.workspace}/notes/a.txt`,
    });
    expect(of(events, 'permission.replied')).toEqual([
      { type: 'permission.replied', seq: asked!.seq + 1, id: asked!.id, sessionId: session.id, decision: 'once' },
    ]);
    // Asked while the call ran: after it started, before it ended.
    const types = events.map((e) => e.type);
    expect(types.indexOf('tool.start')).toBeLessThan(types.indexOf('permission.asked'));
    expect(types.indexOf('permission.replied')).toBeLessThan(types.indexOf('tool.end'));
    expect(app.permission.pending()).toEqual([]);
  });

  it('"always" runs the call and the same call later without asking again', async () => {
    const { app, events, session } = await setup([
      { calls: [{ name: 'stamp', args: { path: 'notes/a.txt' } }] },
      { calls: [{ name: 'stamp', args: { path: './notes/a.txt' } }] },
      { text: 'Stamped twice.' },
    ]);
    answer(app, ['always']);
    const r = await app.sessions.send(session.id, 'stamp it twice');
    expect(r.actions.map((a) => a.ok)).toEqual([true, true]);
    expect(of(events, 'permission.asked')).toHaveLength(1);
    expect(app.store.permissionDecisions.list()).toMatchObject([
      { tool: 'stamp', pattern: `${app.config.workspace}/notes/a.txt`, decision: 'allow' },
    ]);
  });

  it('"deny" refuses the call, and the model reads that the user declined', async () => {
    const { app, events, session } = await setup([
      { calls: [{ id: 'call_1', name: 'stamp', args: { path: 'notes/a.txt' } }] },
      { text: 'You declined, so nothing was stamped.' },
    ]);
    answer(app, ['deny']);
    const r = await app.sessions.send(session.id, 'stamp notes/a.txt');
    expect(r.stopReason).toBe('done');
    expect(r.actions).toMatchObject([
      { ok: false, output: 'Error: The user declined writing to notes/a.txt; nothing was changed.' },
    ]);
    expect(of(events, 'permission.replied')[0]!.decision).toBe('deny');
  });

  it('an abort while the user decides withdraws the ask: the turn ends aborted and the ask is cancelled', async () => {
    const { app, events, session } = await setup([
      { calls: [{ name: 'stamp', args: { path: 'notes/a.txt' } }] },
      { text: 'never reached' },
    ]);
    app.bus.on('permission.asked', () => setTimeout(() => app.sessions.abort(session.id), 50));
    const r = await app.sessions.send(session.id, 'stamp notes/a.txt');
    expect(r.stopReason).toBe('aborted');
    expect(of(events, 'permission.replied').map((e) => e.decision)).toEqual(['cancelled']);
    expect(r.actions[0]!.ok).toBe(false);
    expect(r.actions[0]!.output).toContain(
      "The turn was stopped while waiting for the user's approval; writing to notes/a.txt did not happen.",
    );
    expect(app.permission.pending()).toEqual([]);
  });
});

describe('the tool timeout while the user decides', () => {
  it('does not run: a tool with a 100 ms timeout whose ask is answered after 300 ms completes', async () => {
    const { app, session } = await setup(
      [{ calls: [{ name: 'stamp', args: { path: 'a.txt' } }] }, { text: 'ok' }],
      stamp({ timeoutMs: 100, workMs: [20, 20] }),
    );
    answer(app, ['once'], 300);
    const r = await app.sessions.send(session.id, 'stamp a.txt');
    expect(r.actions).toMatchObject([{ ok: true, output: 'stamped a.txt' }]);
    expect(r.actions[0]!.ms).toBeGreaterThan(300);
  });

  it('goes on with the time that was left, not a fresh timeout', async () => {
    // 70 ms of work, the ask, 70 ms more: past the 100 ms the tool has, though each part alone is not.
    const { app, session } = await setup(
      [{ calls: [{ name: 'stamp', args: { path: 'a.txt' } }] }, { text: 'ok' }],
      stamp({ timeoutMs: 100, workMs: [70, 70] }),
    );
    answer(app, ['once'], 200);
    const r = await app.sessions.send(session.id, 'stamp a.txt');
    expect(r.actions[0]!.ok).toBe(false);
    expect(r.actions[0]!.output).toMatch(/^Error: stamp timed out after 0.1 s/);
  });
});

describe('rules over the paths the file tools touch', () => {
  it('match the path relative to the workspace with /, and through a link: {"file_write": {"secret/*": "deny", "*": "allow"}}', async () => {
    const t = tempHome({ ZHIXING_LANG: 'en' }, { permissions: { file_write: { 'secret/*': 'deny', '*': 'allow' } } });
    const app = await createApp(t.config, {
      llm: createScriptedLlm([
        {
          calls: [
            { name: 'file_write', args: { path: 'notes/a.txt', content: 'ok' } },
            { name: 'file_write', args: { path: 'secret/k.txt', content: 'no' } },
          ],
        },
        {
          calls: [
            { name: 'file_write', args: { path: './secret/../secret/k.txt', content: 'no' } },
            { name: 'file_write', args: { path: 'door/k.txt', content: 'no' } },
          ],
        },
        { text: 'done' },
      ]),
    });
    cleanups.push(() => app.close(), t.cleanup);
    const { mkdirSync, symlinkSync, existsSync } = await import('node:fs');
    mkdirSync(`${app.workspace}/secret`);
    // A link outside secret/ that leads into it is matched by where it leads.
    symlinkSync(`${app.workspace}/secret`, `${app.workspace}/door`);
    const session = app.sessions.create();
    const r = await app.sessions.send(session.id, 'write them');
    expect(r.actions.map((a) => a.ok)).toEqual([true, false, false, false]);
    expect(r.actions[1]!.output).toBe(
      'Error: Writing to secret/k.txt was refused by the permission settings; nothing was changed.',
    );
    expect(existsSync(`${app.workspace}/notes/a.txt`)).toBe(true);
    expect(existsSync(`${app.workspace}/secret/k.txt`)).toBe(false);
  });
});

describe('rules set while the app runs', () => {
  it('apply from the next call on and are saved to config.json beside its other settings', async () => {
    const t = tempHome({ ZHIXING_LANG: 'en' }, { model: 'kept', permissions: { web_fetch: 'ask' } });
    const app = await createApp(t.config, {
      llm: createScriptedLlm([
        { calls: [{ name: 'file_write', args: { path: 'a.txt', content: 'x' } }] },
        { text: 'refused' },
      ]),
    });
    cleanups.push(() => app.close(), t.cleanup);
    app.permission.setRules({ file_write: 'deny' });
    const r = await app.sessions.send(app.sessions.create().id, 'write a.txt');
    expect(r.actions[0]!.ok).toBe(false);
    const { readFileSync } = await import('node:fs');
    expect(JSON.parse(readFileSync(`${t.home}/config.json`, 'utf8'))).toEqual({
      model: 'kept',
      permissions: { file_write: 'deny' },
    });
  });
});
