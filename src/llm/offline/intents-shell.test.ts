import { describe, expect, it } from 'vitest';
import { commandIn } from './intents-shell.js';
import { classify, plan } from './intents.js';
import { utterance } from './extract.js';
import { memoryPrefs } from './testing.js';

describe('a command handed over in a message', () => {
  it.each([
    ['运行 `ls -la`', 'ls -la'],
    ['帮我执行一下 `git status` 看看', 'git status'],
    ['运行命令：ls -la', 'ls -la'],
    ['执行这个命令 du -sh .', 'du -sh .'],
    ['在终端里运行 git log --oneline -5', 'git log --oneline -5'],
    ['用 shell 执行 echo hi > a.txt', 'echo hi > a.txt'],
    ['跑一下 python3 make.py', 'python3 make.py'],
    ['run `ls -la`', 'ls -la'],
    ['please run the command: df -h', 'df -h'],
    ['run git status', 'git status'],
    ['execute ls -la in the terminal', 'ls -la'],
    ['Could you run wc -l notes.txt please', 'wc -l notes.txt'],
    ['$ echo hello && pwd', 'echo hello && pwd'],
    ['run /usr/bin/env', '/usr/bin/env'],
    ['运行命令 "ls -la"', 'ls -la'],
    ['run "echo \'a b\'"', "echo 'a b'"],
  ])('%s → %s', (text, command) => {
    expect(commandIn(text)).toBe(command);
  });

  it.each([
    '跑一下 5 公里要多久',
    '运行得怎么样',
    '帮我执行计划：明天早起',
    'run a marathon',
    'I want to run faster',
    'execute the plan tomorrow',
    'what does `ls` do',
    '记一下：运行 ls 检查目录',
    'how much is $ 5 plus 3',
    '提醒我明天运行 `npm test`',
    'remind me to run `npm test` tomorrow',
  ])('%s → no command', (text) => {
    expect(commandIn(text)).toBeUndefined();
  });

  it('runs a command as typed: no typo fixed, no clause split inside it', () => {
    const ctx = { prefs: memoryPrefs() };
    for (const command of ['echo teh; sleep 1; echo done', 'ls 然后 pwd', 'git log -1, then echo ok']) {
      expect(plan(`run \`${command}\``, ctx)).toEqual({ kind: 'calls', calls: [{ name: 'shell', args: { command } }] });
    }
  });

  it('comes before the code refusal and the file rules: the words of a command are not read as a request', () => {
    const ctx = { prefs: memoryPrefs() };
    for (const [text, command] of [
      ['运行 `rm -rf build && echo done`', 'rm -rf build && echo done'],
      ['run `cat notes.txt`', 'cat notes.txt'],
      ['执行命令 python3 -c "import os"', 'python3 -c "import os"'],
    ]) {
      expect(classify(utterance(text!), ctx)).toEqual({ kind: 'call', call: { name: 'shell', args: { command } } });
    }
  });
});
