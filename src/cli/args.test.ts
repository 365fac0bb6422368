import { describe, expect, it } from 'vitest';
import { parseCommand } from './args.js';

describe('parseCommand', () => {
  it('reads a one-shot message with its options, in any order', () => {
    expect(parseCommand(['--json', '帮我算一下', '(3+5)*2'])).toMatchObject({ kind: 'ask', message: '帮我算一下 (3+5)*2', flags: { json: true } });
    expect(parseCommand(['ask', 'hello', '--new', '--show-actions'])).toMatchObject({ kind: 'ask', message: 'hello', flags: { new: true, showActions: true } });
    expect(parseCommand(['--session', 'ses_1', 'hi'])).toMatchObject({ kind: 'ask', flags: { session: 'ses_1' } });
  });

  it('takes a message that starts with a minus sign as text, not an option', () => {
    expect(parseCommand(['-3+5'])).toMatchObject({ kind: 'ask', message: '-3+5' });
    expect(parseCommand(['--json', '-5 度算冷吗'])).toMatchObject({ kind: 'ask', message: '-5 度算冷吗', flags: { json: true } });
    expect(parseCommand(['--', '--literal'])).toMatchObject({ kind: 'ask', message: '--literal' });
  });

  it('says what is wrong with bad usage', () => {
    expect(parseCommand(['--frobnicate'])).toMatchObject({ kind: 'usage-error' });
    expect(parseCommand(['--session', 'a', '--new', 'x'])).toMatchObject({ kind: 'usage-error', message: 'Use either --session ID or --new, not both.' });
    expect(parseCommand(['--json'])).toMatchObject({ kind: 'usage-error' });
    expect(parseCommand(['ask'])).toMatchObject({ kind: 'usage-error' });
  });

  it('knows the REPL, help, version and the commands that come later', () => {
    expect(parseCommand([])).toMatchObject({ kind: 'repl' });
    expect(parseCommand(['-h'])).toEqual({ kind: 'help' });
    expect(parseCommand(['--version'])).toEqual({ kind: 'version' });
    expect(parseCommand(['mcp', 'list'])).toEqual({ kind: 'unavailable', name: 'mcp' });
  });

  it('parses serve with its address options', () => {
    expect(parseCommand(['serve'])).toEqual({ kind: 'serve', host: '127.0.0.1', port: 4317, offline: false });
    expect(parseCommand(['serve', '--port', '0', '--host', '0.0.0.0', '--offline'])).toEqual({ kind: 'serve', host: '0.0.0.0', port: 0, offline: true });
    expect(parseCommand(['serve', '--port=8080'])).toMatchObject({ kind: 'serve', port: 8080 });
    expect(parseCommand(['serve', '--port', 'http'])).toMatchObject({ kind: 'usage-error' });
    expect(parseCommand(['serve', '--port', '70000'])).toMatchObject({ kind: 'usage-error' });
    expect(parseCommand(['serve', '--json'])).toMatchObject({ kind: 'usage-error' });
    expect(parseCommand(['serve', 'now'])).toMatchObject({ kind: 'usage-error' });
  });
});
