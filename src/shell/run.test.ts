import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { processAlive } from '../process-alive.js';
import { shellEnv } from './env.js';
import { runCommand, type RunCommandOptions } from './run.js';

let ws: string;
beforeEach(() => {
  ws = mkdtempSync(path.join(os.tmpdir(), 'zhixing-run-'));
});
afterEach(() => rmSync(ws, { recursive: true, force: true }));

const run = (command: string, extra: Partial<RunCommandOptions> = {}) =>
  runCommand({
    command,
    cwd: ws,
    env: shellEnv(process.env, { workspace: ws, tmpdir: os.tmpdir() }),
    shell: '/bin/bash',
    timeoutMs: 10_000,
    cutNote: (n) => `[${n} bytes cut]`,
    killGraceMs: 500,
    ...extra,
  });

/** Running, not just a zombie waiting for whoever adopted it to reap it (slow here, where PID 1 is no init). */
function running(pid: number): boolean {
  if (!processAlive(pid)) return false;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Waits until `pid` is no longer running, up to `ms`: a killed process takes a moment to die. */
async function gone(pid: number, ms = 3_000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!running(pid)) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return !running(pid);
}

const pidIn = (file: string) => Number(readFileSync(path.join(ws, file), 'utf8').trim());

describe('running a command (no sandbox)', () => {
  it('returns standard output and error together in the order written, with the exit code', async () => {
    const r = await run('echo one; echo two >&2; echo three; exit 3');
    expect(r).toMatchObject({ exitCode: 3, signal: null, output: 'one\ntwo\nthree\n', cutBytes: 0 });
    expect(r.stopped).toBeUndefined();
    expect(r.ms).toBeGreaterThan(0);
  });

  it('runs in the workspace, with standard input closed', async () => {
    const r = await run('pwd; cat; echo "[$HOME]"');
    expect(r.output).toBe(`${ws}\n[${ws}]\n`);
  });

  it('cuts the middle of long output and says how much', async () => {
    const r = await run("head -c 100000 /dev/zero | tr '\\0' x; echo; echo END");
    expect(r.totalBytes).toBe(100_005);
    expect(r.output.length).toBeLessThan(30_000);
    expect(r.output).toMatch(/^x{1000}/);
    expect(r.output).toMatch(/\n\[\d+ bytes cut\]\n/);
    expect(r.output.endsWith('x\nEND\n')).toBe(true);
  });

  it('on timeout ends the whole process group, background children included', async () => {
    const r = await run('sleep 30 & echo $! > bg.pid; sleep 30', { timeoutMs: 700 });
    expect(r.stopped).toBe('timeout');
    expect(r.ms).toBeLessThan(5_000);
    expect(await gone(pidIn('bg.pid'))).toBe(true);
  });

  it('a child that ignores SIGTERM is killed after the grace', async () => {
    const r = await run('bash -c \'trap "" TERM; echo $$ > stubborn.pid; while :; do sleep 0.1; done\' & sleep 30', {
      timeoutMs: 700,
    });
    expect(r.stopped).toBe('timeout');
    expect(await gone(pidIn('stubborn.pid'))).toBe(true);
  });

  it('on abort ends the whole group', async () => {
    const controller = new AbortController();
    const pending = run('sleep 30 & echo $! > bg.pid; echo started; sleep 30', { signal: controller.signal });
    while (!existsSync(path.join(ws, 'bg.pid'))) await new Promise((r) => setTimeout(r, 20));
    controller.abort();
    const r = await pending;
    expect(r.stopped).toBe('abort');
    expect(r.output).toBe('started\n');
    expect(await gone(pidIn('bg.pid'))).toBe(true);
  });

  it('does not start when already stopped', async () => {
    const controller = new AbortController();
    controller.abort();
    const r = await run('touch ran', { signal: controller.signal });
    expect(r.stopped).toBe('abort');
    expect(existsSync(path.join(ws, 'ran'))).toBe(false);
  });

  it('returns when the command ends, ending what it left in the background', async () => {
    const r = await run('sleep 30 & echo $! > bg.pid; echo done');
    expect(r).toMatchObject({ exitCode: 0, output: 'done\n' });
    expect(r.ms).toBeLessThan(3_000);
    expect(await gone(pidIn('bg.pid'))).toBe(true);
  });

  it('passes on the latest line while the command runs', async () => {
    const lines: string[] = [];
    await run('for i in 1 2 3; do echo "step $i"; sleep 0.5; done', { onProgress: (l) => lines.push(l) });
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((l) => /^step [123]$/.test(l))).toBe(true);
  });

  it('says when the shell cannot be started', async () => {
    const r = await run('true', { shell: '/nonexistent/bash' });
    expect(r.startError).toMatch(/ENOENT/);
  });
});
