import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './support/cli.js';
import { startOpenAiServer, textReply, toolCallsReply, type OpenAiServer } from './support/openai-server.js';
import { tempHome } from './support/temp-home.js';

/**
 * A model service holds the key: it may send it back inside a tool call, escaped so that only
 * parsing shows it, or get a tool to rebuild it. It must reach no file, no output and no history.
 * (A key cut into pieces and put in separate fields cannot be told from ordinary text; that is out of reach.)
 */
const KEY = 'zk-Qm7/Xp+Lr=Vt9Wb3Nc';
const unicodeEscaped = [...KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

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

/** Every file under `dir`, recursively, as bytes. */
function everyFile(dir: string): Array<[string, Buffer]> {
  return (readdirSync(dir, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
    .filter((e) => e.isFile())
    .map((e) => {
      const path = join(e.parentPath, e.name);
      return [path, readFileSync(path)] as [string, Buffer];
    });
}

describe('the key inside tool calls', () => {
  it('reaches neither stdout, --json, the database nor the workspace, however it is written or rebuilt', async () => {
    server.enqueue(
      toolCallsReply([
        // JSON \\u escapes: the raw arguments text never shows the key; the parsed value does.
        { id: 'c1', name: 'todo_add', args: `{"content":"${unicodeEscaped}"}` },
        // A path the tool normalises into the key.
        {
          id: 'c3',
          name: 'file_write',
          args: { path: `${KEY.slice(0, 6)}/./${KEY.slice(7)}`, content: `the key is ${unicodeEscaped}` },
        },
      ]),
      toolCallsReply([{ id: 'c4', name: 'todo_list', args: {} }]),
      textReply('Done.'),
    );
    const env = { ZHIXING_HOME: home.home, ZHIXING_BASE_URL: server.url, ZHIXING_API_KEY: KEY, ZHIXING_LANG: 'en' };
    const shown = await runCli(['--show-actions', 'do things'], env);
    expect(shown.code).toBe(0);
    expect(shown.stdout + shown.stderr).not.toContain(KEY);
    expect(shown.stdout).toContain('[key]');

    server.enqueue(
      toolCallsReply([{ id: 'c5', name: 'todo_add', args: `{"content":"${unicodeEscaped}"}` }]),
      textReply('Again.'),
    );
    const json = await runCli(['--json', 'once more'], env);
    expect(json.stdout).not.toContain(KEY);
    expect(JSON.parse(json.stdout).actions[0].input.content).toBe('[key]');

    for (const [path, bytes] of everyFile(home.home)) expect(bytes.includes(KEY), path).toBe(false);
    // And the model is never sent the key back in the history either.
    for (const r of server.requests) expect(JSON.stringify(r.body ?? '')).not.toContain(KEY);
  });
});
