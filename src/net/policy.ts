/**
 * Where the open-web tools may connect: http and https to public addresses only, unless the user
 * lifts it (ZHIXING_ALLOW_PRIVATE_NETWORK=1). One module for web_fetch and the browser.
 *
 * Checking a URL's host before the request is not enough: `127.1`, `2130706433`, `0x7f000001` and
 * `[::ffff:127.0.0.1]` are all loopback, a public name can resolve to a private address (or change
 * its answer between a check and the connection), and a redirect can point anywhere. So the check
 * runs on the address actually connected, on every hop: names are resolved by a lookup that refuses
 * private answers before a connection is tried, and the socket's remote address is checked again
 * once connected.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type Socket } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Ranges as ipaddr.js names them, in words a user reads in a refusal. */
const RANGE_WORDS: Record<string, string> = {
  loopback: 'a loopback address (this machine)',
  private: 'a private network address',
  linkLocal: 'a link-local address (where cloud metadata services live)',
  carrierGradeNat: 'a carrier-grade NAT address (where some cloud metadata services live)',
  uniqueLocal: 'an IPv6 unique-local address',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
  unspecified: 'an unspecified address (0.0.0.0 reaches this machine)',
  reserved: 'a reserved address',
  ipv4Compatible: 'an IPv4-compatible IPv6 address',
};

/** How a lookup reports its answers, as `dns.lookup` with `{ all: true }` does. */
export type LookupAll = (hostname: string) => Promise<LookupAddress[]>;

export interface NetworkPolicy {
  /** Loopback and private addresses allowed too: ZHIXING_ALLOW_PRIVATE_NETWORK=1. */
  allowPrivate: boolean;
  /** Resolves a name to every address it has. Default: the system resolver (`dns.lookup`). */
  lookup?: LookupAll;
  /** One non-public address and port let through though `allowPrivate` is off (a test's own server). */
  allowAddress?: (address: string, port: number) => boolean;
}

export type PolicyRefusal = 'scheme' | 'address' | 'redirects' | 'resolve';

/** A request the policy refused: the message says what was refused and how to allow it, when it may be. */
export class NetworkPolicyError extends Error {
  override name = 'NetworkPolicyError';
  constructor(
    message: string,
    readonly reason: PolicyRefusal,
    readonly url?: string,
  ) {
    super(message);
  }
}

const systemLookup: LookupAll = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))),
  );

/** `brackets` off an IPv6 host as URL.hostname keeps them. */
export const bareHost = (hostname: string): string =>
  hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;

/**
 * Why an address is not public, in words, or undefined for a public unicast address. IPv4 inside
 * IPv6 (mapped, NAT64, 6to4, IPv4-compatible) is judged by the IPv4 address it carries.
 */
export function privateRange(address: string): string | undefined {
  const bare = bareHost(address);
  if (!ipaddr.isValid(bare)) return 'not an IP address';
  let parsed = ipaddr.parse(bare);
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) parsed = v6.toIPv4Address();
    else {
      const range = v6.range();
      const parts = v6.parts;
      // ::a.b.c.d (deprecated IPv4-compatible form) reaches the IPv4 address on some stacks.
      if (range === 'unicast' && parts.slice(0, 6).every((p) => p === 0)) return RANGE_WORDS.ipv4Compatible;
      if (range === 'rfc6052' || range === '6to4' || range === 'teredo' || range === 'rfc6145') {
        return `an IPv6 address carrying an IPv4 one (${range})`;
      }
    }
  }
  const range = parsed.range();
  if (range === 'unicast') return undefined;
  return RANGE_WORDS[range] ?? `a ${range} address`;
}

function addressRefusal(address: string, host: string, why: string, url?: string): NetworkPolicyError {
  const shown = host && bareHost(host) !== bareHost(address) ? `${host} (${address})` : address;
  return new NetworkPolicyError(
    `Refused to connect to ${shown}: it is ${why}. Web tools reach public addresses only; set ZHIXING_ALLOW_PRIVATE_NETWORK=1 to allow local and private networks.`,
    'address',
    url,
  );
}

/** Throws when the policy does not let a connection to this address and port through. */
export function checkAddress(address: string, port: number, policy: NetworkPolicy, host = '', url?: string): void {
  if (policy.allowPrivate) return;
  const why = privateRange(address);
  if (why === undefined) return;
  if (policy.allowAddress?.(bareHost(address), port)) return;
  throw addressRefusal(address, host, why, url);
}

/** The port a URL connects to. */
export const urlPort = (url: URL): number => (url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80);

/**
 * Checks what can be checked without the network: the scheme (http and https only) and, when the
 * host is an IP address in any spelling the URL parser accepts, that address.
 */
export function checkUrl(input: string | URL, policy: NetworkPolicy): URL {
  let url: URL;
  try {
    url = typeof input === 'string' ? new URL(input) : input;
  } catch {
    throw new NetworkPolicyError(`Not a valid URL: ${String(input).slice(0, 200)}`, 'scheme');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new NetworkPolicyError(
      `Only http and https URLs can be opened, not ${url.protocol.replace(/:$/, '')}:.`,
      'scheme',
      url.href,
    );
  }
  const host = bareHost(url.hostname);
  if (isIP(host)) checkAddress(host, urlPort(url), policy, url.hostname, url.href);
  return url;
}

/**
 * Resolves the URL's host and checks every address it has (a name with one private answer among
 * public ones is refused: which one the client picks is not ours to choose). For clients that
 * connect on their own, such as the browser; web_fetch checks the connected socket instead.
 */
export async function checkUrlResolved(input: string | URL, policy: NetworkPolicy): Promise<URL> {
  const url = checkUrl(input, policy);
  if (policy.allowPrivate) return url;
  const host = bareHost(url.hostname);
  if (isIP(host)) return url;
  const addresses = await resolveChecked(host, urlPort(url), policy, url.href);
  void addresses;
  return url;
}

async function resolveChecked(
  host: string,
  port: number,
  policy: NetworkPolicy,
  url?: string,
): Promise<LookupAddress[]> {
  let addresses: LookupAddress[];
  try {
    addresses = await (policy.lookup ?? systemLookup)(host);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new NetworkPolicyError(`Could not find the server ${host}${code ? ` (${code})` : ''}.`, 'resolve', url);
  }
  if (addresses.length === 0) throw new NetworkPolicyError(`Could not find the server ${host}.`, 'resolve', url);
  for (const a of addresses) checkAddress(a.address, port, policy, host, url);
  return addresses;
}

/**
 * A `lookup` for `net.connect`/`tls.connect` that refuses private answers before any connection is
 * tried. Node calls it only for names; IP literals are checked by `checkSocket` and `checkUrl`.
 */
export function policyLookup(policy: NetworkPolicy, port: () => number) {
  return (
    hostname: string,
    options: { all?: boolean; family?: number } | number,
    callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ): void => {
    resolveChecked(hostname, port(), policy).then(
      (addresses) => {
        const wantAll = typeof options === 'object' && options.all;
        if (wantAll) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (err: Error) => callback(Object.assign(err, { code: 'EZHIXINGPOLICY' }) as NodeJS.ErrnoException, '', 0),
    );
  };
}

/** Checks the address a socket actually connected to; destroys it and throws when refused. */
export function checkSocket(socket: Socket, policy: NetworkPolicy, host: string): void {
  const address = socket.remoteAddress;
  const port = socket.remotePort ?? 0;
  if (!address) {
    socket.destroy();
    throw new NetworkPolicyError(`The connection to ${host} closed before it could be checked.`, 'address');
  }
  try {
    checkAddress(address, port, policy, host);
  } catch (err) {
    socket.destroy();
    throw err;
  }
}
