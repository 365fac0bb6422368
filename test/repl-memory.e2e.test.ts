import { describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { runCli } from './support/cli.js';
import { tempHome } from './support/temp-home.js';

/** A home with two sessions and a memory in each, written through the app as the tools would. */
async function seeded() {
  const home = tempHome();
  const app = await createApp(home.config);
  const old = app.sessions.create('旧会话').id;
  await app.memory.save({ sessionId: old, content: 'Allergic to peanuts', tags: ['health'] });
  const current = app.sessions.create('咖啡').id;
  await app.memory.save({ sessionId: current, content: '我喜欢喝美式咖啡', kind: 'preference', tags: ['饮品'] });
  app.close();
  return { home, current };
}

describe('/memory in the REPL', () => {
  it("lists this session's memories, every session's, searches, edits and deletes (asking first)", async () => {
    const { home } = await seeded();
    const env = { ZHIXING_HOME: home.home, ZHIXING_LANG: 'en' };
    const input = [
      '/memory',
      '/memory all',
      '/memory search peanuts',
      '/memory edit 1 Allergic to peanuts and shellfish',
      '/memory delete 1',
      'n',
      '/memory delete 1',
      'y',
      '/memory all',
      '/memory delete 7',
      '/memory wat',
      '/exit',
    ].join('\n');
    const r = await runCli(['chat'], env, { input });
    const out = r.stdout.split('\n');
    expect(out[0]).toBe('1. [preference] 我喜欢喝美式咖啡  #饮品');
    expect(out.slice(1, 3)).toEqual([
      '1. [preference] 我喜欢喝美式咖啡  #饮品  (咖啡)',
      '2. [fact] Allergic to peanuts  #health  (旧会话)',
    ]);
    expect(out[3]).toBe('1. [fact] Allergic to peanuts  #health  (旧会话)');
    expect(out[4]).toBe('Updated: Allergic to peanuts and shellfish');
    expect(r.stdout).toContain('Delete the memory "Allergic to peanuts and shellfish"? [y/N] \nNot deleted.\n');
    expect(r.stdout).toContain('The memory is deleted.\n1. [preference] 我喜欢喝美式咖啡  #饮品  (咖啡)\n');
    expect(r.stderr).toContain('There is no memory number 7: list them first with /memory or /memory all.');
    expect(r.stderr).toContain('Usage: /memory · /memory all');
    home.cleanup();
  }, 60_000);

  it('speaks Chinese, and says when nothing is remembered', async () => {
    const home = tempHome();
    const r = await runCli(
      ['chat'],
      { ZHIXING_HOME: home.home, ZHIXING_LANG: 'zh' },
      { input: '/memory\n/memory all\n/memory search 咖啡\n' },
    );
    home.cleanup();
    expect(r.stdout).toBe(
      '这个会话还没有记住什么。/memory all 列出所有会话的记忆。\n还没有记住任何东西。\n没有和「咖啡」有关的记忆。\n',
    );
    expect(r.stderr).toBe('');
  }, 30_000);
});

describe('/prefs in the REPL', () => {
  it('adds, lists, removes and clears standing instructions (asking first), kept across runs', async () => {
    const home = tempHome();
    const env = { ZHIXING_HOME: home.home, ZHIXING_LANG: 'zh' };
    const first = await runCli(['chat'], env, {
      input: ['/prefs add 用中文回复', '/prefs add 回答简短', '/prefs remove 1', '/prefs remove 5', '/help'].join('\n'),
    });
    expect(first.stdout).toContain('已添加。\n1. 用中文回复\n2. 回答简短\n');
    expect(first.stdout).toContain('已删除：用中文回复\n1. 回答简短\n');
    expect(first.stderr).toContain('没有第 5 条指示（一共 1 条）。');
    expect(first.stdout).toContain('/memory          列出这个会话记住的内容');
    expect(first.stdout).toContain('/prefs           列出长期指示');
    const second = await runCli(['chat'], env, {
      input: ['/prefs', '/prefs clear', '', '/prefs clear', 'y', '/prefs'].join('\n'),
    });
    home.cleanup();
    expect(second.stdout).toMatch(/^1\. 回答简短\n（离线模式不使用这些指示/);
    expect(second.stdout).toContain('删除全部 1 条长期指示吗？[y/N] \n没有删除。\n');
    expect(second.stdout).toContain('长期指示已清空。\n还没有长期指示。例如：/prefs add 回答简短\n');
  }, 60_000);
});
