import { describe, expect, it } from 'vitest';
import { cliText } from './messages.js';
import { createStyle } from './style.js';
import { createSlashCommands } from './repl-commands.js';
import { replText } from './repl-text.js';

describe('Tab after /memory and /prefs', () => {
  it('completes the commands, then their verbs', () => {
    const app = { mcp: { list: () => [] } } as never;
    const io = { stdout() {}, stderr() {}, style: createStyle(false), text: cliText('en') };
    const commands = createSlashCommands({
      app,
      io,
      rt: replText('en'),
      catalog: {} as never,
      session: () => 's',
      setSession() {},
      ask: async () => '',
    });
    expect(commands.complete('/me')?.candidates.map((c) => c.value)).toEqual(['/memory']);
    expect(commands.complete('/pr')?.candidates.map((c) => c.value)).toEqual(['/prefs']);
    expect(commands.complete('/memory ')?.candidates.map((c) => c.label)).toEqual(['all', 'search', 'edit', 'delete']);
    expect(commands.complete('/memory s')).toEqual({ start: 8, candidates: [{ value: 'search ', label: 'search' }] });
    expect(commands.complete('/prefs ')?.candidates.map((c) => c.label)).toEqual(['add', 'remove', 'clear']);
  });
});
