import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './support/cli.js';
import { startOpenAiServer, textReply, toolCallsReply, type OpenAiServer } from './support/openai-server.js';
import { runInPty, type PtyRun } from './support/pty.js';
import { useTempHomes } from './support/temp-home.js';

const REPLY =
  '## Result\n\n**16** is the answer.\n\n| 城市 | n |\n|---|--:|\n| 北京 | 16 |\n\n```js\nconst x = (3 + 5) * 2;\n```\n';
const SPINNER = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/;
/** Anything but our own colour codes: a cursor move or erase left in a file, a stray control character. */
const NOT_PLAIN = /\x1b|[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

let server: OpenAiServer;
const newHome = useTempHomes();
const ptys: PtyRun[] = [];
const WAIT_STEP_MS = 20;
const WAIT_MAX_MS = 15_000;

/** Waits until the bytes written to the terminal after `from` match (the spinner's words are erased from the screen soon after). */
async function waitForRaw(p: PtyRun, pattern: RegExp, from = 0): Promise<number> {
  for (let waited = 0; waited < WAIT_MAX_MS; waited += WAIT_STEP_MS) {
    const match = pattern.exec(p.raw().slice(from));
    if (match) return from + match.index + match[0].length;
    await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
  }
  throw new Error(`The terminal never showed ${pattern}. It shows:\n${p.screen.transcript()}`);
}
const screenOf = (p: PtyRun) => p.screen.transcript();
beforeAll(async () => {
  server = await startOpenAiServer();
});
afterAll(() => server.close());
afterEach(() => {
  ptys.splice(0).forEach((p) => p.kill());
});

function envFor(extra: Record<string, string> = {}) {
  const { home } = newHome();
  // NO_COLOR empty counts as unset: colour allowed, as in a user's terminal.
  return {
    ZHIXING_HOME: home,
    ZHIXING_BASE_URL: server.url,
    ZHIXING_API_KEY: 'sk-test',
    ZHIXING_MODEL: 'test-model',
    LANG: 'en_US.UTF-8',
    NO_COLOR: '',
    ...extra,
  };
}
function pty(args: string[], env: Record<string, string>, options?: { stderrApart?: boolean }) {
  const p = runInPty(args, env, { cols: 80, rows: 40, ...options });
  ptys.push(p);
  return p;
}
const slowly = <T extends object>(reply: T, ms: number) => ({ ...reply, headersAfterMs: ms });

describe('a one-shot on a terminal', () => {
  it('spins while the model thinks, leaves a line per tool call, renders the Markdown reply, and leaves no spinner behind', async () => {
    server.enqueue(
      slowly(toolCallsReply([{ id: 'c1', name: 'calculator', args: { expression: '(3+5)*2' } }]), 1_300),
      slowly(textReply(REPLY), 300),
    );
    const p = pty(['--new', 'what is (3+5)*2'], envFor());
    // The seconds count up while the model keeps us waiting.
    await waitForRaw(p, /Thinking… 1 s/);
    expect(await p.closed).toBe(0);
    expect(p.raw()).toMatch(SPINNER);
    // The reply's Markdown is styled: bold, a heading, highlighted code, a drawn table.
    expect(p.raw()).toContain('\x1b[1m16\x1b[0m');
    expect(p.raw()).toContain('\x1b[35mconst\x1b[0m');
    const screen = screenOf(p);
    expect(screen).toMatch(/^✓ calculator \(3\+5\)\*2 \(\S+ ms\)\nResult\n\n16 is the answer\.\n\n┌/);
    expect(screen).toContain('│ 北京 │ 16 │');
    expect(screen).toContain('```js\nconst x = (3 + 5) * 2;\n```');
    expect(screen).not.toMatch(SPINNER);
    expect(screen).not.toContain('Thinking');
  });

  it('speaks the language of the message, whatever the locale', async () => {
    server.enqueue(
      slowly(toolCallsReply([{ id: 'c1', name: 'calculator', args: { expression: '1+1' } }]), 1_200),
      textReply('等于 **2**。'),
    );
    const p = pty(['--new', '算一下 1+1'], envFor());
    await waitForRaw(p, /思考中… 1 秒/);
    expect(await p.closed).toBe(0);
    expect(screenOf(p)).toMatch(/^✓ calculator 1\+1 （\S+ 毫秒）\n等于 2。$/);
  });

  it('folds the "still waiting" notice into the spinner instead of printing lines', async () => {
    server.enqueue(slowly(textReply('Finally.'), 6_500));
    const p = pty(['--new', 'hello'], envFor());
    await waitForRaw(p, /Waiting for the model service \(5 s\)…/);
    expect(await p.closed).toBe(0);
    expect(screenOf(p)).toBe('Finally.');
  }, 20_000);

  it('writes a retry notice above the spinner, and keeps it', async () => {
    // A session with its title already: no title request can take the scripted failure.
    const env = envFor({ ZHIXING_MAX_RETRIES: '2' });
    server.enqueue(textReply('First.'));
    expect((await runCli(['--new', 'first'], env)).code).toBe(0);
    server.enqueue({ status: 503 }, slowly(textReply('Back.'), 300));
    const p = pty(['hello'], env);
    expect(await p.closed).toBe(0);
    expect(screenOf(p)).toMatch(/^The model service is unavailable for now \(503\); retrying.*\(1\/2\)…\nBack\.$/);
  });

  it('erases the spinner when Ctrl-C stops the wait', async () => {
    server.enqueue({ hang: true });
    const p = pty(['--new', 'hello'], envFor());
    await waitForRaw(p, /Thinking…/);
    p.keys('\x03');
    expect(await p.closed).toBe(130);
    const screen = screenOf(p);
    expect(screen).not.toMatch(SPINNER);
    expect(screen).not.toContain('Thinking');
    expect(screen).toContain('Stopped as you asked.');
  });

  it('shows no spinner and no cursor moves when standard error is not the terminal, the reply still rendered', async () => {
    server.enqueue(
      slowly(toolCallsReply([{ id: 'c1', name: 'calculator', args: { expression: '2*8' } }]), 600),
      textReply(REPLY),
    );
    const p = pty(['--new', 'what is 2*8'], envFor(), { stderrApart: true });
    expect(await p.closed).toBe(0);
    expect(p.stderr()).toBe('');
    expect(p.raw()).not.toMatch(SPINNER);
    expect(screenOf(p)).toMatch(/^Result\n\n16 is the answer\./);
  });

  it('prints the reply as written under NO_COLOR, still with the spinner on standard error', async () => {
    server.enqueue(slowly(textReply(REPLY), 1_200));
    const p = pty(['--new', 'hello'], envFor({ NO_COLOR: '1' }));
    await waitForRaw(p, /Thinking… 1 s/);
    expect(await p.closed).toBe(0);
    expect(screenOf(p)).toBe(REPLY.trimEnd());
  });

  it('makes way for a permission question, and comes back once it is answered', async () => {
    const env = envFor();
    writeFileSync(join(env.ZHIXING_HOME, 'config.json'), JSON.stringify({ permissions: { file_write: 'ask' } }), {
      mode: 0o600,
    });
    server.enqueue(
      slowly(toolCallsReply([{ id: 'c1', name: 'file_write', args: { path: 'a.txt', content: 'hi' } }]), 1_100),
      slowly(textReply('Written.'), 1_100),
    );
    const p = pty(['--new', 'write hi to a.txt'], env);
    // The question stands alone on the screen: the spinner was erased before it was asked.
    await p.waitFor(/^Allow file_write to a\.txt\? \[y\]es once \/ \[a\]lways \/ \[n\]o$/);
    const at = p.raw().length;
    p.keys('y\r');
    await waitForRaw(p, /Thinking… 1 s/, at);
    expect(await p.closed).toBe(0);
    expect(screenOf(p)).toMatch(
      /^Allow file_write to a\.txt\? \[y\]es once \/ \[a\]lways \/ \[n\]o y\n✓ file_write a\.txt \(\S+ ms\) · you allowed it\nWritten\.$/,
    );
  });

  it('keeps the full trace on stdout with --show-actions, and no tool line of its own', async () => {
    server.enqueue(toolCallsReply([{ id: 'c1', name: 'calculator', args: { expression: '2*8' } }]), textReply('16'));
    const p = pty(['--new', '--show-actions', 'what is 2*8'], envFor());
    expect(await p.closed).toBe(0);
    expect(screenOf(p)).toMatch(/^🔧 calculator \{"expression":"2\*8"\} ✓ 16 \(\S+ ms\)\n16$/);
  });
});

describe('the REPL on a terminal', () => {
  it('spins and renders each reply, in the language of the line just typed', async () => {
    server.enqueue(
      slowly(toolCallsReply([{ id: 'c1', name: 'calculator', args: { expression: '(3+5)*2' } }]), 1_200),
      textReply('结果是 **16**。'),
    );
    const p = pty(['--new'], envFor());
    let at = await waitForRaw(p, /知行 › /);
    p.keys('算一下 (3+5)*2\r');
    at = await waitForRaw(p, /思考中… 1 秒/, at);
    at = await waitForRaw(p, /知行 › /, at);
    server.enqueue(slowly(textReply('Still **16**.'), 1_200));
    p.keys('and in English?\r');
    at = await waitForRaw(p, /Thinking… 1 s/, at);
    await waitForRaw(p, /知行 › /, at);
    p.keys('/exit\r');
    expect(await p.closed).toBe(0);
    expect(p.raw()).toContain('结果是 \x1b[1m16\x1b[0m。');
    const screen = screenOf(p);
    expect(screen).toMatch(/🔧 calculator \{"expression":"\(3\+5\)\*2"\} ✓ 16 \(\S+ ms\)\n结果是 16。\n/);
    expect(screen).toContain('\nStill 16.\n');
    expect(screen).not.toMatch(SPINNER);
  });
});

describe('a one-shot whose output is not a terminal', () => {
  it('prints the reply exactly as the model wrote it, and nothing on stderr', async () => {
    server.enqueue(toolCallsReply([{ id: 'c1', name: 'calculator', args: { expression: '2*8' } }]), textReply(REPLY));
    const r = await runCli(['--new', 'what is 2*8'], envFor());
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(REPLY);
    expect(r.stderr).toBe('');
    expect(r.stdout).not.toMatch(NOT_PLAIN);
  });
});
