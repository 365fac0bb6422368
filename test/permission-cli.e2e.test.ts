import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, runCli } from './support/cli.js';
import { startOpenAiServer, textReply, toolCallsReply } from './support/openai-server.js';
import { tempHome } from './support/temp-home.js';

const WAIT_STEP_MS = 20;
const WAIT_MAX_MS = 15_000;

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

/** A home whose config.json makes file_write ask first, and a model that asks to write notes/a.txt. */
async function setup(reply: string) {
  const home = tempHome();
  cleanups.push(home.cleanup);
  writeFileSync(join(home.home, 'config.json'), JSON.stringify({ permissions: { file_write: 'ask' } }), {
    mode: 0o600,
  });
  const server = await startOpenAiServer();
  cleanups.push(() => server.close());
  server.enqueue(
    toolCallsReply([{ id: 'call_1', name: 'file_write', args: { path: 'notes/a.txt', content: 'hello' } }]),
    textReply(reply),
  );
  const env = {
    ZHIXING_HOME: home.home,
    ZHIXING_LANG: 'en',
    ZHIXING_BASE_URL: server.url,
    ZHIXING_API_KEY: 'k-test',
    ZHIXING_MODEL: 'test-model',
  };
  return { env, server, file: join(home.home, 'workspace', 'notes', 'a.txt') };
}

/** What a terminal shows, without the cursor movements readline writes. */
const screen = (raw: string) => raw.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r/g, '');

/**
 * Runs ./bin/zhixing under a real pseudo-terminal (util-linux `script`): the program sees a TTY on
 * stdin and stdout, and what the test writes arrives as typed keys.
 */
function inPty(args: string[], env: Record<string, string>) {
  const command = ['stty cols 200 rows 50;', 'exec', process.execPath, BIN, ...args]
    .map((a, i) => (i < 2 ? a : `'${a}'`))
    .join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    cwd: env.ZHIXING_HOME,
    env: { PATH: process.env.PATH ?? '', SHELL: '/bin/sh', TERM: 'dumb', NO_COLOR: '1', ...env },
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (output += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (output += d));
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
  cleanups.push(() => child.kill());
  return {
    screen: () => screen(output),
    type: (line: string) => void child.stdin.write(`${line}\r`),
    press: (keys: string) => void child.stdin.write(keys),
    /** Waits until the screen after `from` shows `pattern`; returns where the match ends. */
    async waitFor(pattern: RegExp, from = 0) {
      for (let waited = 0; waited < WAIT_MAX_MS; waited += WAIT_STEP_MS) {
        const match = pattern.exec(screen(output).slice(from));
        if (match) return from + match.index + match[0].length;
        await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
      }
      throw new Error(`The terminal never showed ${pattern}. It shows:\n${screen(output)}`);
    },
    closed,
  };
}

const PROMPT = /知行 › $/;
const QUESTION = 'Allow file_write to notes/a.txt? [y]es once / [a]lways / [n]o';

describe('a permission ask in the REPL, on a real terminal', () => {
  it('shows the question while the turn runs; "y" approves the write once', async () => {
    const { env, server, file } = await setup('Written to notes/a.txt.');
    const pty = inPty([], env);
    await pty.waitFor(PROMPT);
    pty.type('write hello to notes/a.txt');
    await pty.waitFor(/\[n\]o $/);
    pty.type('y');
    const after = await pty.waitFor(/Written to notes\/a\.txt\.\n/);
    await pty.waitFor(PROMPT, after);
    pty.type('/exit');
    expect(await pty.closed).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe('hello');
    const shown = pty.screen();
    expect(shown).toContain(`${QUESTION} y\n`);
    expect(shown).toMatch(/🔧 file_write \{"path":"notes\/a.txt","content":"hello"\} ✓ /);
    expect(server.pending()).toBe(0);
  });

  it('"n" refuses it: nothing is written, and the model reads that the user declined', async () => {
    const { env, server, file } = await setup('You declined, so I did not write it.');
    const pty = inPty([], env);
    await pty.waitFor(PROMPT);
    pty.type('write hello to notes/a.txt');
    await pty.waitFor(/\[n\]o $/);
    // Not an answer: asked again.
    pty.type('maybe');
    await pty.waitFor(/maybe\n.*\[n\]o $/);
    pty.type('n');
    const after = await pty.waitFor(/You declined, so I did not write it\.\n/);
    await pty.waitFor(PROMPT, after);
    pty.type('/exit');
    expect(await pty.closed).toBe(0);
    expect(existsSync(file)).toBe(false);
    expect(pty.screen()).toContain(
      '🔧 file_write {"path":"notes/a.txt","content":"hello"} ✗ The user declined writing to notes/a.txt; nothing was changed.',
    );
    const toolMessage = server.requests.at(-1)!.body.messages.at(-1);
    expect(toolMessage).toEqual({
      role: 'tool',
      tool_call_id: 'call_1',
      content: 'Error: The user declined writing to notes/a.txt; nothing was changed.',
    });
  });
  it('Ctrl-C while the question is on screen stops the turn and withdraws it', async () => {
    const { env, server, file } = await setup('never sent');
    const pty = inPty([], env);
    await pty.waitFor(PROMPT);
    pty.type('write hello to notes/a.txt');
    const asked = await pty.waitFor(/\[n\]o $/);
    pty.press('\x03');
    await pty.waitFor(PROMPT, asked);
    pty.type('/exit');
    expect(await pty.closed).toBe(0);
    expect(existsSync(file)).toBe(false);
    expect(pty.screen().slice(asked)).toMatch(
      /^\n🔧 file_write .* ✗ It was told to stop\. The turn was stopped while waiting for the user's approval; .*\nStopped as you asked\.\n/,
    );
    // The model was not asked again after the stop.
    expect(server.pending()).toBe(1);
  });

  it('piped, with no line left to answer, refuses the ask and says so', async () => {
    const { env, file } = await setup('Nothing was written.');
    const r = await runCli(['chat'], env, { input: 'write hello to notes/a.txt\n' });
    expect(r.code).toBe(0);
    expect(existsSync(file)).toBe(false);
    expect(r.stdout).toContain(`${QUESTION}\n(Input has ended, so nobody can answer: refused.)\n`);
    expect(r.stdout).toContain(
      "✗ Writing to notes/a.txt needs the user's approval, and nobody was there to answer (no terminal); noth",
    );
  });
});

describe('a permission ask in a one-shot call', () => {
  it('without a terminal and without --yes is refused, with a line on stderr saying how to approve it', async () => {
    const { env, file } = await setup('I could not write it: it needs your approval.');
    const r = await runCli(['--show-actions', 'write hello to notes/a.txt'], env);
    expect(r.code).toBe(0);
    expect(existsSync(file)).toBe(false);
    expect(r.stderr).toBe(
      'file_write on notes/a.txt needs your approval, so it was refused. Re-run with --yes to approve it.\n',
    );
    expect(r.stdout).toContain(
      "✗ Writing to notes/a.txt needs the user's approval, and nobody was there to answer (no terminal); noth",
    );
  });

  it('with --yes is approved once and the file is written', async () => {
    const { env, file } = await setup('Written.');
    const r = await runCli(['--yes', '--json', 'write hello to notes/a.txt'], env);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toMatchObject({ reply: 'Written.', actions: [{ tool: 'file_write', ok: true }] });
    expect(readFileSync(file, 'utf8')).toBe('hello');
  });

  it('on a terminal asks on stderr and reads the answer from stdin', async () => {
    const { env, file } = await setup('Written.');
    const pty = inPty(['write hello to notes/a.txt'], env);
    await pty.waitFor(/\[n\]o $/);
    pty.type('a');
    expect(await pty.closed).toBe(0);
    expect(pty.screen()).toContain(`${QUESTION} a\n`);
    expect(readFileSync(file, 'utf8')).toBe('hello');
  });
});

describe('decisions on the trace, and /permissions, in the REPL', () => {
  it('"a" allows the write and remembers it: the trace says so, and the same write later runs without asking', async () => {
    const { env, server, file } = await setup('Written.');
    server.enqueue(
      toolCallsReply([{ id: 'call_2', name: 'file_write', args: { path: 'notes/a.txt', content: 'again' } }]),
      textReply('Written again.'),
    );
    const pty = inPty([], env);
    await pty.waitFor(PROMPT);
    pty.type('write hello to notes/a.txt');
    await pty.waitFor(/\[n\]o $/);
    pty.type('a');
    let at = await pty.waitFor(/Written\.\n/);
    at = await pty.waitFor(PROMPT, at);
    pty.type('write again to notes/a.txt');
    at = await pty.waitFor(/Written again\.\n/, at);
    await pty.waitFor(PROMPT, at);
    pty.type('/exit');
    expect(await pty.closed).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe('again');
    const shown = pty.screen();
    expect(shown.split(QUESTION)).toHaveLength(2);
    expect(shown).toMatch(/🔧 file_write \{"path":"notes\/a.txt","content":"hello"\} ✓ .* · you allowed it\n/);
    expect(shown).toMatch(
      /🔧 file_write \{"path":"notes\/a.txt","content":"again"\} ✓ .* · allowed earlier \("always"\) · overwrote an existing file\n/,
    );
  });

  it('"n" shows as declined on the trace', async () => {
    const { env } = await setup('Not written.');
    const pty = inPty([], env);
    await pty.waitFor(PROMPT);
    pty.type('write hello to notes/a.txt');
    await pty.waitFor(/\[n\]o $/);
    pty.type('n');
    const at = await pty.waitFor(/Not written\.\n/);
    await pty.waitFor(PROMPT, at);
    pty.type('/exit');
    expect(await pty.closed).toBe(0);
    expect(pty.screen()).toMatch(
      /🔧 file_write .* ✗ The user declined writing to notes\/a\.txt; nothing was changed\. .* · you declined\n/,
    );
  });

  it('/permissions lists the rules, sets one with a pattern, saved to config.json, and refuses a bad one', async () => {
    const { env } = await setup('unused');
    const pty = inPty([], env);
    let at = await pty.waitFor(PROMPT);
    pty.type('/permissions');
    at = await pty.waitFor(/Remembered answers[^\n]*\n {2}\(none\)\n/, at);
    at = await pty.waitFor(PROMPT, at);
    pty.type('/permissions deny shell curl *');
    at = await pty.waitFor(/Set: shell › curl \* → deny \(saved to config\.json\)\.\n/, at);
    at = await pty.waitFor(PROMPT, at);
    pty.type('/permissions allow shell ');
    at = await pty.waitFor(/Set: shell → allow/, at);
    at = await pty.waitFor(PROMPT, at);
    pty.type('/permissions remove nothing_here');
    at = await pty.waitFor(/You have no rule nothing_here\.\n/, at);
    await pty.waitFor(PROMPT, at);
    pty.type('/exit');
    expect(await pty.closed).toBe(0);
    const shown = pty.screen();
    expect(shown).toContain('Permission rules (* yours; the rest are defaults):\n');
    expect(shown).toMatch(/\n {2}file_write +ask +\*\n/);
    expect(shown).toMatch(/\n {2}shell +ask +\(default\)\n/);
    // "allow shell" over a tool with patterns sets its "*": the deny beside it stays.
    expect(JSON.parse(readFileSync(join(env.ZHIXING_HOME, 'config.json'), 'utf8'))).toEqual({
      permissions: { file_write: 'ask', shell: { 'curl *': 'deny', '*': 'allow' } },
    });
  });
});

describe('an ask nobody can answer', () => {
  it('a one-shot --json call without a terminal records the refusal as no-host', async () => {
    const { env, file } = await setup('It needs your approval.');
    const r = await runCli(['--json', 'write hello to notes/a.txt'], env);
    expect(r.code).toBe(0);
    expect(existsSync(file)).toBe(false);
    const action = JSON.parse(r.stdout).actions[0];
    expect(action).toMatchObject({ tool: 'file_write', ok: false });
    expect(action.permission).toEqual([
      expect.objectContaining({ action: 'file.write', decision: 'deny', by: 'no-host' }),
    ]);
  });

  it('--show-actions says nobody was there to ask', async () => {
    const { env } = await setup('It needs your approval.');
    const r = await runCli(['--show-actions', 'write hello to notes/a.txt'], env);
    expect(r.stdout).toMatch(/🔧 file_write .* ✗ .* · nobody to ask, refused \(--yes approves\)\n/);
  });
});

describe('rules and --yes across runs', () => {
  it('--yes approves an ask but never a deny', async () => {
    const home = tempHome();
    cleanups.push(home.cleanup);
    writeFileSync(
      join(home.home, 'config.json'),
      JSON.stringify({ permissions: { file_write: { 'secret/*': 'deny', '*': 'ask' } } }),
      { mode: 0o600 },
    );
    const server = await startOpenAiServer();
    cleanups.push(() => server.close());
    server.enqueue(
      toolCallsReply([
        { id: 'call_1', name: 'file_write', args: { path: 'secret/a.txt', content: 'no' } },
        { id: 'call_2', name: 'file_write', args: { path: 'notes/b.txt', content: 'yes' } },
      ]),
      textReply('Wrote one of them.'),
    );
    const env = {
      ZHIXING_HOME: home.home,
      ZHIXING_LANG: 'en',
      ZHIXING_BASE_URL: server.url,
      ZHIXING_API_KEY: 'k-test',
      ZHIXING_MODEL: 'test-model',
    };
    const r = await runCli(['--yes', '--json', 'write both'], env);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.actions.map((a: { ok: boolean }) => a.ok)).toEqual([false, true]);
    expect(out.actions[0].output).toBe(
      'Error: Writing to secret/a.txt was refused by the permission settings; nothing was changed.',
    );
    expect(existsSync(join(home.home, 'workspace', 'secret', 'a.txt'))).toBe(false);
    expect(readFileSync(join(home.home, 'workspace', 'notes', 'b.txt'), 'utf8')).toBe('yes');
  });

  it('"always" is kept: a new process with the same home writes the same file without asking', async () => {
    const { env, server, file } = await setup('Written.');
    const pty = inPty(['write hello to notes/a.txt'], env);
    await pty.waitFor(/\[n\]o $/);
    pty.type('a');
    expect(await pty.closed).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe('hello');
    server.enqueue(
      toolCallsReply([{ id: 'call_2', name: 'file_write', args: { path: 'notes/a.txt', content: 'again' } }]),
      textReply('Written again.'),
    );
    // No terminal and no --yes: an ask would be refused, so this only writes if the answer was kept.
    const r = await runCli(['--json', 'write again'], env);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout).actions).toMatchObject([{ tool: 'file_write', ok: true }]);
    expect(readFileSync(file, 'utf8')).toBe('again');
  });
});
