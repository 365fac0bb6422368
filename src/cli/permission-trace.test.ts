import { describe, expect, it } from 'vitest';
import type { PermissionRecord } from '../contract/permission.js';
import { permissionNote } from './permission-trace.js';
import { traceLine } from './printer.js';
import { createStyle } from './style.js';

const rec = (r: Partial<PermissionRecord>): PermissionRecord => ({
  action: 'file.write',
  target: '/w/notes.md',
  decision: 'allow',
  by: 'rule',
  ...r,
});

describe('the trace says how a call was let through or refused', () => {
  it('names the rule that allowed a write, and says nothing of a read the default rule allows', () => {
    expect(permissionNote([rec({ rule: 'file_write' })], undefined, 'en')).toBe('allowed by rule file_write');
    expect(permissionNote([rec({})], undefined, 'en')).toBe('');
    expect(permissionNote([rec({ action: 'file.read', rule: 'file_read' })], undefined, 'en')).toBe('');
    expect(permissionNote(undefined, undefined, 'en')).toBe('');
  });

  it('names the rule and pattern that refused, and says only that', () => {
    const records = [
      rec({ action: 'file.read' }),
      rec({ action: 'shell.run', target: 'curl x', decision: 'deny', rule: 'shell › curl *' }),
    ];
    expect(permissionNote(records, undefined, 'en')).toBe('denied by rule shell › curl *');
    expect(permissionNote(records, undefined, 'zh')).toBe('被规则 shell › curl * 拒绝');
  });

  it("tells the user's own answer from --yes, from nobody being there to ask", () => {
    expect(permissionNote([rec({ by: 'user' })], undefined, 'en')).toBe('you allowed it');
    expect(permissionNote([rec({ by: 'user', decision: 'deny' })], undefined, 'en')).toBe('you declined');
    expect(permissionNote([rec({ by: 'yes' })], undefined, 'en')).toBe('approved by --yes');
    expect(permissionNote([rec({ by: 'no-host', decision: 'deny' })], undefined, 'en')).toBe(
      'nobody to ask, refused (--yes approves)',
    );
    expect(permissionNote([rec({ by: 'user' })], undefined, 'zh')).toBe('你允许了');
  });

  it('says why a refused ask had to ask, when the rules alone would have allowed it', () => {
    const why =
      'Outside content entered this turn (web_fetch (https://a.example/)) and may hold instructions; a person must approve it.';
    expect(
      permissionNote([rec({ action: 'web.fetch', by: 'no-host', decision: 'deny', reason: why })], undefined, 'en'),
    ).toBe(`nobody to ask, refused (--yes approves) · ${why}`);
  });

  it('says a write replaced a file that was there, once per line', () => {
    const records = [rec({ rule: 'file_write' }), rec({ rule: 'file_write' }), rec({ action: 'file.read' })];
    expect(permissionNote(records, { created: false }, 'en')).toBe(
      'allowed by rule file_write · overwrote an existing file',
    );
    expect(permissionNote(records, { created: true }, 'en')).toBe('allowed by rule file_write');
  });

  it("keeps a rule's control characters off the terminal, at the end of the trace line", () => {
    const line = traceLine(
      {
        tool: 'shell',
        input: { command: 'curl x' },
        ok: false,
        output: 'Error: refused',
        ms: 1,
        permission: [rec({ decision: 'deny', rule: 'shell › curl\x1b[2J *' })],
      },
      createStyle(false),
    );
    expect(line).toBe('🔧 shell {"command":"curl x"} ✗ refused (1.0 ms) · denied by rule shell › curl *');
  });
});
