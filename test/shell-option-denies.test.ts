// Under {"shell": {"rm -rf *": "deny"}} and --yes, the shell tool (real parser, real permission
// service, real rm) refuses every other spelling of rm's -r and -f, and the folder is still there;
// an rm without both options is still --yes's to approve, and runs.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBus } from '../src/bus/bus.js';
import { createPermissionService } from '../src/permission/permission.js';
import { shellCtx, shellFixture, shellRunner, type ShellFixture } from './support/shell.js';

let fx: ShellFixture;
beforeEach(() => {
  fx = shellFixture();
});
afterEach(() => fx.cleanup());

/** The shell tool as a one-shot run with --yes would run it under `rules`. */
function yesRunner(rules: Record<string, unknown>) {
  let n = 0;
  const service = createPermissionService({
    bus: createBus(),
    newId: () => `per_${++n}`,
    rules: rules as never,
    autoApprove: true,
  });
  const run = shellRunner(fx);
  return async (command: string) => {
    const calls = service.askFor({
      tool: 'shell',
      callId: `call_${++n}`,
      sessionId: 'ses_1',
      turnId: 'trn_1',
      signal: new AbortController().signal,
    });
    const result = await run({ command }, { ...shellCtx(fx.workspace), ask: calls.ask, refusal: calls.refusal });
    return { ...result, records: calls.records() };
  };
}

describe("a deny over rm's options, through the shell tool and --yes", () => {
  it('refuses rm -r -f, -fr, -Rf, --recursive --force, --rec --for, t1 -rf, and still runs rm without -f', async () => {
    const run = yesRunner({ shell: { 'rm -rf *': 'deny' } });
    mkdirSync(path.join(fx.workspace, 't1', 'sub'), { recursive: true });
    writeFileSync(path.join(fx.workspace, 't1', 'sub', 'keep.txt'), 'keep\n');
    for (const command of [
      'rm -r -f t1',
      'rm -fr t1',
      'rm -Rf t1',
      'rm --recursive --force t1',
      'rm -rfv t1',
      'rm -v -rf t1',
      'rm t1 -rf',
      'rm --rec --for t1',
      'cd . && rm "-r" -f -- t1',
      'echo t1 | xargs rm -r',
    ]) {
      const r = await run(command);
      expect(r.ok, command).toBe(false);
      expect(r.output, command).toMatch(/refused by the permission settings; nothing was run/);
      expect(r.records, command).toEqual([
        expect.objectContaining({ decision: 'deny', by: 'rule', rule: 'shell › rm -rf *' }),
      ]);
      expect(existsSync(path.join(fx.workspace, 't1', 'sub', 'keep.txt')), command).toBe(true);
    }
    // What the deny does not name is --yes's to approve, as before: the same folder goes.
    const r = await run('rm -r t1');
    expect(r.ok).toBe(true);
    expect(r.records).toEqual([expect.objectContaining({ decision: 'allow', by: 'yes' })]);
    expect(existsSync(path.join(fx.workspace, 't1'))).toBe(false);
  });
});
