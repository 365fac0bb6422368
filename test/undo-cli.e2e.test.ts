import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAiServer, textReply, toolCallsReply, type OpenAiServer } from './support/openai-server.js';
import { runCli } from './support/cli.js';
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

function home(lang?: 'en') {
  const h = tempHome();
  homes.push(h);
  const env = {
    ZHIXING_HOME: h.home,
    ZHIXING_BASE_URL: server.url,
    ZHIXING_API_KEY: 'sk-test-undo',
    ZHIXING_MODEL: 'test-model',
    ...(lang ? { ZHIXING_LANG: lang } : {}),
  };
  return { env, file: (p: string) => join(h.home, 'workspace', p) };
}

/** One turn in which the model writes `content` to `path` through file_write, over the real wire format. */
async function writeTurn(env: Record<string, string>, path: string, content: string, message: string) {
  server.enqueue(
    toolCallsReply([{ id: `call_${path}_${content.length}`, name: 'file_write', args: { path, content } }]),
    textReply('Done.'),
  );
  const r = await runCli(['--yes', message], env);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
}

describe('zhixing undo', () => {
  it('undoes an overwrite, then the write that created the file, then says there is nothing left', async () => {
    const { env, file } = home('en');
    await writeTurn(env, 'notes.md', 'first draft', 'write my notes');
    await writeTurn(env, 'notes.md', 'second draft', 'rewrite them');
    expect(readFileSync(file('notes.md'), 'utf8')).toBe('second draft');

    const first = await runCli(['undo'], env);
    expect(first).toMatchObject({ code: 0, stderr: '', stdout: 'Restored notes.md.\n' });
    expect(readFileSync(file('notes.md'), 'utf8')).toBe('first draft');

    const second = await runCli(['undo', '--json'], env);
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({
      removed: ['notes.md'],
      restored: [],
      putBack: [],
      conflicts: [],
      notCovered: [],
      failed: [],
      message: 'Removed notes.md.',
    });
    expect(existsSync(file('notes.md'))).toBe(false);

    const third = await runCli(['undo'], env);
    expect(third.code).toBe(1);
    expect(third.stdout).toBe('');
    expect(third.stderr).toMatch(/^zhixing: Nothing to undo/);
  });

  it('says what it restored in the language the session was held in, and knows --session', async () => {
    const { env, file } = home();
    await writeTurn(env, '计划.txt', '周一：开会', '帮我写个计划');
    const sessions = JSON.parse((await runCli(['sessions', '--json'], env)).stdout).sessions;
    const r = await runCli(['undo', '--session', sessions[0].id], { ...env, LANG: 'en_US.UTF-8' });
    expect(r).toMatchObject({ code: 0, stdout: '已撤销上一轮对文件的改动：删除了新建的 计划.txt。\n' });
    expect(existsSync(file('计划.txt'))).toBe(false);
    const unknown = await runCli(['undo', '--session', 'ses_nope_nope'], env);
    expect(unknown.code).toBe(2);
  });

  it('/undo in the REPL says what it restored, then that there is nothing left', async () => {
    const { env, file } = home('en');
    await writeTurn(env, 'todo.md', 'buy milk', 'note it down');
    const r = await runCli(['chat'], env, { input: '/undo\n/undo\n' });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Removed todo.md.\n');
    expect(r.stderr).toMatch(/Nothing to undo/);
    expect(existsSync(file('todo.md'))).toBe(false);
  });

  it('says there is nothing to undo in a home with no sessions, and refuses options it does not take', async () => {
    const { env } = home('en');
    const r = await runCli(['undo'], env);
    expect(r).toMatchObject({ code: 1, stdout: '', stderr: 'zhixing: Nothing to undo: there are no sessions yet.\n' });
    const bad = await runCli(['undo', '--new'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/zhixing undo does not take --new/);
  });
});
