import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync, readlinkSync } from 'node:fs';
import os from 'node:os';
import { findProgram } from './find-program.js';

/**
 * The shell's network when it is on: user-mode networking by pasta (Debian's `passt`), attached to
 * the sandbox's own network namespace. A command then reaches the internet through pasta's sockets,
 * and nothing local: not the host's loopback (no gateway mapping, no port forwarding either way),
 * not the private, shared or link-local ranges, not the host's own addresses nor the networks it
 * sits on — each is a `prohibit` route inside the namespace, and a packet filter drops whatever is
 * sent to them past the routes (a socket bound to an interface, a link-local address with its scope:
 * the kernel then takes the address as on the link, and pasta would connect to it from the host).
 * Both are set before the command starts and are out of its reach (it has no capabilities there).
 */

/** How long pasta and `ip` may take to set the network up before the command counts as not started. */
const SETUP_TIMEOUT_MS = 10_000;
/** How much of a failed step's message is kept. */
const MAX_REASON_CHARS = 300;
/**
 * The address the sandbox asks names of; pasta forwards what is sent there on port 53 to the
 * host's own resolver. A documentation address (TEST-NET-3): nothing real answers there otherwise.
 */
export const DNS_FORWARD_ADDRESS = '203.0.113.53';

/** Never reachable from a sandbox with the network on: this host, its networks and everything private. */
export const LOCAL_RANGES = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '224.0.0.0/4',
  '240.0.0.0/4',
  '::/128',
  '::1/128',
  '::ffff:0:0/96',
  '64:ff9b:1::/48',
  'fc00::/7',
  'fe80::/10',
  'fec0::/10',
  'ff00::/8',
];

/** The programs user-mode networking needs, found on PATH or in the system folders. */
export interface UserNetTools {
  pasta: string;
  ip: string;
  nsenter: string;
  nft: string;
}

const SYSTEM_DIRS = ['/usr/bin', '/usr/sbin', '/bin', '/sbin'];

/** pasta, ip and nsenter, or which of them is missing. */
export function findUserNetTools(searchPath: string): UserNetTools | { missing: string } {
  const pasta = findProgram('pasta', searchPath, SYSTEM_DIRS);
  if (!pasta) return { missing: 'pasta (Debian package passt)' };
  const ip = findProgram('ip', searchPath, SYSTEM_DIRS);
  if (!ip) return { missing: 'ip (Debian package iproute2)' };
  const nsenter = findProgram('nsenter', searchPath, SYSTEM_DIRS);
  if (!nsenter) return { missing: 'nsenter (Debian package util-linux)' };
  const nft = findProgram('nft', searchPath, SYSTEM_DIRS);
  if (!nft) return { missing: 'nft (Debian package nftables)' };
  return { pasta, ip, nsenter, nft };
}

/** The filter's table: whatever leaves by an interface other than loopback for a walled-off address is refused. */
const FILTER_TABLE = 'zhixing';

/**
 * The packet filter, for nft: the sandbox's own loopback stays its own, and a packet for any of
 * `blocked` (addresses or CIDRs) that would leave the namespace is refused, whatever route or
 * interface the socket chose.
 */
export function filterRuleset(blocked: string[]): string {
  const v4 = blocked.filter((a) => !a.includes(':'));
  const v6 = blocked.filter((a) => a.includes(':'));
  const set = (name: string, type: string, items: string[]) =>
    `  set ${name} { type ${type}; flags interval; auto-merge;${items.length ? ` elements = { ${items.join(', ')} };` : ''} }\n`;
  return (
    `table inet ${FILTER_TABLE} {\n` +
    set('local4', 'ipv4_addr', v4) +
    set('local6', 'ipv6_addr', v6) +
    '  chain out {\n' +
    '    type filter hook output priority 0; policy accept;\n' +
    '    oifname "lo" accept\n' +
    '    ip daddr @local4 reject\n' +
    '    ip6 daddr @local6 reject\n' +
    '  }\n' +
    '}\n'
  );
}

/** More addresses for the filter, once pasta has attached the networks it copies. */
export function filterAdditions(blocked: string[]): string {
  const v4 = blocked.filter((a) => !a.includes(':'));
  const v6 = blocked.filter((a) => a.includes(':'));
  return [
    ...(v4.length ? [`add element inet ${FILTER_TABLE} local4 { ${v4.join(', ')} }\n`] : []),
    ...(v6.length ? [`add element inet ${FILTER_TABLE} local6 { ${v6.join(', ')} }\n`] : []),
  ].join('');
}

/**
 * The routes that wall the sandbox off: every local range, each network the namespace is attached
 * to split in two halves (more specific than the attached route, so they win over it, while the
 * default route's gateway stays usable for the internet), and the host's own addresses.
 */
export function prohibitedRoutes(attached: string[], hostAddresses: string[]): string[] {
  const halves = attached.flatMap(splitInHalves);
  const own = hostAddresses.map((a) => (a.includes(':') ? `${a}/128` : `${a}/32`));
  return [...new Set([...LOCAL_RANGES, ...halves, ...own])];
}

/** `192.0.2.0/24` → `192.0.2.0/25`, `192.0.2.128/25`; a single address stays as it is. */
export function splitInHalves(cidr: string): string[] {
  const [address, bitsText] = cidr.split('/');
  const v6 = address!.includes(':');
  const width = v6 ? 128 : 32;
  const bits = bitsText === undefined ? width : Number(bitsText);
  if (bits >= width) return [`${address}/${width}`];
  const value = v6 ? parseV6(address!) : parseV4(address!);
  const mask = ((1n << BigInt(bits)) - 1n) << BigInt(width - bits);
  const low = value & mask;
  const high = low | (1n << BigInt(width - bits - 1));
  const show = v6 ? formatV6 : formatV4;
  return [`${show(low)}/${bits + 1}`, `${show(high)}/${bits + 1}`];
}

function parseV4(a: string): bigint {
  return a.split('.').reduce((n, part) => (n << 8n) | BigInt(Number(part)), 0n);
}
function formatV4(n: bigint): string {
  return [24n, 16n, 8n, 0n].map((s) => String((n >> s) & 255n)).join('.');
}
function parseV6(a: string): bigint {
  const [head, tail] = a.split('::') as [string, string | undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = tail === undefined ? h : [...h, ...Array(8 - h.length - t.length).fill('0'), ...t];
  return groups.reduce((n, g) => (n << 16n) | BigInt(parseInt(g || '0', 16)), 0n);
}
function formatV6(n: bigint): string {
  const groups = Array.from({ length: 8 }, (_, i) => ((n >> BigInt(112 - 16 * i)) & 0xffffn).toString(16));
  return groups.join(':');
}

/** Every address of this host (loopback too): the namespace reaches none of them. */
export function hostAddresses(): string[] {
  return Object.values(os.networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address.split('%')[0]!));
}

function run(file: string, args: string[], input?: string, fds: number[] = []): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' },
      stdio: ['pipe', 'pipe', 'pipe', ...fds],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += String(d)));
    child.stderr!.on('data', (d: Buffer) => (stderr += String(d)));
    const timer = setTimeout(() => child.kill('SIGKILL'), SETUP_TIMEOUT_MS);
    child.on('error', (err) => (clearTimeout(timer), reject(err)));
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) return resolve(stdout);
      const said = stderr
        .split('\n')
        .filter((l) => l && !l.startsWith('Failed to send'))
        .join(' ')
        .trim();
      reject(
        new Error(
          `${file.split('/').pop()}: ${(said || `ended with ${code ?? 'a signal'}`).slice(0, MAX_REASON_CHARS)}`,
        ),
      );
    });
    // A program that ends without reading what it was given is answered by its exit code, not by EPIPE.
    child.stdin!.on('error', () => {});
    child.stdin!.end(input ?? '');
  });
}

/** The sandbox's pid, as bubblewrap writes it on its info descriptor (`{"child-pid": 123}`). */
export function sandboxPid(info: NodeJS.ReadableStream): Promise<number> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (d: Buffer) => {
      text += String(d);
      const m = /"child-pid"\s*:\s*(\d+)/.exec(text);
      if (m) {
        info.off('data', onData);
        resolve(Number(m[1]));
      }
    };
    info.on('data', onData);
    info.once('end', () => reject(new Error('bwrap ended before it made the sandbox')));
    info.once('error', reject);
  });
}

export interface AttachOptions {
  tools: UserNetTools;
  /** Where pasta writes its pid, to be ended when the command is. */
  pidFile: string;
}

/** What attaching started: pasta, to end once the command has. */
export interface Attached {
  stop(): void;
}

/**
 * Gives the sandbox whose bubblewrap is `child` its network: pasta attached to its namespace, the
 * local ranges prohibited, then bubblewrap let go on to run the command. Any failure leaves the
 * command unstarted: the caller ends bubblewrap.
 */
export async function attachUserNet(
  child: ChildProcess,
  infoFd: number,
  blockFd: number,
  o: AttachOptions,
): Promise<Attached> {
  const pid = await sandboxPid(child.stdio[infoFd] as NodeJS.ReadableStream);
  // Where bubblewrap made a user namespace (an ordinary user), routes are set from inside it, as its owner.
  const ownUserNs = readlinkSync('/proc/self/ns/user') === readlinkSync(`/proc/${pid}/ns/user`);
  const enter = ['--target', String(pid), '--net', ...(ownUserNs ? [] : ['--user', '--preserve-credentials'])];
  // Set before pasta starts: nothing local is reachable at any moment, however fast pasta is.
  const lines = (routes: string[]) => routes.map((r) => `route add prohibit ${r}\n`).join('');
  const walled = prohibitedRoutes([], hostAddresses());
  await run(o.tools.nsenter, [...enter, o.tools.ip, '-batch', '-'], lines(walled));
  await run(o.tools.nsenter, [...enter, o.tools.nft, '-f', '-'], filterRuleset(walled));
  // pasta as root would drop to nobody, who cannot enter the sandbox's namespaces: it keeps the caller's uid then.
  const asRoot = process.getuid?.() === 0 ? ['--runas', '0'] : [];
  // Opened here and handed over (descriptors 3 and 4): pasta gives up the right to open another
  // process's namespaces before it gets to them, and bubblewrap's child may not be open to it anyway.
  const netns = openSync(`/proc/${pid}/ns/net`, 'r');
  const userns = ownUserNs ? undefined : openSync(`/proc/${pid}/ns/user`, 'r');
  try {
    await run(
      o.tools.pasta,
      [
        ...asRoot,
        '--config-net',
        '--quiet',
        '--no-map-gw',
        '-t',
        'none',
        '-u',
        'none',
        '-T',
        'none',
        '-U',
        'none',
        '--dns-forward',
        DNS_FORWARD_ADDRESS,
        '--pid',
        o.pidFile,
        '--netns',
        '/proc/self/fd/3',
        // A user namespace cannot be entered by who is in it already: then the network namespace alone.
        ...(userns === undefined ? ['--netns-only'] : ['--userns', '/proc/self/fd/4']),
      ],
      undefined,
      userns === undefined ? [netns] : [netns, userns],
    );
  } finally {
    closeSync(netns);
    if (userns !== undefined) closeSync(userns);
  }
  // pasta has gone to the background once the namespace is set up; its pid is in the file.
  const pastaPid = Number(readFileSync(o.pidFile, 'utf8').trim());
  const attached: Attached = {
    stop() {
      try {
        if (pastaPid > 0) process.kill(pastaPid, 'SIGTERM');
      } catch {
        // Gone already.
      }
    },
  };
  try {
    // The networks pasta attached (the host's own, copied): walled off in halves, so the gateway still routes.
    const shown = JSON.parse(await run(o.tools.nsenter, [...enter, o.tools.ip, '-j', 'route', 'show'])) as {
      dst: string;
      type?: string;
    }[];
    const shown6 = JSON.parse(await run(o.tools.nsenter, [...enter, o.tools.ip, '-j', '-6', 'route', 'show'])) as {
      dst: string;
      type?: string;
    }[];
    const attachedNets = [...shown, ...shown6]
      .filter((r) => r.dst !== 'default' && (r.type ?? 'unicast') === 'unicast')
      .map((r) => r.dst);
    const more = prohibitedRoutes(attachedNets, []).filter((r) => !LOCAL_RANGES.includes(r));
    if (more.length) await run(o.tools.nsenter, [...enter, o.tools.ip, '-batch', '-'], lines(more));
    // The filter takes the attached networks whole: it looks at where a packet goes, not at the route.
    const additions = filterAdditions(attachedNets.filter((n) => !LOCAL_RANGES.includes(n)));
    if (additions) await run(o.tools.nsenter, [...enter, o.tools.nft, '-f', '-'], additions);
  } catch (err) {
    attached.stop();
    throw err;
  }
  const block = child.stdio[blockFd] as NodeJS.WritableStream;
  // bubblewrap gone meanwhile (stopped, timed out) is said by its own exit, not by EPIPE here.
  block.on('error', () => {});
  block.end('1');
  return attached;
}
