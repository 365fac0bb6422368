import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runCli } from './support/cli.js';
import { startOpenAiServer, textReply, type OpenAiServer } from './support/openai-server.js';
import { useTempHomes } from './support/temp-home.js';

/** What Zhixing waits for an open pipe's first byte (STDIN_FIRST_BYTE_WAIT_MS in src/cli/main.ts). */
const FIRST_BYTE_WAIT_MS = 2_000;
/** What the model is sent of one message (HISTORY_WINDOW.maxPartChars), below the 100,000 a message may hold. */
const MESSAGE_LIMIT = 96_000;

let server: OpenAiServer;
beforeAll(async () => {
  server = await startOpenAiServer();
});
afterAll(async () => {
  await server.close();
});

const home = useTempHomes();

/** A home with a model that answers, and its environment; the turn's message is what the model was sent. */
function withModel() {
  const h = home();
  const env = {
    ZHIXING_HOME: h.home,
    ZHIXING_BASE_URL: server.url,
    ZHIXING_API_KEY: 'sk-test-stdin-0000',
    ZHIXING_MODEL: 'm',
    ZHIXING_LANG: 'en',
  };
  const sent = () => {
    const turn = server.requests.filter((r) => r.body?.stream === true).at(-1)!;
    return turn.body.messages.at(-1).content as string;
  };
  return { h, env, sent };
}

/** `sh -c` runs a real shell pipeline: zhixing's stdin is then a pipe (a FIFO), as in a terminal. */
function shell(script: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      'sh',
      ['-c', script],
      {
        env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', ZHIXING: `${process.execPath} ${BIN}`, ...env },
        cwd: env.ZHIXING_HOME,
        timeout: 20_000,
      },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? -1) : 0, stdout, stderr }),
    );
  });
}

describe('standard input as part of the message', () => {
  it('sends the message, then the piped text in a fenced block, through a shell pipe and with --json', async () => {
    const { env, sent } = withModel();
    server.enqueue(textReply('Looks fine.'));
    const diff = 'diff --git a/x.ts b/x.ts\n-old line\n+new line\n';
    const r = await shell(`printf '%s' "$DIFF" | $ZHIXING review`, { ...env, DIFF: diff });
    expect(r).toMatchObject({ code: 0, stdout: 'Looks fine.\n', stderr: '' });
    expect(sent()).toBe('review\n\n```\ndiff --git a/x.ts b/x.ts\n-old line\n+new line\n```');

    server.enqueue(textReply('Summary.'));
    const json = await runCli(['--json', '总结一下'], env, { input: 'notes with ``` inside\n' });
    expect(json.code).toBe(0);
    expect(json.stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ mode: 'llm', reply: 'Summary.', actions: [] });
    // A longer fence than any run of backticks inside, so the text cannot close the block.
    expect(sent()).toBe('总结一下\n\n````\nnotes with ``` inside\n````');
  });

  it('with no message, piped lines drive the REPL as typed ones; a file given as stdin is read as context', async () => {
    const offline = { ZHIXING_HOME: home().home, ZHIXING_LANG: 'en' };
    const repl = await runCli([], offline, { input: '帮我算一下 (3+5)*2\n/exit\n' });
    expect(repl.code).toBe(0);
    expect(repl.stdout).toContain('(3+5)*2 = 16');
    // /dev/null is empty: the message goes alone.
    expect(await runCli(['what is 1+1'], offline, { stdinFile: '/dev/null' })).toMatchObject({
      code: 0,
      stdout: '1+1 = 2\n',
      stderr: '',
    });
  });

  it('with --json and no message, the piped text is the one message', async () => {
    const offline = { ZHIXING_HOME: home().home };
    const r = await runCli(['--json'], offline, { input: '算一下 1+1\n' });
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(r.stdout)).toMatchObject({
      mode: 'offline',
      reply: '1+1 = 2',
      actions: [{ tool: 'calculator', ok: true }],
    });
  });

  it('waits for a slow command that has started writing, to its end', async () => {
    const { env, sent } = withModel();
    server.enqueue(textReply('Two lines.'));
    const r = await runCli(['count the lines'], env, {
      feed: {
        writes: [
          { afterMs: 300, text: 'first\n' },
          { afterMs: FIRST_BYTE_WAIT_MS + 1_500, text: 'second\n' },
        ],
        end: true,
      },
      timeoutMs: 20_000,
    });
    expect(r).toMatchObject({ code: 0, stdout: 'Two lines.\n', stderr: '' });
    expect(sent()).toBe('count the lines\n\n```\nfirst\nsecond\n```');
  });

  it('cuts piped text that does not fit in a message, and says so on stderr and in the message', async () => {
    const { env, sent } = withModel();
    server.enqueue(textReply('Read the first part.'), textReply('Read a part of a lot.'));
    const r = await runCli(['summarise'], env, { input: 'x'.repeat(150_000) });
    expect(r.code).toBe(0);
    const message = sent();
    expect(message.length).toBeLessThanOrEqual(MESSAGE_LIMIT);
    const kept = message.match(
      /^summarise\n\n```\n(x+)\n\[… the input was cut here: ([\d,]+) more characters were not sent\]\n```$/,
    );
    expect(kept).not.toBeNull();
    expect(kept![1]!.length + Number(kept![2]!.replace(/,/g, ''))).toBe(150_000);
    expect(r.stderr).toBe(
      `zhixing: Standard input is too long for one message (150,000 characters; a message holds 96,000): only the first ${kept![1]!.length.toLocaleString('en-US')} were sent.\n`,
    );
    // More than is ever read (1 MiB): the rest is not read at all.
    const huge = await runCli(['summarise'], env, { input: 'y'.repeat(3 * 1024 * 1024) });
    expect(huge.code).toBe(0);
    expect(huge.stderr).toMatch(
      /^zhixing: Standard input is too long for one message \(over 1,048,576 characters; a message holds 96,000\)/,
    );
    // 96,000 'y' are some 48,000 tokens, over the default 32,000-token window: the request is cut again to fit, and says so.
    expect(sent()).toMatch(
      /\n\[… the input was cut here: at least [\d,]+ more characters were not sent\]\n```$|\n\[cut to fit the context: [\d,]+ more characters not shown\]$/,
    );
  });

  it('refuses binary input, saying what to do', async () => {
    const offline = { ZHIXING_HOME: home().home, ZHIXING_LANG: 'en' };
    const binary = await runCli(['what is this'], offline, { input: 'PNG\u0000\u0001\u0002' });
    expect(binary).toMatchObject({ code: 2, stdout: '' });
    expect(binary.stderr).toBe(
      'zhixing: Standard input is not text (it contains NUL bytes), so nothing was sent. Pipe in text, such as the output of a command or a text file.\n',
    );
  });
});

describe('a stdin that is open but never says anything (a CI step, a script that spawns zhixing)', () => {
  it('does not hang a call with a message: after a short wait it goes without, and says how to skip the wait', async () => {
    const offline = { ZHIXING_HOME: home().home, ZHIXING_LANG: 'en' };
    const started = Date.now();
    const r = await runCli(['what is 2+3'], offline, { feed: { writes: [], end: false }, timeoutMs: 20_000 });
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(FIRST_BYTE_WAIT_MS);
    expect(took).toBeLessThan(FIRST_BYTE_WAIT_MS + 4_000);
    expect(r).toMatchObject({ code: 0, stdout: '2+3 = 5\n' });
    expect(r.stderr).toBe(
      'Standard input is open but sent nothing within 2 s, so the message is sent without it. To include a slow command\'s output, save it first (command > out.txt, then zhixing "…" < out.txt); to skip the wait, add < /dev/null.\n',
    );
  });

  it('does the same through a shell pipe whose writer stays silent', async () => {
    const offline = { ZHIXING_HOME: home().home, ZHIXING_LANG: 'en' };
    const started = Date.now();
    // The shell waits for `sleep` too; zhixing itself answers after the short wait.
    const r = await shell('(sleep 4) | { $ZHIXING "what is 2+3"; echo "exit=$? at=$(date +%s%N)" >&2; }', offline);
    const at = Number(/at=(\d+)/.exec(r.stderr)![1]) / 1e6;
    expect(at - started).toBeLessThan(FIRST_BYTE_WAIT_MS + 1_800);
    expect(r.stdout).toBe('2+3 = 5\n');
    expect(r.stderr).toMatch(/^Standard input is open but sent nothing within 2 s.*\nexit=0 at=/);
  });
});
