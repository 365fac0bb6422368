import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runCli } from './support/cli.js';
import { startOpenAiServer, textReply, toolCallsReply, type OpenAiServer } from './support/openai-server.js';
import { runInPty } from './support/pty.js';
import { bwrapWorks } from './support/shell.js';
import { tempHome } from './support/temp-home.js';

const HAVE_BWRAP = bwrapWorks();
let server: OpenAiServer;
const homes: Array<ReturnType<typeof tempHome>> = [];
beforeAll(async () => {
  server = await startOpenAiServer();
});
afterAll(async () => {
  await server.close();
  homes.forEach((h) => h.cleanup());
});

function home(config?: object) {
  const h = tempHome({}, config);
  homes.push(h);
  return h;
}

describe('the shell through ./bin/zhixing', () => {
  it('runs the command a model asks for in the workspace, contained, and sends its output back', async () => {
    const h = home({ permissions: { shell: 'allow' } });
    const env = {
      ZHIXING_HOME: h.home,
      ZHIXING_BASE_URL: server.url,
      ZHIXING_API_KEY: 'sk-test-shell-0123456789',
      ZHIXING_MODEL: 'm',
      ZHIXING_LANG: 'en',
    };
    server.enqueue(
      toolCallsReply([{ id: 'call_sh', name: 'shell', args: { command: 'echo hi > made.txt && cat made.txt' } }]),
      textReply('The file says hi.'),
    );
    const before = server.requests.length;
    const r = await runCli(['--json', '--new', 'make a file that says hi'], env, { timeoutMs: 30_000 });
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({
      reply: 'The file says hi.',
      actions: [{ tool: 'shell', input: { command: 'echo hi > made.txt && cat made.txt' }, ok: true }],
    });
    expect(out.actions[0].output).toMatch(/^Exit code 0 \(\d+\.\d s\)\nhi\n$/);
    expect(readFileSync(join(h.home, 'workspace', 'made.txt'), 'utf8')).toBe('hi\n');
    // The model read the command's output.
    const second = server.requests.slice(before).filter((q) => q.body?.stream === true)[1]!;
    const toolMessage = second.body.messages.find((m: { role: string }) => m.role === 'tool');
    expect(toolMessage.content).toContain('\nhi\n');
    if (HAVE_BWRAP) expect(toolMessage.content).not.toContain('without a sandbox');
  });

  it('`zhixing config` says when no sandbox works and how to fix it, and says nothing when one does', async () => {
    const h = home();
    const bare = await runCli(['config'], { ZHIXING_HOME: h.home, ZHIXING_LANG: 'en', PATH: '/nonexistent' });
    expect(bare.code).toBe(0);
    expect(bare.stdout).toMatch(
      /\nsandbox +no sandbox \(bubblewrap \(bwrap\) is not installed\): shell commands would run uncontained, so each one asks you first\. To fix it, install bubblewrap: apt-get install bubblewrap \(or dnf install bubblewrap\)\.\n$/,
    );
    expect(bare.stdout).toMatch(/\nZHIXING_SHELL_NETWORK +0 +default\n/);
    const json = JSON.parse(
      (await runCli(['config', '--json'], { ZHIXING_HOME: h.home, PATH: '/nonexistent' })).stdout,
    );
    // Without a sandbox a command runs on the machine itself: its network is the host's, and said so.
    expect(json.sandbox).toEqual({
      kind: 'none',
      ok: false,
      reason: 'bubblewrap (bwrap) is not installed',
      network: 'host',
    });
    if (!HAVE_BWRAP) return;
    const contained = await runCli(['config'], { ZHIXING_HOME: h.home, ZHIXING_LANG: 'en' });
    expect(contained.stdout).not.toContain('sandbox');
    expect(contained.stdout).toMatch(/\nshell network +off\n/);
    expect(JSON.parse((await runCli(['config', '--json'], { ZHIXING_HOME: h.home })).stdout).sandbox).toEqual({
      kind: 'bwrap',
      ok: true,
      network: 'off',
    });
    const networked = await runCli(['config'], {
      ZHIXING_HOME: h.home,
      ZHIXING_LANG: 'en',
      ZHIXING_SHELL_NETWORK: '1',
    });
    expect(networked.stdout).toMatch(/\nshell network +user-mode \(pasta\), no local addresses\n/);
  });

  it('the REPL says once, at the start, that there is no sandbox', async () => {
    // A PATH with python (the terminal relay) on it and no bwrap.
    const bin = mkdtempSync(join(tmpdir(), 'zhixing-path-'));
    symlinkSync(
      execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim(),
      join(bin, 'python3'),
    );
    const h = home();
    const run = runInPty([], { ZHIXING_HOME: h.home, ZHIXING_LANG: 'en', PATH: bin });
    try {
      await run.waitFor(/知行 ›$/);
      const shown = run.screen.transcript();
      expect(
        shown.match(/no sandbox \(bubblewrap \(bwrap\) is not installed\): shell commands would run uncontained/g),
      ).toHaveLength(1);
      expect(shown).toContain('apt-get install bubblewrap');
    } finally {
      run.kill();
      rmSync(bin, { recursive: true, force: true });
    }
  });

  it('`zhixing serve` says it on stderr once it serves', async () => {
    const h = home();
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0'], {
      cwd: h.home,
      env: { ZHIXING_HOME: h.home, ZHIXING_LANG: 'en', PATH: '/nonexistent' },
    });
    let err = '';
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (out += d));
    try {
      await new Promise<void>((resolve, reject) => {
        child.stderr
          .setEncoding('utf8')
          .on('data', (d) => (err += d) && /apt-get install bubblewrap/.test(err) && resolve());
        child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)));
      });
      expect(out).toMatch(/^Zhixing is serving on http:\/\/127\.0\.0\.1:\d+/);
      expect(err).toMatch(
        /^zhixing: no sandbox \(bubblewrap \(bwrap\) is not installed\): shell commands would run uncontained, so each one asks you first\./,
      );
    } finally {
      child.kill('SIGKILL');
    }
  });
});
