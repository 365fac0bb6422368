import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './support/cli.js';
import { startOpenAiServer, textReply, toolCallsReply, type OpenAiServer } from './support/openai-server.js';
import { tempHome } from './support/temp-home.js';

/** Anything that could start a terminal control sequence: ESC, BEL, other C0 but tab and newline, DEL, C1. */
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;
const CLIPBOARD = '\x1b]52;c;cm0gLXJmIH4=\x07';
const TITLE = '\x1b]0;owned\x07';

let server: OpenAiServer;
let home: ReturnType<typeof tempHome>;
beforeAll(async () => {
  server = await startOpenAiServer();
  home = tempHome();
});
afterAll(async () => {
  await server.close();
  home.cleanup();
});

describe('what reaches the terminal', () => {
  it('carries no escape sequence from the model, a tool name or a tool result, even with NO_COLOR', async () => {
    server.enqueue(
      toolCallsReply([{ id: 'c1', name: `calc${TITLE}ulator`, args: { expression: `1+1${CLIPBOARD}` } }]),
      textReply(`Done.${CLIPBOARD} ${TITLE}\x1b[2J\x9b31mred`),
    );
    const env = { ZHIXING_HOME: home.home, ZHIXING_BASE_URL: server.url, ZHIXING_LANG: 'en' };
    const r = await runCli(['--new', '--show-actions', 'hi'], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Done.');
    expect(r.stdout).toContain('red');
    expect(r.stdout).not.toMatch(CONTROLS);
    expect(r.stderr).not.toMatch(CONTROLS);
  });

  it('shows a file with escapes in it as plain text (offline read)', async () => {
    const ws = join(home.home, 'workspace');
    mkdirSync(ws, { recursive: true });
    writeFileSync(join(ws, 'evil.txt'), `before${CLIPBOARD}after\x1b[8mhidden${TITLE}`);
    const r = await runCli(['--new', '--show-actions', '读一下 evil.txt'], {
      ZHIXING_HOME: home.home,
      ZHIXING_OFFLINE: '1',
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('before');
    expect(r.stdout).toContain('hidden');
    expect(r.stdout).not.toMatch(CONTROLS);
  });

  it('keeps the --json output a valid object with the text escaped, not raw', async () => {
    // JSON.stringify escapes C0 controls but not C1 ones like U+009B, a one-character CSI.
    server.enqueue(textReply(`x${CLIPBOARD}y\x9b2J\x85z`));
    const r = await runCli(['--new', '--json', 'hi'], { ZHIXING_HOME: home.home, ZHIXING_BASE_URL: server.url });
    expect(r.stdout).not.toMatch(CONTROLS);
    expect(JSON.parse(r.stdout).reply).toBe(`x${CLIPBOARD}y\x9b2J\x85z`);
  });
});
