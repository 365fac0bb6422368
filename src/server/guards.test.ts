import { describe, expect, it } from 'vitest';
import type { IncomingMessage } from 'node:http';
import { checkServeConfig, createGuards, isLoopback, ServeConfigError } from './guards.js';

describe('isLoopback', () => {
  it('knows the addresses only this machine can reach', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', 'localhost', 'LOCALHOST', '::1', '[::1]']) expect(isLoopback(h), h).toBe(true);
    for (const h of ['0.0.0.0', '::', '192.168.1.10', '10.0.0.1', 'example.com', 'localhost.example.com', '128.0.0.1']) expect(isLoopback(h), h).toBe(false);
  });
});

describe('checkServeConfig', () => {
  it('needs a token off loopback, and a long one whenever one is set', () => {
    expect(() => checkServeConfig('127.0.0.1', undefined)).not.toThrow();
    expect(() => checkServeConfig('0.0.0.0', undefined)).toThrow(ServeConfigError);
    expect(() => checkServeConfig('192.168.1.10', 'x'.repeat(32))).not.toThrow();
    expect(() => checkServeConfig('127.0.0.1', 'secret')).toThrow(/too short \(6 characters\)/);
  });
});

describe('createGuards', () => {
  const request = (host: string) => ({ method: 'GET', url: '/api/health', headers: { host } }) as unknown as IncomingMessage;

  it('takes the loopback address it is bound to as its own name, and still refuses others', () => {
    const guards = createGuards({ host: '127.0.0.2', port: 4400 });
    expect(guards.check(request('127.0.0.2:4400'))).toBeUndefined();
    expect(guards.check(request('127.0.0.1:4400'))).toBeUndefined();
    expect(guards.check(request('evil.example:4400'))?.status).toBe(403);
    expect(guards.check(request('127.0.0.3:4400'))?.status).toBe(403);
  });
});
