import { describe, expect, it } from 'vitest';
import type { Rules, RulesEditing } from '../permission/rule-edits.js';
import { permissionsCommand } from './permissions-command.js';

/** The service's side as the rules engine gives it: defaults under the user's keys, a check that can refuse. */
function fakeService(initial: Rules = {}): RulesEditing & { saved: Rules[] } {
  // The real service is in src/permission/permission.ts; this one keeps the test to the command's words.
  let rules = initial;
  const remembered = [{ tool: 'file_write', pattern: '/w/notes.md', decision: 'allow' as const, createdAt: 1 }];
  const saved: Rules[] = [];
  return {
    saved,
    rules: () => rules,
    effective: () => ({ shell: 'ask', ...rules }),
    setRules(next) {
      if (Object.values(next).some((v) => typeof v === 'object' && '' in v))
        throw new Error('shell: a pattern cannot be empty.');
      rules = next;
      saved.push(next);
    },
    remembered: () => [...remembered],
    forget(tool, pattern) {
      const i = remembered.findIndex((r) => r.tool === tool && r.pattern === pattern);
      if (i >= 0) remembered.splice(i, 1);
      return i >= 0;
    },
  };
}

describe('/permissions', () => {
  it("lists the rules by tool, the user's marked and the defaults said to be, and the remembered answers numbered", () => {
    const { text } = permissionsCommand(
      fakeService({ file_write: 'ask', web_fetch: { 'https://x.org/*': 'allow', '*': 'deny' } }),
      '',
      'en',
    );
    expect(text).toBe(
      [
        'Permission rules (* yours; the rest are defaults):',
        '  file_write  ask   *',
        '  shell       ask   (default)',
        '  web_fetch *',
        '    https://x.org/*  allow',
        '    *                deny',
        '  Tools no rule names: allow (inside the workspace only)',
        '',
        'Remembered answers (/permissions forget N forgets one):',
        '  1. file_write /w/notes.md · allow',
      ].join('\n'),
    );
  });

  it('sets a rule with a pattern that has spaces, keeping the default as "*", and removes it again', () => {
    const s = fakeService();
    expect(permissionsCommand(s, ' deny shell curl  -s *', 'en')).toEqual({
      text: 'Set: shell › curl  -s * → deny (saved to config.json).',
    });
    expect(s.rules()).toEqual({ shell: { '*': 'ask', 'curl  -s *': 'deny' } });
    expect(permissionsCommand(s, 'remove shell curl  -s *', 'zh')).toEqual({
      text: '已删除规则 shell › curl  -s *（已保存到 config.json）。',
    });
    expect(s.rules()).toEqual({ shell: { '*': 'ask' } });
    expect(permissionsCommand(s, 'remove file_write', 'en')).toEqual({
      text: 'You have no rule file_write.',
      error: true,
    });
  });

  it('forgets a remembered answer by its number, and says what is wrong with a bad one or a refused rule', () => {
    const s = fakeService();
    expect(permissionsCommand(s, 'forget 2', 'en')).toEqual({
      text: 'There is no remembered answer number 2 (there is 1).',
      error: true,
    });
    expect(permissionsCommand(s, 'forget 1', 'en')).toEqual({ text: 'Forgotten: file_write on /w/notes.md.' });
    expect(s.remembered()).toEqual([]);
    expect(permissionsCommand(s, 'maybe shell', 'en').error).toBe(true);
  });
});
