import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { findProgram } from './find-program.js';
import { filterAdditions, filterRuleset, LOCAL_RANGES, prohibitedRoutes, splitInHalves } from './user-net.js';

describe('the routes that wall a user-mode network off', () => {
  it('splits an attached network in halves, more specific than its own route, so the halves win', () => {
    expect(splitInHalves('192.0.2.0/24')).toEqual(['192.0.2.0/25', '192.0.2.128/25']);
    expect(splitInHalves('10.1.2.3/8')).toEqual(['10.0.0.0/9', '10.128.0.0/9']);
    expect(splitInHalves('fd00::/64')).toEqual(['fd00:0:0:0:0:0:0:0/65', 'fd00:0:0:0:8000:0:0:0/65']);
    expect(splitInHalves('192.0.2.7/32')).toEqual(['192.0.2.7/32']);
  });

  it("prohibits every local range, the attached networks and the host's own addresses", () => {
    const routes = prohibitedRoutes(['192.0.2.0/24'], ['192.0.2.2', 'fd00::2', '127.0.0.1']);
    for (const r of [
      '10.0.0.0/8',
      '172.16.0.0/12',
      '192.168.0.0/16',
      '100.64.0.0/10',
      '169.254.0.0/16',
      'fc00::/7',
      'fe80::/10',
      '::ffff:0:0/96',
    ]) {
      expect(LOCAL_RANGES).toContain(r);
      expect(routes).toContain(r);
    }
    expect(routes).toEqual(expect.arrayContaining(['192.0.2.0/25', '192.0.2.128/25', '192.0.2.2/32', 'fd00::2/128']));
  });
});

describe('the packet filter behind the routes', () => {
  it('refuses every walled-off address on any interface but loopback, in a ruleset nft reads', () => {
    const ruleset = filterRuleset(prohibitedRoutes([], ['192.0.2.2', 'fe80::1']));
    expect(ruleset).toMatch(
      /type filter hook output priority 0; policy accept;\n\s+oifname "lo" accept\n\s+ip daddr @local4 reject\n\s+ip6 daddr @local6 reject/,
    );
    expect(ruleset).toMatch(
      /set local4 \{ type ipv4_addr; flags interval; auto-merge; elements = \{ [^}]*127\.0\.0\.0\/8[^}]*192\.0\.2\.2\/32/,
    );
    expect(ruleset).toMatch(
      /set local6 \{ type ipv6_addr; flags interval; auto-merge; elements = \{ [^}]*fe80::\/10[^}]*fe80::1\/128/,
    );
    expect(filterAdditions(['192.0.2.0/24', 'fd00::/64'])).toBe(
      'add element inet zhixing local4 { 192.0.2.0/24 }\nadd element inet zhixing local6 { fd00::/64 }\n',
    );
    expect(filterAdditions([])).toBe('');
  });

  const nft = findProgram('nft', process.env.PATH ?? '', ['/usr/sbin', '/sbin']);
  it.skipIf(!nft || !findProgram('unshare', process.env.PATH ?? '', ['/usr/bin']))(
    'is a ruleset nft accepts, overlapping addresses and all',
    () => {
      const ruleset = filterRuleset(prohibitedRoutes(['192.0.2.0/24'], ['192.0.2.2', '127.0.0.1', 'fe80::1']));
      const r = spawnSync('unshare', ['-rn', nft!, '-c', '-f', '-'], {
        input: ruleset + filterAdditions(['192.0.2.0/24', 'fe80::/64']),
        encoding: 'utf8',
      });
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
    },
  );
});
