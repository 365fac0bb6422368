import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createApp } from '../../src/app.js';
import { useToolsFromSubprocess } from '../../src/mcp-server/subprocess-tools.js';
import { BIN, runCli } from '../support/cli.js';
import { runInPty } from '../support/pty.js';
import { useTempHomes } from '../support/temp-home.js';

const home = useTempHomes();
const TIMEOUT = { timeoutMs: 30_000 };

type JsonRun = {
  session: string;
  reply: string;
  actions: Array<{
    tool: string;
    input: unknown;
    ok: boolean;
    output: string;
    permission?: Array<{ decision: string; by: string }>;
  }>;
};

/** The same message in-process and with --mcp, each in a fresh home: the turn's JSON without timings. */
async function both(message: string, flags: string[] = []) {
  const runs = [];
  for (const mcp of [false, true]) {
    const h = home();
    const r = await runCli(
      ['--offline', '--json', '--new', ...flags, ...(mcp ? ['--mcp'] : []), message],
      h.env,
      TIMEOUT,
    );
    expect(r.code, r.stderr).toBe(r.code === 0 ? 0 : 1);
    const json = JSON.parse(r.stdout) as JsonRun;
    // Timings differ, and each run has a home of its own: the rest must be the same.
    const same = {
      reply: json.reply,
      actions: json.actions.map(({ tool, input, ok, output, permission }) => ({ tool, input, ok, output, permission })),
    };
    // A command's own duration is in its output ("用时 0.0 秒"): a busy machine may make it 0.1 in one run.
    const text = JSON.stringify(same)
      .replaceAll(h.home, '<home>')
      .replace(/用时 \d+(\.\d+)? 秒/g, '用时 … 秒');
    runs.push({ home: h.home, json, code: r.code, stderr: r.stderr, same: JSON.parse(text) as typeof same });
  }
  return runs as [(typeof runs)[0], (typeof runs)[0]];
}

describe('zhixing --mcp: the built-in tools through a zhixing mcp serve child', () => {
  it('gives the same actions and reply as in-process for a sum', async () => {
    const [local, viaMcp] = await both('帮我算一下 (3+5)*2');
    expect(local.json.actions.map((a) => a.output)).toEqual(['16']);
    expect(viaMcp.same).toEqual(local.same);
    expect(viaMcp.code).toBe(0);
  });

  it('writes a file into the workspace through the child, reported as in-process', async () => {
    const [local, viaMcp] = await both('把 你好，知行 写入 notes.txt');
    expect(viaMcp.same).toEqual(local.same);
    expect(readFileSync(join(viaMcp.home, 'workspace', 'notes.txt'), 'utf8')).toBe('你好，知行');
  });

  it('keeps failures and refusals the same: a file outside the workspace, a command nobody can approve', async () => {
    const [localRead, mcpRead] = await both('读一下 /etc/passwd');
    expect(mcpRead.same).toEqual(localRead.same);
    expect(mcpRead.json.actions[0]?.ok).toBe(false);
    const [localShell, mcpShell] = await both('运行 touch made.txt');
    expect(mcpShell.same).toEqual(localShell.same);
    expect(mcpShell.json.actions[0]?.permission?.[0]).toMatchObject({ decision: 'deny', by: 'no-host' });
    expect(existsSync(join(mcpShell.home, 'workspace', 'made.txt'))).toBe(false);
    // The one-shot, not the child, said how to approve it.
    expect(mcpShell.stderr).toContain('--yes');
  });

  it('runs a command approved with --yes in the parent, recorded as approved by --yes', async () => {
    const [local, viaMcp] = await both('运行 echo hi > made.txt', ['--yes']);
    expect(viaMcp.same).toEqual(local.same);
    expect(viaMcp.json.actions[0]).toMatchObject({ ok: true, permission: [{ decision: 'allow', by: 'yes' }] });
    expect(readFileSync(join(viaMcp.home, 'workspace', 'made.txt'), 'utf8')).toBe('hi\n');
  });

  it('asks the person at the terminal, in the parent, and the child runs what they approved', async () => {
    const h = home();
    const p = runInPty(['--offline', '--mcp', 'run echo approved > yes.txt'], { ...h.env, ZHIXING_LANG: 'en' });
    try {
      await p.waitFor(/Allow shell to echo approved > yes\.txt\? \[y\]es once/);
      p.keys('y\r');
      expect(await p.closed).toBe(0);
      expect(readFileSync(join(h.home, 'workspace', 'yes.txt'), 'utf8')).toBe('approved\n');
    } finally {
      p.kill();
    }
  });
});

describe('the tools of a zhixing mcp serve child that fails', () => {
  it('says why, with what the child said, when it dies at start, and leaves the built-in tools in place', async () => {
    const h = home();
    const app = await createApp(h.config);
    try {
      const start = useToolsFromSubprocess({
        tools: app.tools,
        workspace: app.workspace,
        command: process.execPath,
        args: ['-e', 'console.error("no database here"); process.exit(3)'],
        env: { PATH: process.env.PATH ?? '' },
        version: '0',
      });
      await expect(start).rejects.toThrow(/zhixing mcp serve did not start: .*\n?[^]*no database here/);
      expect(app.tools.get('calculator')?.source).toBe('builtin');
    } finally {
      app.close();
    }
  });

  it('fails the call, and the next ones, when the child dies in the middle of it', async () => {
    const h = home();
    const app = await createApp(h.config);
    const served = await useToolsFromSubprocess({
      tools: app.tools,
      workspace: app.workspace,
      command: process.execPath,
      args: [BIN, 'mcp', 'serve', '--offline'],
      env: { PATH: process.env.PATH ?? '', ZHIXING_HOME: h.home },
      cwd: h.home,
      version: '0',
    });
    const ctx = {
      sessionId: 's',
      turnId: 't',
      callId: 'c',
      workspace: app.workspace,
      signal: new AbortController().signal,
      lang: 'en' as const,
      ask: async () => 'allow' as const,
      progress: () => {},
    };
    try {
      const call = app.tools.run(
        { id: 'c', name: 'shell', arguments: JSON.stringify({ command: 'touch begun.txt; sleep 5' }) },
        ctx,
      );
      // Killed once the child is running the command (its first file is there), not after a guessed delay.
      await vi.waitFor(() => expect(existsSync(join(h.home, 'workspace', 'begun.txt'))).toBe(true), {
        timeout: 15_000,
        interval: 20,
      });
      process.kill(served.pid!, 'SIGKILL');
      const result = await call;
      expect(result.ok).toBe(false);
      expect(result.output).toMatch(/^Error: shell failed: .*(closed|Connection)/i);
      expect(result.ms).toBeLessThan(4_000);
      // The next call says the same at once, rather than hanging.
      const next = await app.tools.run({ id: 'd', name: 'calculator', arguments: '{"expression":"1+1"}' }, ctx);
      expect(next.ok).toBe(false);
    } finally {
      await served.close();
      app.close();
    }
  });
});
