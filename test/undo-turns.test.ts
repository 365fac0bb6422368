import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp } from '../src/app.js';
import type { BusEvent } from '../src/bus/bus.js';
import { defineTool } from '../src/tools/tool.js';
import { createScriptedLlm, gate, type ScriptedStep } from './support/scripted-llm.js';
import { tempHome } from './support/temp-home.js';

const cleanups: Array<() => void> = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

/**
 * Stands in for the shell: like `bash -c`, it changes the workspace behind the file tools' back.
 * Once the shell tool is in, these turns can call `shell` with the same changes as a command line.
 */
const Op = z.union([
  z.object({ write: z.string(), content: z.string() }),
  z.object({ remove: z.string() }),
  z.object({ mkdir: z.string() }),
  z.object({ move: z.string(), to: z.string() }),
]);
const fakeShell = defineTool({
  name: 'fake_shell',
  description: 'Runs file operations in the workspace, as a shell command would.',
  parameters: z.object({ ops: z.array(Op).describe('What to do, in order.') }),
  changesWorkspace: true,
  execute({ ops }, ctx) {
    const at = (p: string) => join(ctx.workspace, p);
    for (const op of ops) {
      if ('write' in op) writeFileSync(at(op.write), op.content);
      else if ('remove' in op) rmSync(at(op.remove), { recursive: true });
      else if ('mkdir' in op) mkdirSync(at(op.mkdir), { recursive: true });
      else renameSync(at(op.move), at(op.to));
    }
    return `ran ${ops.length} operations`;
  },
});

async function setup(steps: ScriptedStep[], prepare?: (home: string) => void) {
  const t = tempHome({ ZHIXING_LANG: 'en' });
  prepare?.(t.home);
  const app = await createApp(t.config, { llm: createScriptedLlm(steps) });
  app.tools.register(fakeShell);
  const events: BusEvent[] = [];
  app.bus.onAny((e) => events.push(e));
  cleanups.push(() => app.close(), t.cleanup);
  const ws = (p: string) => join(app.workspace, p);
  return { app, events, ws, session: app.sessions.create().id };
}

const shell = (ops: unknown[]): ScriptedStep => ({ calls: [{ name: 'fake_shell', args: { ops } }] });

describe('undo of a turn that changed files behind the file tools', () => {
  it('removes what it created, restores what it changed, puts back what it deleted', async () => {
    const { app, ws, session, events } = await setup([
      shell([
        { mkdir: 'build' },
        { write: 'build/out.txt', content: 'generated' },
        { write: 'notes.md', content: 'rewritten' },
        { remove: 'old.txt' },
      ]),
      { text: 'Done.' },
    ]);
    writeFileSync(ws('notes.md'), 'my notes');
    writeFileSync(ws('old.txt'), 'old but precious');
    const turn = await app.sessions.send(session, 'clean up');
    expect(events.filter((e) => e.type === 'undo.available').map((e) => e.turnId)).toEqual([turn.turnId]);
    const types = events.map((e) => e.type);
    expect(types.indexOf('undo.available')).toBeLessThan(types.indexOf('turn.end'));

    const r = await app.sessions.undo(session);
    expect(r.turnId).toBe(turn.turnId);
    expect(readFileSync(ws('notes.md'), 'utf8')).toBe('my notes');
    expect(readFileSync(ws('old.txt'), 'utf8')).toBe('old but precious');
    expect(existsSync(ws('build'))).toBe(false);
    expect(r.message).toBe('Restored notes.md, removed build, put back old.txt.');
    expect(events.at(-1)).toMatchObject({
      type: 'undo',
      sessionId: session,
      turnId: turn.turnId,
      restored: ['notes.md'],
      putBack: ['old.txt'],
    });
    expect(app.sessions.undoStates(session)).toEqual([{ turnId: turn.turnId, state: 'undone' }]);
  });

  it('keeps a file changed since the turn, goes one turn further back on a second undo, and takes no snapshot for a turn that changes nothing', async () => {
    const { app, ws, session, events } = await setup([
      shell([{ write: 'a.txt', content: 'a by turn 1' }]),
      { text: 'One.' },
      { calls: [{ name: 'calculator', args: { expression: '1+1' } }] },
      { text: 'Two.' },
      shell([
        { write: 'a.txt', content: 'a by turn 3' },
        { write: 'b.txt', content: 'b by turn 3' },
      ]),
      { text: 'Three.' },
    ]);
    const first = await app.sessions.send(session, 'one');
    await app.sessions.send(session, 'two');
    await app.sessions.send(session, 'three');
    expect(app.store.snapshots.listForSession(session)).toHaveLength(2);
    writeFileSync(ws('b.txt'), 'edited by the user');

    const r = await app.sessions.undo(session);
    expect(r).toMatchObject({ restored: ['a.txt'], conflicts: ['b.txt'] });
    expect(r.message).toBe('Restored a.txt. Kept b.txt as it is: changed since.');
    expect(readFileSync(ws('a.txt'), 'utf8')).toBe('a by turn 1');

    const back = await app.sessions.undo(session);
    expect(back.turnId).toBe(first.turnId);
    expect(back.removed).toEqual(['a.txt']);
    await expect(app.sessions.undo(session)).rejects.toMatchObject({ code: 'nothing_to_undo' });
    expect(events.filter((e) => e.type === 'undo')).toHaveLength(2);
  });

  it('refuses while a turn of the session runs', async () => {
    const held = gate();
    let waiting!: () => void;
    const midTurn = new Promise<void>((resolve) => (waiting = resolve));
    const { app, session } = await setup([
      { ...shell([{ write: 'x.txt', content: 'x' }]), until: held.until, onWait: waiting },
      { text: 'ok' },
    ]);
    const running = app.sessions.send(session, 'go');
    await midTurn;
    await expect(app.sessions.undo(session)).rejects.toMatchObject({
      code: 'busy',
      message: expect.stringMatching(/still running/),
    });
    held.open();
    await running;
    expect((await app.sessions.undo(session)).removed).toEqual(['x.txt']);
  });

  it('still runs the call when no snapshot can be taken, and says the turn cannot be undone', async () => {
    // A file where the snapshots folder should be: every snapshot fails.
    const { app, ws, session, events } = await setup(
      [shell([{ write: 'x.txt', content: 'x' }]), { text: 'ok' }],
      (home) => writeFileSync(join(home, 'snapshots'), ''),
    );
    const turn = await app.sessions.send(session, 'go');
    expect(turn.actions[0]!.ok).toBe(true);
    expect(readFileSync(ws('x.txt'), 'utf8')).toBe('x');
    expect(events.find((e) => e.type === 'error')).toMatchObject({
      code: 'snapshot_failed',
      message: expect.stringMatching(/^Could not snapshot the workspace for undo .*cannot be undone\.$/),
    });
    await expect(app.sessions.undo(session)).rejects.toMatchObject({ code: 'nothing_to_undo' });
  });

  it('undoes a file_write that created a file and one that overwrote another, in one turn', async () => {
    const { app, ws, session } = await setup([
      {
        calls: [
          { name: 'file_write', args: { path: 'new.txt', content: 'new' } },
          { name: 'file_write', args: { path: 'kept.txt', content: 'overwritten' } },
        ],
      },
      { text: 'Written.' },
    ]);
    writeFileSync(ws('kept.txt'), 'original');
    const turn = await app.sessions.send(session, 'write them');
    expect(turn.actions.map((a) => a.ok)).toEqual([true, true]);
    const r = await app.sessions.undo(session);
    expect(r).toMatchObject({ restored: ['kept.txt'], removed: ['new.txt'] });
    expect(readFileSync(ws('kept.txt'), 'utf8')).toBe('original');
    expect(existsSync(ws('new.txt'))).toBe(false);
  });
});
