import type { PermissionRefusal, PermissionRequest } from '../contract/permission.js';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { shellCtx, shellFixture, shellRunner, type ShellFixture } from '../../test/support/shell.js';
import type { AnalyzeOptions, CommandAnalysis } from '../shell/analyze.js';
import type { SandboxInfo } from '../shell/sandbox.js';
import { createShellTool } from './shell.js';

let fx: ShellFixture;
let asked: PermissionRequest[];
beforeEach(() => {
  fx = shellFixture();
  asked = [];
});
afterEach(() => fx.cleanup());

const NONE: SandboxInfo = { kind: 'none', ok: false, reason: 'bubblewrap (bwrap) is not installed' };

/** An analyser that says what the test needs it to, and remembers what it was given. */
function fakeAnalyze(answer: CommandAnalysis) {
  const seen: Array<{ command: string; options: AnalyzeOptions }> = [];
  const analyze = async (command: string, options: AnalyzeOptions) => (seen.push({ command, options }), answer);
  return { analyze, seen };
}

describe('the shell tool', () => {
  it('refuses a catastrophe before anyone is asked and before anything runs', async () => {
    const { analyze, seen } = fakeAnalyze({
      ok: true,
      parts: [{ text: 'rm -rf /' }],
      catastrophe: 'it would delete the whole file system',
    });
    const run = shellRunner(fx, { analyze, sandbox: async () => NONE });
    const r = await run({ command: 'touch ran.txt' }, shellCtx(fx.workspace, asked));
    expect(r).toMatchObject({
      ok: false,
      output:
        'Error: Refused to run touch ran.txt: it would delete the whole file system. Commands like this never run, whatever the settings. Nothing was run.',
    });
    expect(asked).toEqual([]);
    expect(existsSync(path.join(fx.workspace, 'ran.txt'))).toBe(false);
    // The analyser was told where the command runs, the PATH it sees, and the files no command may write.
    expect(seen[0]!.options).toMatchObject({ cwd: fx.workspace, path: expect.stringContaining('/usr/bin') });
    expect(seen[0]!.options.protectedPaths).toEqual(
      expect.arrayContaining([
        path.join(fx.home, 'config.json'),
        path.join(fx.home, '.env'),
        fx.dbPath,
        `${fx.dbPath}-wal`,
        `${fx.dbPath}-shm`,
        fx.home,
      ]),
    );
  });

  it('asks with every part the analyser found, and with a must-ask reason when there is no sandbox', async () => {
    const parts = [{ text: 'echo hi' }, { text: 'tee out.txt' }];
    const run = shellRunner(fx, { analyze: fakeAnalyze({ ok: true, parts }).analyze, sandbox: async () => NONE });
    const r = await run({ command: 'echo hi | tee out.txt' }, shellCtx(fx.workspace, asked));
    expect(asked).toEqual([
      {
        action: 'shell.run',
        target: 'echo hi | tee out.txt',
        insideSandbox: true,
        parts,
        mustAsk: 'no sandbox: bubblewrap (bwrap) is not installed; the command would run uncontained',
        // The fixture's commands may use the network: once outside text is in the turn, that asks.
        sendsTo: { kind: 'anywhere', what: 'a shell command' },
      },
    ]);
    expect(r).toMatchObject({
      ok: true,
      title: 'echo hi | tee out.txt',
      metadata: { exitCode: 0, cut: false, sandbox: 'none' },
    });
    expect(r.output).toMatch(/^Exit code 0 \(\d+\.\d s\) \(ran without a sandbox\)\nhi\n$/);
  });

  it('sends a line it could not read as one opaque part for a person only, and asks no must-ask with a working sandbox', async () => {
    const ok: SandboxInfo = { kind: 'bwrap', ok: true, program: '/usr/bin/bwrap' };
    const analyze = fakeAnalyze({ ok: false, reason: 'unbalanced quote' }).analyze;
    const tool = shellRunner(fx, { analyze, sandbox: async () => ok });
    await tool(
      { command: 'echo "unclosed' },
      shellCtx(fx.workspace, asked, () => 'deny'),
    );
    expect(asked).toEqual([
      {
        action: 'shell.run',
        target: 'echo "unclosed',
        insideSandbox: true,
        parts: [{ text: 'echo "unclosed', opaque: 'unbalanced quote', wholeLine: true }],
        personOnly: true,
        sendsTo: { kind: 'anywhere', what: 'a shell command' },
      },
    ]);
  });

  it("has git's settings checked where the command's git reads them: the workspace standing in for the home, never the user's own home under bubblewrap", async () => {
    const bwrap: SandboxInfo = { kind: 'bwrap', ok: true, program: '/usr/bin/bwrap' };
    const sandboxed = fakeAnalyze({ ok: true, parts: [{ text: 'git status' }] });
    await shellRunner(fx, { analyze: sandboxed.analyze, sandbox: async () => bwrap })(
      { command: 'git status' },
      shellCtx(fx.workspace, asked, () => 'deny'),
    );
    expect(sandboxed.seen[0]!.options.home).toBeUndefined();
    const bare = fakeAnalyze({ ok: true, parts: [{ text: 'git status' }] });
    await shellRunner(fx, { analyze: bare.analyze, sandbox: async () => NONE })(
      { command: 'git status' },
      shellCtx(fx.workspace, asked, () => 'deny'),
    );
    expect(bare.seen[0]!.options.home).toBe(fx.workspace);
  });

  it('takes a line the analyser failed on as one it could not read', async () => {
    const analyze = async () => {
      throw new Error('grammar not loaded');
    };
    await shellRunner(fx, { analyze, sandbox: async () => NONE })(
      { command: 'ls' },
      shellCtx(fx.workspace, asked, () => 'deny'),
    );
    expect(asked[0]!.parts).toEqual([
      { text: 'ls', opaque: 'the command line could not be read (grammar not loaded)', wholeLine: true },
    ]);
  });

  it('says who refused: a rule, the user, or a stop while asking; and runs nothing', async () => {
    const run = shellRunner(fx, { sandbox: async () => NONE });
    const refused = async (refusal?: PermissionRefusal) => {
      const ctx = { ...shellCtx(fx.workspace, asked, () => 'deny'), refusal: () => refusal };
      return (await run({ command: 'touch ran.txt' }, ctx)).output;
    };
    expect(await refused()).toBe(
      'Error: Running touch ran.txt was refused by the permission settings; nothing was run.',
    );
    expect(await refused('declined')).toBe('Error: The user declined to run touch ran.txt; nothing was run.');
    expect(await refused('cancelled')).toBe(
      "Error: The turn was stopped while waiting for the user's approval; touch ran.txt did not run.",
    );
    expect(await refused('unanswered')).toBe(
      "Error: Running touch ran.txt needs the user's approval, and nobody was there to answer (no terminal); nothing was run.",
    );
    // A line it read: the reason is whoever made it person-only's (the turn's trust record adds its own), not a guess.
    expect(await refused('needs-person')).toBe(
      "Error: Running touch ran.txt needs the user's own approval; --yes does not give it, so nothing was run.",
    );
    const unread = shellRunner(fx, {
      analyze: async () => {
        throw new Error('grammar not loaded');
      },
      sandbox: async () => NONE,
    });
    const ctx = { ...shellCtx(fx.workspace, asked, () => 'deny'), refusal: () => 'needs-person' as const };
    expect((await unread({ command: 'touch ran.txt' }, ctx)).output).toMatch(
      /^Error: Running touch ran\.txt needs the user's own approval \(what it runs cannot be read beforehand.*--yes does not give it/,
    );
    expect(existsSync(path.join(fx.workspace, 'ran.txt'))).toBe(false);
  });

  it("reports a non-zero exit as a result, plainly, in the user's language", async () => {
    const run = shellRunner(fx, { sandbox: async () => NONE });
    const r = await run({ command: 'echo oops >&2; exit 4' });
    expect(r.ok).toBe(true);
    expect(r.output).toMatch(/^Exit code 4: the command failed \(\d+\.\d s\) \(ran without a sandbox\)\noops\n$/);
    const zh = await run({ command: 'true' }, { ...shellCtx(fx.workspace), lang: 'zh' });
    expect(zh.output).toMatch(/^退出码 0，用时 \d+\.\d 秒（未在沙箱中运行）\n（没有输出）$/);
  });

  it('ends a command past its timeout_ms and says so, with what it printed', async () => {
    const run = shellRunner(fx, { sandbox: async () => NONE });
    const r = await run({ command: 'echo begun; sleep 20', timeout_ms: 500 });
    expect(r).toMatchObject({ ok: false });
    expect(r.output).toBe(
      'Error: The command timed out after 0.5 s; it and every process it started, background ones included, were ended. ' +
        'If it needs longer, give it more with timeout_ms (at most 600 s).\nOutput so far:\nbegun\n',
    );
  });

  it('does not pass binary output on', async () => {
    const run = shellRunner(fx, { sandbox: async () => NONE });
    const r = await run({ command: "printf 'a\\0b'" });
    expect(r.output).toMatch(/^Exit code 0 .*\n\(binary output, 3 bytes, not shown; redirect it to a file\)$/);
  });

  it("cuts long output in the middle with a note, under the registry's own cut", async () => {
    const run = shellRunner(fx, { sandbox: async () => NONE });
    const r = await run({ command: 'seq 1 100000' });
    expect(r.output).toMatch(/\n\[… [\d,]+ bytes of output cut from the middle …\]\n/);
    expect(r.output).not.toContain('more characters cut');
    expect(r.output.endsWith('99999\n100000\n')).toBe(true);
    expect(r.metadata).toMatchObject({ cut: true });
  });

  it('refuses an empty command and tells the model about the sandbox and the network', async () => {
    const run = shellRunner(fx, { sandbox: async () => NONE });
    expect((await run({ command: '   ' })).output).toMatch(
      /^Error: invalid arguments for shell: command: the command is empty/,
    );
    const tool = createShellTool({
      home: fx.home,
      dbPath: fx.dbPath,
      network: false,
      env: {},
      sandbox: async () => NONE,
      platform: 'linux',
    });
    expect(tool.description).toContain('bubblewrap sandbox');
    expect(tool.description).toContain('There is no network access.');
    expect(tool.spec.parameters).toMatchObject({ required: ['command'] });
  });
});
