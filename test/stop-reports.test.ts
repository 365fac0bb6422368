import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp } from '../src/app.js';
import { defineTool } from '../src/tools/tool.js';
import { ToolError } from '../src/contract/tool-error.js';
import { createScriptedLlm, type ScriptedStep } from './support/scripted-llm.js';
import { tempHome } from './support/temp-home.js';

/**
 * After Ctrl-C or a tool timeout, what the turn says about a call must match the disk: a write that
 * landed is reported done, one that was truly stopped is reported not done, and one that would not
 * say is reported as possibly still running — never "not done" for a file that then appears.
 */
const cleanups: Array<() => void> = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Resolves once the signal has fired, and a turn of the event loop later, so whoever else heard it has acted. */
const stopAsked = (signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const after = () => setImmediate(resolve);
    if (signal.aborted) after();
    else signal.addEventListener('abort', after, { once: true });
  });

async function setup(steps: ScriptedStep[]) {
  const t = tempHome({ ZHIXING_LANG: 'en' });
  const app = await createApp(t.config, { llm: createScriptedLlm(steps) });
  cleanups.push(() => app.close(), t.cleanup);
  const target = join(t.home, 'landed.txt');
  // Each tool says when it is mid-call (for careful_write and stubborn_write: started; for
  // committed_write: past its point of no return), so a test stops it then, not after a guessed time.
  let midCall!: () => void;
  const reached = new Promise<void>((resolve) => (midCall = resolve));
  // Ignores its signal, as a tool stuck in a system call would: the file lands after the stop, whatever happens.
  app.tools.register(
    defineTool({
      name: 'stubborn_write',
      description: 'writes late',
      parameters: z.object({}),
      timeoutMs: 100,
      execute: async (_args, ctx) => {
        const stopped = stopAsked(ctx.signal);
        midCall();
        await stopped;
        writeFileSync(target, 'x');
        return 'Wrote landed.txt';
      },
    }),
  );
  // Honours its signal: stops before writing and says so.
  app.tools.register(
    defineTool({
      name: 'careful_write',
      description: 'writes late unless stopped',
      parameters: z.object({}),
      execute: async (_args, ctx) => {
        const stopped = stopAsked(ctx.signal);
        midCall();
        await stopped;
        if (ctx.signal.aborted) throw new ToolError('Cancelled; nothing was written.');
        writeFileSync(target, 'x');
        return 'Wrote landed.txt';
      },
    }),
  );
  // Past its point of no return (a rename under way on a slow disk) it takes longer than any grace.
  app.tools.register(
    defineTool({
      name: 'committed_write',
      description: 'commits slowly',
      parameters: z.object({}),
      timeoutMs: 50,
      execute: async (_args, ctx) => {
        if (ctx.signal.aborted) throw new ToolError('Cancelled; nothing was written.');
        ctx.unstoppable?.();
        midCall();
        await stopAsked(ctx.signal);
        // Longer than the 50 ms grace a timeout gives this tool: the registry must wait on.
        await sleep(300);
        writeFileSync(target, 'x');
        return 'Wrote landed.txt';
      },
    }),
  );
  app.tools.register(
    defineTool({
      name: 'silent',
      description: 'never settles',
      parameters: z.object({}),
      timeoutMs: 50,
      execute: () => new Promise<string>(() => {}),
    }),
  );
  return { app, session: app.sessions.create(), target, reached };
}

describe('a stopped tool call is reported as what really happened', () => {
  it('Ctrl-C during a write that still lands: reported done, and the reply lists it under Done', async () => {
    const { app, session, target, reached } = await setup([{ calls: [{ name: 'stubborn_write', args: {} }] }]);
    const controller = new AbortController();
    void reached.then(() => controller.abort());
    const r = await app.sessions.send(session.id, 'write it', { signal: controller.signal });
    expect(r.stopReason).toBe('aborted');
    expect(existsSync(target)).toBe(true);
    expect(r.actions).toMatchObject([{ tool: 'stubborn_write', ok: true }]);
    expect(r.actions[0]!.output).toContain('finished before the stop could take effect');
    expect(r.reply).toMatch(/Done:\n- stubborn_write: Wrote landed\.txt/);
    expect(r.reply).not.toContain('Not done');
    const part = app.sessions
      .history(session.id)
      .flatMap((m) => m.parts)
      .find((p) => p.type === 'tool');
    expect(part).toMatchObject({ state: 'completed' });
  });

  it('a timeout during a write that still lands: reported done', async () => {
    const { app, session, target } = await setup([{ calls: [{ name: 'stubborn_write', args: {} }] }, { text: 'ok' }]);
    const r = await app.sessions.send(session.id, 'write it');
    expect(existsSync(target)).toBe(true);
    expect(r.actions[0]).toMatchObject({ ok: true });
  });

  it('Ctrl-C during a write that honours the stop: reported not done, and nothing is on disk', async () => {
    const { app, session, target, reached } = await setup([{ calls: [{ name: 'careful_write', args: {} }] }]);
    const controller = new AbortController();
    void reached.then(() => controller.abort());
    const r = await app.sessions.send(session.id, 'write it', { signal: controller.signal });
    // The call's own "nothing was written" (checked below) means it has settled: no write can follow.
    expect(existsSync(target)).toBe(false);
    expect(r.actions[0]).toMatchObject({ ok: false });
    expect(r.actions[0]!.output).toBe('Error: It was told to stop. Cancelled; nothing was written.');
    expect(r.reply).toMatch(/Not done:\n- careful_write:/);
  });

  it('a tool that never answers after a stop is reported as possibly still running, not as undone', async () => {
    const { app, session } = await setup([{ calls: [{ name: 'silent', args: {} }] }, { text: 'ok' }]);
    const r = await app.sessions.send(session.id, 'go');
    expect(r.actions[0]!.output).toMatch(
      /^Error: silent timed out after 0\.05 s and was told to stop\. It did not confirm within 0\.05 s that it stopped, so it may still finish\.$/,
    );
  });

  it('a call past its point of no return is waited for, however long, on a timeout or Ctrl-C', async () => {
    const { app, session, target } = await setup([{ calls: [{ name: 'committed_write', args: {} }] }, { text: 'ok' }]);
    const r = await app.sessions.send(session.id, 'write it');
    expect(existsSync(target)).toBe(true);
    expect(r.actions[0]).toMatchObject({ ok: true });
    expect(r.actions[0]!.output).toContain('finished before the stop could take effect');

    const again = await setup([{ calls: [{ name: 'committed_write', args: {} }] }]);
    const controller = new AbortController();
    void again.reached.then(() => controller.abort());
    const r2 = await again.app.sessions.send(again.session.id, 'write it', { signal: controller.signal });
    expect(existsSync(again.target)).toBe(true);
    expect(r2.actions[0]).toMatchObject({ ok: true });
    expect(r2.reply).toMatch(/Done:\n- committed_write/);
  });
});
