import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { policyDispatcher, policyFetch } from './fetch.js';
import { checkUrl, checkUrlResolved, NetworkPolicyError, privateRange, type NetworkPolicy } from './policy.js';

let server: http.Server;
let port: number;
let served = 0;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    served++;
    const hop = /^\/hop\/(\d+)$/.exec(req.url ?? '');
    if (hop) {
      res.writeHead(302, { location: `/hop/${Number(hop[1]) + 1}` });
      res.end();
    } else if (req.url?.startsWith('/to?')) {
      res.writeHead(302, { location: decodeURIComponent(req.url.slice(4)) });
      res.end();
    } else res.end('SECRET');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => server.close());

/** Lets exactly the test server's own 127.0.0.1:port through, as a stand-in for a public host. */
const trusting = (extra: Partial<NetworkPolicy> = {}): NetworkPolicy => ({
  allowPrivate: false,
  allowAddress: (address, p) => address === '127.0.0.1' && p === port,
  ...extra,
});

async function refused(url: string, policy: NetworkPolicy): Promise<NetworkPolicyError> {
  const dispatcher = policyDispatcher(policy);
  const before = served;
  try {
    const result = await policyFetch(url, { policy, dispatcher });
    throw new Error(`reached ${url}: ${await result.response.text()}`);
  } catch (err) {
    expect(err).toBeInstanceOf(NetworkPolicyError);
    expect(served, `the server saw a request for ${url}`).toBe(before);
    return err as NetworkPolicyError;
  } finally {
    await dispatcher.close();
  }
}

describe('the network policy', () => {
  it('classifies addresses: public unicast passes, every private range is named', () => {
    for (const a of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '93.184.216.34'])
      expect(privateRange(a), a).toBeUndefined();
    const blocked = [
      '127.0.0.1',
      '127.255.255.254',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '100.100.100.200',
      '0.0.0.0',
      '0.1.2.3',
      '224.0.0.1',
      '255.255.255.255',
      '198.18.0.1',
      '::1',
      '::',
      'fe80::1',
      'fd00:ec2::254',
      'fc00::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:169.254.169.254',
      '::127.0.0.1',
      '64:ff9b::7f00:1',
      '2002:7f00:1::1',
      '2001:db8::1',
    ];
    for (const a of blocked) expect(privateRange(a), a).toBeDefined();
  });

  it('refuses every spelling of loopback before a connection is made', async () => {
    const spellings = [
      '127.0.0.1',
      '127.1',
      '2130706433',
      '0x7f000001',
      '0x7f.0.0.1',
      '0177.0.0.1',
      '017700000001',
      '127.0.1',
      '[::ffff:127.0.0.1]',
      '[0:0:0:0:0:ffff:127.0.0.1]',
      '[::ffff:7f00:1]',
      '[::1]',
      '[::]',
      '0',
      '0.0.0.0',
      '127。0。0。1',
      '①②⑦.0.0.1',
      'localhost',
      'LOCALHOST.',
      '[::127.0.0.1]',
    ];
    for (const host of spellings) {
      const err = await refused(`http://${host}:${port}/`, { allowPrivate: false });
      expect(err.reason, host).toMatch(/address|resolve/);
    }
  });

  it('refuses schemes other than http and https', () => {
    for (const url of [
      'file:///etc/passwd',
      'ftp://example.com/',
      'gopher://127.0.0.1:70/',
      'data:text/plain,hi',
      'javascript:alert(1)',
    ]) {
      expect(() => checkUrl(url, { allowPrivate: false }), url).toThrow(/Only http and https/);
    }
  });

  it('checks the address a name resolves to, every answer of it', async () => {
    const policy = trusting({ lookup: async () => [{ address: '169.254.169.254', family: 4 }] });
    await expect(checkUrlResolved('http://metadata.example/', policy)).rejects.toThrow(/link-local/);
    const mixed = trusting({
      lookup: async () => [
        { address: '93.184.216.34', family: 4 },
        { address: '10.0.0.1', family: 4 },
      ],
    });
    await expect(checkUrlResolved('http://mixed.example/', mixed)).rejects.toThrow(/private network/);
    // A public-looking name pointing at loopback: refused at connect time though the URL looks fine.
    const rebinding = { allowPrivate: false, lookup: async () => [{ address: '127.0.0.1', family: 4 }] };
    await refused(`http://public.example:${port}/`, rebinding);
  });

  it('lets the allowed address through, and checks every redirect hop', async () => {
    const policy = trusting();
    const dispatcher = policyDispatcher(policy);
    try {
      const ok = await policyFetch(`http://127.0.0.1:${port}/`, { policy, dispatcher });
      expect(await ok.response.text()).toBe('SECRET');
      const hops = await policyFetch(`http://127.0.0.1:${port}/hop/0`, { policy, dispatcher, maxRedirects: 5 }).catch(
        (e) => e,
      );
      expect(hops).toBeInstanceOf(NetworkPolicyError);
      expect((hops as NetworkPolicyError).reason).toBe('redirects');
    } finally {
      await dispatcher.close();
    }
    // An allowed host redirecting to another spelling of loopback, another port, or metadata: refused.
    for (const target of [
      `http://2130706434:${port}/`,
      `http://0x7f000002:${port}/`,
      `http://127.0.0.1:${port + 1}/`,
      'http://169.254.169.254/latest/meta-data/',
      `http://[::1]:${port}/`,
      'file:///etc/passwd',
    ]) {
      const before = served;
      const dispatcher2 = policyDispatcher(policy);
      const err = await policyFetch(`http://127.0.0.1:${port}/to?${encodeURIComponent(target)}`, {
        policy,
        dispatcher: dispatcher2,
      }).catch((e) => e);
      await dispatcher2.close();
      expect(err, target).toBeInstanceOf(NetworkPolicyError);
      expect(served - before, target).toBe(1);
    }
  });

  it('allows everything once private networks are allowed', async () => {
    const policy = { allowPrivate: true };
    const dispatcher = policyDispatcher(policy);
    const res = await policyFetch(`http://127.1:${port}/`, { policy, dispatcher });
    expect(await res.response.text()).toBe('SECRET');
    await dispatcher.close();
  });
});
