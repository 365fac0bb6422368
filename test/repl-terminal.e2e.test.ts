import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startOpenAiServer, textReply, type OpenAiServer } from './support/openai-server.js';
import { runInPty, type PtyRun } from './support/pty.js';
import { canMount, mountSmallDisk } from './support/small-disk.js';
import { useTempHomes } from './support/temp-home.js';

const home = useTempHomes();
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

/** The prompt, waiting for input, on the last line (the transcript drops trailing spaces). */
const READY = /知行 ›$/;
const ENTER = '\r';
const UP = '\x1b[A';
const LEFT = '\x1b[D';
const CTRL_C = '\x03';
const CTRL_D = '\x04';
const CTRL_R = '\x12';
const ALT_ENTER = '\x1b\r';
const CTRL_J = '\n';

function start(args: string[], env: Record<string, string>, options?: Parameters<typeof runInPty>[2]): PtyRun {
  const run = runInPty(args, { ZHIXING_LANG: 'en', ...env }, options);
  cleanups.push(() => run.kill());
  return run;
}

/** Waits for a fresh prompt after `from`: the transcript ends with it. */
const ready = (run: PtyRun, from = 0) => run.waitFor(READY, from);

async function modelServer(...replies: string[]): Promise<{ server: OpenAiServer; env: Record<string, string> }> {
  const server = await startOpenAiServer();
  cleanups.push(() => server.close());
  server.enqueue(...replies.map((r) => textReply(r)));
  const env = {
    ZHIXING_HOME: home().home,
    ZHIXING_BASE_URL: server.url,
    ZHIXING_API_KEY: 'k-test',
    ZHIXING_MODEL: 'test-model',
  };
  return { server, env };
}

/** The user messages the model was sent, one per turn (title requests left out). */
const sentMessages = (server: OpenAiServer) =>
  server.requests
    .filter((r) => r.path === '/v1/chat/completions' && r.body?.stream)
    .map((r) => r.body.messages.filter((m: { role: string }) => m.role === 'user').at(-1).content as string);

describe('multi-line entries on a terminal', () => {
  it('sends a pasted block of lines as one message, and so the lines Alt+Enter, Ctrl-J and """ make', async () => {
    const { server, env } = await modelServer('Got the paste.', 'Got the lines.', 'Got the block.');
    const run = start([], env);
    await ready(run);
    expect(run.screen.pasteMode()).toBe(true);

    run.paste('line one\r\nline two\r\n  indented 缩进\r\n');
    await run.waitFor(/ {5}… {3}indented 缩进$/);
    // The paste is in the line, not sent: Enter sends it.
    expect(sentMessages(server)).toEqual([]);
    run.keys(ENTER);
    let at = await run.waitFor(/Got the paste\.\n知行 ›$/);

    run.keys(`first${ALT_ENTER}second${CTRL_J}third`);
    await run.waitFor(/知行 › first\n {5}… second\n {5}… third$/, at);
    run.keys(ENTER);
    at = await run.waitFor(/Got the lines\.\n知行 ›$/, at);

    run.keys(`"""${ENTER}`);
    await run.waitFor(/知行 › """\n {5}…$/, at);
    run.keys(`/not a command${ENTER}second line${ENTER}`);
    await run.waitFor(/ {5}… second line\n {5}…$/, at);
    run.keys(`"""${ENTER}`);
    await run.waitFor(/Got the block\.\n知行 ›$/, at);
    run.keys(CTRL_D);
    expect(await run.closed).toBe(0);

    expect(sentMessages(server)).toEqual([
      'line one\nline two\n  indented 缩进',
      'first\nsecond\nthird',
      '/not a command\nsecond line',
    ]);
    // The terminal is left as it was found.
    expect(run.screen.pasteMode()).toBe(false);
  });
});

describe('the input history on a terminal', () => {
  it('recalls entries after a restart, several lines whole, and Ctrl-R finds a Chinese one', async () => {
    const env = { ZHIXING_HOME: home().home };
    const first = start([], env);
    await ready(first);
    first.keys(`帮我算一下 (3+5)*2${ENTER}`);
    let at = await first.waitFor(/= 16\n知行 ›$/);
    first.paste('note one\nnote two');
    first.keys(ENTER);
    at = await ready(first, at + 1);
    first.keys(`/sessions${ENTER}`);
    await first.waitFor(/\* 1\. .*\n知行 ›$/, at);
    first.keys(`/exit${ENTER}`);
    expect(await first.closed).toBe(0);
    const file = join(env.ZHIXING_HOME, 'history');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toBe('"帮我算一下 (3+5)*2"\n"note one\\nnote two"\n"/sessions"\n"/exit"\n');

    const second = start([], env);
    await ready(second);
    second.keys(UP.repeat(3));
    await second.waitFor(/知行 › note one\n {5}… note two$/);
    second.keys(UP);
    // Inside a recalled entry of two lines, ↑ first goes up a line, then to the older entry.
    second.keys(UP);
    await second.waitFor(/知行 › 帮我算一下 \(3\+5\)\*2$/);
    // 7 columns of prompt, 5 Chinese characters at two columns each, then " (3+5)*2".
    expect(second.screen.cursor().col).toBe(7 + 10 + 8);
    second.keys(CTRL_C);
    await ready(second);

    second.keys(`${CTRL_R}算一`);
    await second.waitFor(/\(reverse-i-search\)'算一': 帮我算一下 \(3\+5\)\*2$/);
    // The cursor is on the match: after the label (算一 two columns each) and 帮我.
    const label = "(reverse-i-search)'算一': ".length + 2;
    expect(second.screen.cursor().col).toBe(label + 4);
    second.keys(`x`);
    await second.waitFor(/\(failed reverse-i-search\)'算一x': 帮我算一下/);
    second.keys('\x7f');
    // Enter sends the match, as a shell does.
    second.keys(ENTER);
    at = await second.waitFor(/= 16\n知行 ›$/);
    // A failed search keeps the last match on screen, as shells do.
    second.keys(`${CTRL_R}notez`);
    await second.waitFor(/\(failed reverse-i-search\)'notez': note one\n {5}… note two$/, at);
    // Esc gives back the line as it was (empty).
    second.keys('\x1b');
    await ready(second, at);
    // Enter on a search that found nothing sends nothing stale: the line was empty, so nothing runs.
    second.keys(`${CTRL_R}zzz`);
    await second.waitFor(/\(failed reverse-i-search\)'zzz'/, at);
    second.keys(ENTER);
    second.keys(`/exit${ENTER}`);
    expect(await second.closed).toBe(0);
    expect(readFileSync(file, 'utf8').split('\n').slice(-3)).toEqual(['"帮我算一下 (3+5)*2"', '"/exit"', '']);
  });
});

describe('editing on a terminal', () => {
  it('places the cursor by display width, Chinese and emoji at two columns, wrapping as the terminal does', async () => {
    const run = start([], { ZHIXING_HOME: home().home }, { cols: 20 });
    await ready(run);
    run.keys('天气好');
    await run.waitFor(/知行 › 天气好$/);
    expect(run.screen.cursor().col).toBe(13);
    run.keys(LEFT);
    await new Promise((r) => setTimeout(r, 200));
    expect(run.screen.cursor().col).toBe(11);
    run.keys('很');
    await run.waitFor(/知行 › 天气很好$/);
    expect(run.screen.cursor().col).toBe(13);
    // Past the 20 columns: 好 moves to the next row whole (7 + 12 = 19 columns; one more would split it).
    run.keys('\x05🌦多云');
    await run.waitFor(/知行 › 天气很好🌦多\n云$/);
    expect(run.screen.cursor()).toMatchObject({ col: 2 });
    run.keys('\x01');
    await new Promise((r) => setTimeout(r, 200));
    expect(run.screen.cursor().col).toBe(7);
    run.keys(CTRL_C);
    await ready(run);
    run.keys(CTRL_D);
    expect(await run.closed).toBe(0);
  });

  it('completes slash commands and session numbers with Tab', async () => {
    const env = { ZHIXING_HOME: home().home };
    const run = start(['--new'], env);
    await ready(run);
    run.keys(`/new Groceries${ENTER}`);
    let at = await run.waitFor(/New session: Groceries\.\n知行 ›$/);
    run.keys('/se\t');
    await run.waitFor(/知行 › \/sessions$/, at);
    run.keys(ENTER);
    at = await run.waitFor(/\* 1\. Groceries .*\n.*2\. \(untitled\).*\n知行 ›$/, at);
    // Several choices: the common start, then the list under the line.
    run.keys('/s\t');
    await run.waitFor(/\/sessions {2}\/switch\n知行 › \/s$/, at);
    run.keys('w\t');
    await run.waitFor(/知行 › \/switch$/, at);
    run.keys('\t');
    await run.waitFor(/1\. Groceries\n2\. \(untitled\)\n知行 › \/switch$/, at);
    run.keys(`2${ENTER}`);
    await run.waitFor(/Switched to ses_\w+\.\n知行 ›$/, at);
    run.keys(CTRL_D);
    expect(await run.closed).toBe(0);
  });
});

describe('slash commands on a terminal', () => {
  it('/delete asks first: "n" (the default) keeps the session, "y" deletes it', async () => {
    const env = { ZHIXING_HOME: home().home };
    const run = start([], env);
    await ready(run);
    run.keys(`帮我算一下 1+1${ENTER}`);
    let at = await run.waitFor(/= 2\n知行 ›$/);
    run.keys(`/delete 1${ENTER}`);
    await run.waitFor(/Delete "帮我算一下 1\+1" and its 1 message \(and its memories\)\? \[y\/N\]$/, at);
    run.keys(`n${ENTER}`);
    at = await run.waitFor(/\[y\/N\] n\nNot deleted\.\n知行 ›$/, at);
    // The answer is not an entry of the history.
    run.keys(UP);
    await run.waitFor(/知行 › \/delete 1$/, at);
    run.keys(ENTER);
    await run.waitFor(/\[y\/N\]$/, at);
    run.keys(`y${ENTER}`);
    at = await run.waitFor(/Deleted 帮我算一下 1\+1\.\n知行 ›$/, at);
    run.keys(`/sessions${ENTER}`);
    await run.waitFor(/\* 1\. \(untitled\) 0 msg/, at);
    run.keys(`/exit${ENTER}`);
    expect(await run.closed).toBe(0);
  });

  it('says what went wrong on stderr, and answers on stdout', async () => {
    const env = { ZHIXING_HOME: home().home };
    const run = start([], env, { stderrApart: true });
    await ready(run);
    run.keys(`/nope${ENTER}/switch 9${ENTER}/history x${ENTER}/delete${ENTER}/model gpt-x${ENTER}/help${ENTER}`);
    await run.waitFor(/Tab completes commands\.\n.*\n知行 ›$/);
    run.keys(`/exit${ENTER}`);
    expect(await run.closed).toBe(0);
    expect(run.stderr()).toBe(
      [
        'Unknown command /nope. Type /help.',
        'There is no session number 9 (there is 1). See /sessions.',
        'Usage: /history [N], N a positive number.',
        'Usage: /delete N, N a number from /sessions (or a session id).',
        'Offline mode (the rule-based planner) has no model to switch. Set ZHIXING_BASE_URL / ZHIXING_API_KEY or ZHIXING_PROVIDER and start again to use one.',
        '',
      ].join('\n'),
    );
    expect(run.screen.transcript()).not.toMatch(/Unknown command|no session number|Usage:|no model to switch/);
    expect(run.screen.transcript()).toContain('/delete N        delete session N and its history (asks first)');
  });
});

describe('Ctrl-C on a terminal', () => {
  it('stops a running answer at once, clears a line, and quits when pressed twice at an empty prompt', async () => {
    const server = await startOpenAiServer();
    cleanups.push(() => server.close());
    server.enqueue(
      { ...textReply('A slow answer, word by word.'), delayMs: 150 },
      textReply('Second answer.'),
      // A reply that starts, then never ends.
      {
        chunks: [{ choices: [{ index: 0, delta: { role: 'assistant', content: 'Starting a long answer' } }] }],
        end: 'hang',
      },
    );
    const env = { ZHIXING_HOME: home().home, ZHIXING_BASE_URL: server.url, ZHIXING_API_KEY: 'k', ZHIXING_MODEL: 'm' };
    const run = start([], env);
    await ready(run);
    run.keys(`first${ENTER}`);
    await run.waitFor(/A slow/);
    // Typed while an answer comes: not shown in the middle of it, and sent after it, as typed.
    run.keys(`and then${ENTER}`);
    let at = await run.waitFor(/A slow answer, word by word\.\n知行 › and then\nSecond answer\.\n知行 ›$/);

    run.keys(`tell me everything${ENTER}`);
    at = await run.waitFor(/Starting a long answer$/, at);
    const stopAt = Date.now();
    run.keys(CTRL_C);
    at = await run.waitFor(/Stopped as you asked\.[\s\S]*\n知行 ›$/, at);
    expect(Date.now() - stopAt).toBeLessThan(3_000);
    expect(sentMessages(server)).toEqual(['first', 'and then', 'tell me everything']);

    run.keys('some text');
    await run.waitFor(/知行 › some text$/, at);
    run.keys(CTRL_C);
    await ready(run, at);
    run.keys(CTRL_C);
    await run.waitFor(/\(press Ctrl-C again, or type \/exit, to quit\)\n知行 ›$/, at);
    run.keys(CTRL_C);
    expect(await run.closed).toBe(0);
    expect(run.raw().startsWith('\x1b[?2004h')).toBe(true);
    expect(run.raw().endsWith('\x1b[?2004l')).toBe(true);
  });

  it('gives the terminal back when the process is told to end', async () => {
    const run = start([], { ZHIXING_HOME: home().home });
    await ready(run);
    expect(run.screen.pasteMode()).toBe(true);
    run.terminate();
    expect(await run.closed).toBe(128 + 15);
    expect(run.screen.pasteMode()).toBe(false);
  });
});

describe.skipIf(!canMount)('a full disk under the REPL (a real small tmpfs)', () => {
  it('says so on stderr, once for the input history, and the REPL goes on', async () => {
    const disk = mountSmallDisk(2048);
    cleanups.push(() => disk.unmount());
    const run = start([], { ZHIXING_HOME: join(disk.path, 'home') }, { stderrApart: true, cwd: disk.path });
    await ready(run);
    disk.fill();
    run.keys(`/new Groceries${ENTER}`);
    let at = await ready(run, 1);
    run.keys(`/rename Food${ENTER}`);
    at = await run.waitFor(/知行 › \/rename Food\n知行 ›$/, at);
    run.keys(`/sessions${ENTER}`);
    await run.waitFor(/\* 1\. \(untitled\) 0 msg .*\n知行 ›$/, at);
    run.keys(CTRL_D);
    expect(await run.closed).toBe(0);
    const lines = run.stderr().trimEnd().split('\n');
    expect(lines[0]).toMatch(
      /^zhixing: The input history cannot be saved \(.*ENOSPC.*\): this run's entries can be recalled in this run only\.$/,
    );
    expect(lines.slice(1)).toEqual([
      expect.stringMatching(/^Could not save to .*: the disk is full\. Free some space and try again\.$/),
      expect.stringMatching(/^Could not save to .*: the disk is full\. Free some space and try again\.$/),
    ]);
    expect(run.screen.transcript()).not.toMatch(/disk is full|internal error/);
  });
});
