import { describe, expect, it } from 'vitest';
import { runCli } from './support/cli.js';
import { tempHome } from './support/temp-home.js';

describe('the REPL (lines piped to ./bin/zhixing chat)', () => {
  it('chats with a trace line per action and runs every slash command', async () => {
    const home = tempHome();
    const input = [
      '帮我算一下 (3+5)*2',
      '/new Groceries',
      '记一下 买菜',
      '/sessions',
      '/switch 2',
      '/history',
      '/rename 计算',
      '/model',
      '/delete 1',
      '/delete 1',
      '/sessions',
      '/nope',
      '/help',
      '/exit',
      'never read',
    ].join('\n');
    // The messages are Chinese and the checks read English: the language is fixed, not followed.
    const r = await runCli(['chat'], { ZHIXING_HOME: home.home, ZHIXING_LANG: 'en' }, { input });
    home.cleanup();
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const out = r.stdout;
    expect(out).toMatch(/^🔧 calculator \{"expression":"\(3\+5\)\*2"\} ✓ 16 \(\d+(\.\d)? ms\)\n\(3\+5\)\*2 = 16\n/);
    expect(out).toContain('New session: Groceries.');
    expect(out).toMatch(/\* 1\. Groceries 1 msg .*\n {2}2\. 帮我算一下 \(3\+5\)\*2 1 msg/);
    expect(out).toContain('Switched to 帮我算一下 (3+5)*2.');
    expect(out).toContain('› 帮我算一下 (3+5)*2');
    expect(out).toContain('Renamed to 计算.');
    expect(out).toContain('Offline: the rule-based planner');
    // "1" is the Groceries the user saw in /sessions, though the list order has changed since.
    expect(out).toContain('Deleted Groceries.');
    expect(out).toContain('Session 1 no longer exists.');
    expect(out).toMatch(/\* 1\. 计算 1 msg/);
    expect(out).toContain('Unknown command /nope. Type /help.');
    expect(out).toContain('/history [N]');
    expect(out).not.toContain('never read');
  });

  it('continues the most recent session, across runs', async () => {
    const home = tempHome();
    await runCli(['北京天气怎么样'], { ZHIXING_HOME: home.home, ZHIXING_GEOCODING_URL: 'http://127.0.0.1:9/x', ZHIXING_WEATHER_URL: 'http://127.0.0.1:9/y' });
    const r = await runCli(['chat'], { ZHIXING_HOME: home.home, ZHIXING_GEOCODING_URL: 'http://127.0.0.1:9/x', ZHIXING_WEATHER_URL: 'http://127.0.0.1:9/y' }, { input: '/history 1\n那上海呢\n' });
    home.cleanup();
    expect(r.stdout).toContain('🔧 weather {"city":"北京"}');
    expect(r.stdout).toContain('🔧 weather {"city":"上海"} ✗');
    expect(r.stdout).toContain('天气服务暂时连不上');
  });
});
