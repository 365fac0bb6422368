import { describe, expect, it } from 'vitest';
import type { IncomingMessage } from 'node:http';
import { checkServeConfig, createGuards, isLoopback, ServeConfigError } from './guards.js';

describe('isLoopback', () => {
  it('knows the addresses only this machine can reach', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', 'localhost', 'LOCALHOST', '::1', '[::1]'])
      expect(isLoopback(h), h).toBe(true);
    for (const h of ['0.0.0.0', '::', '192.168.1.10', '10.0.0.1', 'example.com', 'localhost.example.com', '128.0.0.1'])
      expect(isLoopback(h), h).toBe(false);
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
  const request = (host: string) =>
    ({ method: 'GET', url: '/api/health', headers: { host } }) as unknown as IncomingMessage;

  it('takes the loopback address it is bound to as its own name, and still refuses others', () => {
    const guards = createGuards({ host: '127.0.0.2', port: 4400 });
    expect(guards.check(request('127.0.0.2:4400'))).toBeUndefined();
    expect(guards.check(request('127.0.0.1:4400'))).toBeUndefined();
    expect(guards.check(request('evil.example:4400'))?.status).toBe(403);
    expect(guards.check(request('127.0.0.3:4400'))?.status).toBe(403);
  });
});

describe('the guard policy', () => {
  const TOKEN = 'a-long-enough-test-token-0123456789';
  const request = (headers: Record<string, string>) =>
    ({ method: 'GET', url: '/', headers: { host: '10.0.0.5:4400', ...headers } }) as unknown as IncomingMessage;

  it('lets public requests through without the token, but not past the Origin check', () => {
    const guards = createGuards({ host: '0.0.0.0', port: 4400, token: TOKEN });
    expect(guards.check(request({}))?.status).toBe(401);
    expect(guards.check(request({}), { public: true })).toBeUndefined();
    expect(guards.check(request({ origin: 'https://evil.example' }), { public: true })?.status).toBe(403);
  });

  it('takes a larger declared body only where the caller allows it', () => {
    const guards = createGuards({ host: '127.0.0.1', port: 4400 });
    const big = {
      method: 'POST',
      url: '/api/files',
      headers: { host: '127.0.0.1:4400', 'content-length': String(2 * 1024 * 1024) },
    } as unknown as IncomingMessage;
    expect(guards.check(big)?.status).toBe(413);
    expect(guards.check(big, { maxBodyBytes: 25 * 1024 * 1024 })).toBeUndefined();
  });
});
