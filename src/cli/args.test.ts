import { describe, expect, it } from 'vitest';
import { parseCommand } from './args.js';

describe('parseCommand', () => {
  it('reads a one-shot message with its options, in any order', () => {
    expect(parseCommand(['--json', '帮我算一下', '(3+5)*2'])).toMatchObject({
      kind: 'ask',
      message: '帮我算一下 (3+5)*2',
      flags: { json: true },
    });
    expect(parseCommand(['ask', 'hello', '--new', '--show-actions'])).toMatchObject({
      kind: 'ask',
      message: 'hello',
      flags: { new: true, showActions: true },
    });
    expect(parseCommand(['--session', 'ses_1', 'hi'])).toMatchObject({ kind: 'ask', flags: { session: 'ses_1' } });
  });

  it('takes a message that starts with a minus sign as text, not an option', () => {
    expect(parseCommand(['-3+5'])).toMatchObject({ kind: 'ask', message: '-3+5' });
    expect(parseCommand(['--json', '-5 度算冷吗'])).toMatchObject({
      kind: 'ask',
      message: '-5 度算冷吗',
      flags: { json: true },
    });
    expect(parseCommand(['--', '--literal'])).toMatchObject({ kind: 'ask', message: '--literal' });
  });

  it('says what is wrong with bad usage', () => {
    expect(parseCommand(['--frobnicate'])).toMatchObject({
      kind: 'usage-error',
      zh: '没有 --frobnicate 这个选项。要发送以 - 开头的消息，把它放在 -- 之后：zhixing -- "--frobnicate"。',
    });
    expect(parseCommand(['--sesion', '1', 'hi'])).toMatchObject({
      kind: 'usage-error',
      message: 'Unknown option --sesion. Did you mean --session?',
      zh: '没有 --sesion 这个选项。你是想用 --session 吗？',
    });
    expect(parseCommand(['--show-action', 'hi'])).toMatchObject({
      message: 'Unknown option --show-action. Did you mean --show-actions?',
    });
    expect(parseCommand(['serve', '--prot', '1'])).toMatchObject({
      message: 'Unknown option --prot. Did you mean --port?',
    });
    expect(parseCommand(['--session'])).toMatchObject({
      kind: 'usage-error',
      zh: '选项 --session 的值不对：它需要一个值。',
    });
    expect(parseCommand(['--session', 'a', '--new', 'x'])).toMatchObject({
      kind: 'usage-error',
      message: 'Use either --session ID or --new, not both.',
    });
    expect(parseCommand(['ask'])).toMatchObject({ kind: 'usage-error' });
    expect(parseCommand(['--model', ' ', 'hi'])).toMatchObject({
      kind: 'usage-error',
      message: '--model needs a model name: zhixing --model NAME "<message>".',
    });
    expect(parseCommand(['--model'])).toMatchObject({ kind: 'usage-error' });
  });

  it('leaves a call without a message to the caller: the REPL on a terminal, piped input otherwise', () => {
    expect(parseCommand([])).toMatchObject({ kind: 'repl', chat: false });
    expect(parseCommand(['--json', '--new'])).toMatchObject({
      kind: 'repl',
      chat: false,
      flags: { json: true, new: true },
    });
  });

  it('takes --model for one run', () => {
    expect(parseCommand(['--model', 'deepseek-reasoner', 'hi'])).toMatchObject({
      kind: 'ask',
      message: 'hi',
      flags: { model: 'deepseek-reasoner' },
    });
    expect(parseCommand(['--model=qwen3:8b'])).toMatchObject({ kind: 'repl', flags: { model: 'qwen3:8b' } });
  });

  it('knows sessions, config and chat by their names alone, with the options each takes', () => {
    expect(parseCommand(['sessions'])).toEqual({ kind: 'sessions', json: false });
    expect(parseCommand(['sessions', '--json'])).toEqual({ kind: 'sessions', json: true });
    expect(parseCommand(['config', '--json', '--model', 'm'])).toEqual({
      kind: 'config',
      json: true,
      offline: false,
      model: 'm',
    });
    expect(parseCommand(['chat', '--session', '2'])).toMatchObject({
      kind: 'repl',
      chat: true,
      flags: { session: '2' },
    });
    expect(parseCommand(['sessions', '--new'])).toEqual({
      kind: 'usage-error',
      message: 'zhixing sessions does not take --new (it takes --json).',
      zh: 'zhixing sessions 不接受 --new（它接受 --json）。',
    });
    expect(parseCommand(['chat', '--json'])).toMatchObject({
      kind: 'usage-error',
      message: expect.stringMatching(/^zhixing chat does not take --json/),
    });
    // Followed by more words, the name is part of a message.
    expect(parseCommand(['config', 'my', 'router'])).toMatchObject({ kind: 'ask', message: 'config my router' });
    expect(parseCommand(['ask', 'sessions'])).toMatchObject({ kind: 'ask', message: 'sessions' });
  });

  it('knows the REPL, help, version and the commands that come later', () => {
    expect(parseCommand([])).toMatchObject({ kind: 'repl' });
    expect(parseCommand(['-h'])).toEqual({ kind: 'help' });
    expect(parseCommand(['--version'])).toEqual({ kind: 'version' });
    expect(parseCommand(['eval'])).toEqual({ kind: 'unavailable', name: 'eval' });
  });

  it('parses mcp with the words other agent CLIs use', () => {
    expect(parseCommand(['mcp', 'list'])).toEqual({ kind: 'mcp', action: 'list', json: false });
    expect(parseCommand(['mcp', 'serve', '--yes'])).toEqual({
      kind: 'mcp',
      action: 'serve',
      yes: true,
      offline: false,
    });
    expect(
      parseCommand([
        'mcp',
        'add',
        'everything',
        '-e',
        'A=1',
        '--',
        'npx',
        '-y',
        '@modelcontextprotocol/server-everything',
      ]),
    ).toEqual({
      kind: 'mcp',
      action: 'add',
      name: 'everything',
      transport: 'stdio',
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-everything'],
      env: { A: '1' },
      headers: {},
      timeoutMs: undefined,
    });
    expect(
      parseCommand([
        'mcp',
        'add',
        '--transport',
        'http',
        'remote',
        'http://127.0.0.1:3001/mcp',
        '-H',
        'Authorization: Bearer t',
      ]),
    ).toMatchObject({
      action: 'add',
      transport: 'http',
      url: 'http://127.0.0.1:3001/mcp',
      headers: { Authorization: 'Bearer t' },
    });
    expect(parseCommand(['mcp', 'remove', 'everything'])).toEqual({
      kind: 'mcp',
      action: 'remove',
      name: 'everything',
    });
    expect(
      parseCommand(['mcp', 'add', '--timeout', '5000', '--max-total', '120000', 'slow', '--', 'srv']),
    ).toMatchObject({ action: 'add', timeoutMs: 5000, maxTotalMs: 120_000 });
    expect(parseCommand(['mcp', 'add', '--max-total', '0', 'slow', '--', 'srv'])).toMatchObject({
      kind: 'usage-error',
      message: '--max-total is milliseconds, from 1 to 3600000.',
    });
    expect(parseCommand(['mcp', 'add', 'a1', 'node', 'server.js'])).toMatchObject({
      kind: 'usage-error',
      message: expect.stringMatching(/^Put -- before/),
    });
    expect(parseCommand(['mcp', 'add', 'a1', 'node', '-e', '1'])).toMatchObject({
      kind: 'usage-error',
      message: expect.stringMatching(/^Put -- before the server's command.*zhixing mcp add a1 -- node/),
    });
    for (const bad of [
      ['mcp'],
      ['mcp', 'frob'],
      ['mcp', 'add', 'bad name', '--', 'x'],
      ['mcp', 'add', 'a__b', '--', 'x'],
      ['mcp', 'add', 'ev_', '--', 'x'],
      ['mcp', 'add', 'x'],
      ['mcp', 'add', '-t', 'http', 'x', 'file:///etc'],
      ['mcp', 'add', '-t', 'ftp', 'x', 'u'],
      ['mcp', 'add', '-e', 'noequals', 'x', '--', 'c'],
      ['mcp', 'remove'],
      ['mcp', 'list', 'extra'],
    ]) {
      expect(parseCommand(bad)).toMatchObject({ kind: 'usage-error' });
    }
  });

  it('parses serve with its address options', () => {
    expect(parseCommand(['serve'])).toEqual({ kind: 'serve', host: '127.0.0.1', port: 4317, offline: false });
    expect(parseCommand(['serve', '--port', '0', '--host', '0.0.0.0', '--offline'])).toEqual({
      kind: 'serve',
      host: '0.0.0.0',
      port: 0,
      offline: true,
    });
    expect(parseCommand(['serve', '--port=8080'])).toMatchObject({ kind: 'serve', port: 8080 });
    expect(parseCommand(['serve', '--port', 'http'])).toMatchObject({ kind: 'usage-error' });
    expect(parseCommand(['serve', '--port', '70000'])).toMatchObject({ kind: 'usage-error' });
    expect(parseCommand(['serve', '--json'])).toMatchObject({ kind: 'usage-error' });
    expect(parseCommand(['serve', 'now'])).toMatchObject({ kind: 'usage-error' });
  });
});
