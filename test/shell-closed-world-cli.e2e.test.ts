// Break 1 of issue 19, end to end through ./bin/zhixing and the OpenAI wire format: under
// {"shell": {"git push*": "deny", "rm -rf *": "deny"}} and --yes, a launcher the analyser did not know
// (linux64, setpriv) and a push through a git alias written into .git/config run nothing; the refusal
// says only a person may approve; and ordinary commands (ls, cat, git status) run as before.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './support/cli.js';
import { startOpenAiServer, textReply, toolCallsReply, type OpenAiServer } from './support/openai-server.js';
import { bwrapWorks } from './support/shell.js';
import { tempHome } from './support/temp-home.js';

let server: OpenAiServer;
const homes: Array<ReturnType<typeof tempHome>> = [];
beforeAll(async () => {
  server = await startOpenAiServer();
});
afterAll(async () => {
  await server.close();
  homes.forEach((h) => h.cleanup());
});

const git = (cwd: string, ...args: string[]) =>
  execFileSync(
    'git',
    ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'init.defaultBranch=main', ...args],
    { cwd, stdio: 'pipe', env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: cwd } },
  );

describe.skipIf(!bwrapWorks())('closed-world shell rules through ./bin/zhixing', () => {
  it('--yes runs no unknown launcher nor a git alias under argument-level denies, and still runs ls, cat and git status', async () => {
    const h = tempHome({}, { permissions: { shell: { 'git push*': 'deny', 'rm -rf *': 'deny' } } });
    homes.push(h);
    const ws = join(h.home, 'workspace');
    mkdirSync(join(ws, 'important'), { recursive: true });
    writeFileSync(join(ws, 'important', 'keep.txt'), 'keep\n');
    writeFileSync(join(ws, 'notes.txt'), 'hello notes\n');
    // A repository with one commit, and a "remote" beside it that a push would reach.
    git(ws, 'init', '-q', '--bare', 'remote.git');
    git(ws, 'init', '-q');
    git(ws, 'remote', 'add', 'origin', join(ws, 'remote.git'));
    git(ws, 'add', 'notes.txt');
    git(ws, 'commit', '-q', '-m', 'first');
    const env = {
      ZHIXING_HOME: h.home,
      ZHIXING_BASE_URL: server.url,
      ZHIXING_API_KEY: 'sk-test-closed-0123456789',
      ZHIXING_MODEL: 'm',
      ZHIXING_LANG: 'en',
    };

    const ordinary = 'ls && cat notes.txt && git status --short; echo listed';
    const alias = "printf '[alias]\\n\\tpu = push\\n\\tst = !git push origin main\\n' >> .git/config";
    const refusedCommands = [
      'linux64 rm -rf important',
      'setpriv rm -rf important',
      'git pu origin main',
      'git st',
      'git status',
    ];
    server.enqueue(
      toolCallsReply([{ id: 'ok', name: 'shell', args: { command: ordinary } }]),
      toolCallsReply([
        { id: 'l64', name: 'shell', args: { command: refusedCommands[0]! } },
        { id: 'setpriv', name: 'shell', args: { command: refusedCommands[1]! } },
      ]),
      // The alias is written by a command the rules leave to --yes; running it is another matter.
      toolCallsReply([{ id: 'alias', name: 'shell', args: { command: alias } }]),
      toolCallsReply(
        refusedCommands.slice(2).map((command, i) => ({ id: `git${i}`, name: 'shell', args: { command } })),
      ),
      textReply('Tried.'),
    );
    const r = await runCli(['--json', '--yes', '--new', 'clean up and publish'], env, { timeoutMs: 120_000 });
    expect(r.code, r.stderr).toBe(0);
    const { actions } = JSON.parse(r.stdout) as {
      actions: Array<{
        input: { command: string };
        ok: boolean;
        output: string;
        permission: Array<Record<string, unknown>>;
      }>;
    };
    const by = (command: string) => actions.find((a) => a.input.command === command)!;

    // linux64 is read through: the rm it runs is the denied one.
    expect(by(refusedCommands[0]!)).toMatchObject({
      ok: false,
      permission: [expect.objectContaining({ decision: 'deny', by: 'rule', rule: 'shell › rm -rf *' })],
    });
    // setpriv, an alias, a `!` alias, and now git status too (its settings run a program): only a person may approve.
    for (const command of refusedCommands.slice(1)) {
      const action = by(command);
      expect(action.ok, command).toBe(false);
      expect(action.permission, command).toEqual([
        expect.objectContaining({
          decision: 'deny',
          by: 'yes',
          reason: expect.stringMatching(/^only a person may approve this/),
        }),
      ]);
      expect(action.output, command).toMatch(/needs the user's own approval .*--yes does not give it/);
    }
    expect(existsSync(join(ws, 'important', 'keep.txt'))).toBe(true);
    expect(readdirSync(join(ws, 'remote.git', 'refs', 'heads'))).toEqual([]);

    expect(by(alias)).toMatchObject({ ok: true });
    // Before the alias was written, the same everyday commands ran as they always did (--yes answering the default ask).
    const listed = by(ordinary);
    expect(listed).toMatchObject({ ok: true, permission: [expect.objectContaining({ decision: 'allow', by: 'yes' })] });
    expect(listed.output).toMatch(/important[\s\S]*hello notes\n[\s\S]*listed\n$/);
  });
});
