import { describe, expect, it } from 'vitest';
import { runCli } from './support/cli.js';
import { useTempHomes } from './support/temp-home.js';

const home = useTempHomes();

describe('offline memory through the real CLI', () => {
  it('remembers in one run what it answers in the next, in the same session', async () => {
    const env = { ZHIXING_HOME: home().home };
    const saved = await runCli(['记住：我喜欢喝美式咖啡'], env);
    expect(saved.code).toBe(0);
    expect(saved.stdout).toContain('好的，我记住了：你喜欢喝美式咖啡。');
    const asked = await runCli(['我喜欢喝什么'], env);
    expect(asked.code).toBe(0);
    expect(asked.stdout).toContain('我记得：你喜欢喝美式咖啡。');
    const named = await runCli(['我叫刘浩彬'], env);
    expect(named.stdout).toContain('好的，刘浩彬，我记住你的名字了。');
    expect((await runCli(['我叫什么'], env)).stdout).toContain('你叫刘浩彬。');
    // Memories are the session's: a new session does not know the name until told.
    expect((await runCli(['--new', '我叫什么'], env)).stdout).not.toContain('刘浩彬');
    expect((await runCli(['--new', '我喜欢喝什么'], env)).stdout).toContain('我没有记下和这个有关的内容。');
    const list = await runCli(['chat'], { ...env, ZHIXING_LANG: 'zh' }, { input: '/memory all\n' });
    expect(list.stdout).toMatch(/1\. \[事实\] 我叫刘浩彬 {2}#name/);
    expect(list.stdout).toMatch(/2\. \[偏好\] 我喜欢喝美式咖啡/);
  }, 90_000);

  it('`zhixing config` says how memories are searched: by words only, or with the embedding model set', async () => {
    const r = await runCli(['config'], { ZHIXING_HOME: home().home, ZHIXING_LANG: 'en' });
    expect(r.stdout).toMatch(
      /\nmemory +lexical search only \(no embedding model: set ZHIXING_EMBEDDING_MODEL to turn it on\)\n/,
    );
    const env = {
      ZHIXING_HOME: home().home,
      ZHIXING_LANG: 'en',
      ZHIXING_EMBEDDING_BASE_URL: 'http://127.0.0.1:9/v1',
      ZHIXING_EMBEDDING_MODEL: 'bge-m3',
    };
    expect((await runCli(['config'], env)).stdout).toMatch(/\nmemory +lexical and semantic search \(remote bge-m3\)\n/);
    expect(JSON.parse((await runCli(['config', '--json'], env)).stdout).memory).toEqual({
      search: 'hybrid',
      model: 'bge-m3',
    });
  });
});
