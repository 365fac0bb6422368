import { describe, expect, it } from 'vitest';
import { createPermissionPolicy } from './permission.js';

describe('the permission policy', () => {
  it('allows inside the sandbox and refuses outside it, with or without --yes', async () => {
    for (const autoApprove of [false, true]) {
      const policy = createPermissionPolicy({ autoApprove });
      expect(await policy.ask({ action: 'file.write', target: '/home/u/.zhixing/workspace/a.txt', insideSandbox: true }, 's')).toBe('allow');
      expect(await policy.ask({ action: 'file.write', target: '/etc/passwd', insideSandbox: false }, 's')).toBe('deny');
    }
  });
});
