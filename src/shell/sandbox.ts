import { execFile, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { BLOCK_FD, bwrapArgs, INFO_FD, type ContainOptions } from './bwrap.js';
import { findProgram } from './find-program.js';
import { seatbeltArgs, seatbeltProfile } from './seatbelt.js';
import { attachUserNet, DNS_FORWARD_ADDRESS, findUserNetTools, type UserNetTools } from './user-net.js';

export { findProgram };

/** How long the trial run may take before the sandbox counts as not working. */
const PROBE_TIMEOUT_MS = 5_000;
/** How much of a failed trial's message is kept as the reason. */
const MAX_REASON_CHARS = 300;

/** What containment the shell runs in on this machine, found by trying it. */
export interface SandboxInfo {
  kind: 'bwrap' | 'sandbox-exec' | 'none';
  /** False when no sandbox works: then every shell command asks, whatever the rules. */
  ok: boolean;
  /** Why it does not work (not installed, no user namespaces…). */
  reason?: string;
  /** The sandbox program's path. */
  program?: string;
  /**
   * The network commands get (absent: off). `off`: none (the setting is off, or user-mode networking is missing, see
   * `networkReason`); `user-mode`: the internet through pasta, nothing local; `host`: the machine's own
   * network, local addresses included (macOS, where there is no user-mode network to give; or no sandbox at all).
   */
  network?: NetworkKind;
  /** Why the network is off although the setting asked for it. */
  networkReason?: string;
  /** The programs user-mode networking runs, when it is in force. */
  userNet?: UserNetTools;
}

export type NetworkKind = 'off' | 'user-mode' | 'host';

export interface DetectOptions {
  /** PATH to look for bwrap in: the one commands get. */
  searchPath: string;
  /** The network setting: with it off, the trial also makes a network namespace. */
  network: boolean;
  platform?: NodeJS.Platform;
}

function trial(file: string, args: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: PROBE_TIMEOUT_MS, env: { PATH: '/usr/bin:/bin' } }, (err, _stdout, stderr) => {
      if (!err) return resolve(undefined);
      const said = String(stderr).trim().split('\n')[0] ?? '';
      resolve((said || err.message).slice(0, MAX_REASON_CHARS));
    });
  });
}

/**
 * Finds out what containment works here by running `true` in it, with the namespaces a real command
 * gets: bubblewrap on Linux, sandbox-exec on macOS. Installed is not enough; a container without
 * user namespaces, say, has bwrap but cannot use it.
 */
export async function detectSandbox(o: DetectOptions): Promise<SandboxInfo> {
  const platform = o.platform ?? process.platform;
  if (platform === 'linux') {
    const program = findProgram('bwrap', o.searchPath);
    // Never the host's network on Linux: it holds every loopback service, Zhixing's own API included.
    const tools = o.network ? findUserNetTools(o.searchPath) : undefined;
    const net: Pick<SandboxInfo, 'network' | 'networkReason' | 'userNet'> = !tools
      ? { network: 'off' }
      : 'missing' in tools
        ? {
            network: 'off',
            networkReason: `the network is on in the settings, but ${tools.missing} is not installed, so commands get none`,
          }
        : { network: 'user-mode', userNet: tools };
    // Without a sandbox a command runs on the machine itself, its network and all (and each one asks first).
    if (!program) return { kind: 'none', ok: false, reason: 'bubblewrap (bwrap) is not installed', network: 'host' };
    const args = [
      '--ro-bind',
      '/',
      '/',
      '--dev',
      '/dev',
      '--proc',
      '/proc',
      '--tmpfs',
      '/tmp',
      '--unshare-pid',
      '--unshare-ipc',
      '--unshare-uts',
      '--die-with-parent',
      '--new-session',
      '--cap-drop',
      'ALL',
      '--unshare-net',
      '--',
      'true',
    ];
    const failed = await trial(program, args);
    return failed
      ? { kind: 'bwrap', ok: false, reason: `bwrap does not work here: ${failed}`, program, network: 'host' }
      : { kind: 'bwrap', ok: true, program, ...net };
  }
  if (platform === 'darwin') {
    const program = findProgram('sandbox-exec', '/usr/bin');
    const network: NetworkKind = o.network ? 'host' : 'off';
    if (!program) return { kind: 'none', ok: false, reason: 'sandbox-exec is not available', network: 'host' };
    const failed = await trial(program, ['-p', '(version 1)(allow default)', '/usr/bin/true']);
    return failed
      ? {
          kind: 'sandbox-exec',
          ok: false,
          reason: `sandbox-exec does not work here: ${failed}`,
          program,
          network: 'host',
        }
      : { kind: 'sandbox-exec', ok: true, program, network };
  }
  return { kind: 'none', ok: false, reason: `no sandbox is supported on ${platform}`, network: 'host' };
}

/** The first trial's answer, for the life of whoever holds it: the machine does not change under a running process. */
export function sandboxProbe(o: DetectOptions): () => Promise<SandboxInfo> {
  let found: Promise<SandboxInfo> | undefined;
  return () => (found ??= detectSandbox(o));
}

/** How to start a command: what goes before the shell, and the temporary folder it gets. */
export interface Launch {
  /** The sandbox program and its arguments; empty without a sandbox. */
  prefix: string[];
  /** TMPDIR for the command. */
  tmpdir: string;
  /** Pipes the sandbox program gets beyond standard output and error (bubblewrap's info and block descriptors). */
  pipes?: number;
  /** Run once the sandbox program has started, before the command may: sets up its network. Rejects when that fails. */
  attach?(child: ChildProcess): Promise<void>;
  /** Removes what the launch made (macOS's private temporary folder, the network's helper). */
  cleanup(): Promise<void>;
}

/** The way to start one command in the sandbox `info` describes; a plain start where there is none. */
export async function launchFor(info: SandboxInfo, o: ContainOptions): Promise<Launch> {
  const nothing = async () => {};
  if (info.ok && info.kind === 'bwrap' && info.network === 'user-mode' && info.userNet) {
    const tools = info.userNet;
    const dir = await mkdtemp(path.join(os.tmpdir(), 'zhixing-net-'));
    const resolvConf = path.join(dir, 'resolv.conf');
    await writeFile(resolvConf, `nameserver ${DNS_FORWARD_ADDRESS}\n`);
    let stop = () => {};
    return {
      prefix: [info.program!, ...bwrapArgs({ ...o, network: true }, { resolvConf }), '--'],
      tmpdir: '/tmp',
      pipes: 2,
      async attach(child) {
        stop = (await attachUserNet(child, INFO_FD, BLOCK_FD, { tools, pidFile: path.join(dir, 'pasta.pid') })).stop;
      },
      async cleanup() {
        stop();
        await rm(dir, { recursive: true, force: true });
      },
    };
  }
  if (info.ok && info.kind === 'bwrap')
    return { prefix: [info.program!, ...bwrapArgs({ ...o, network: false }), '--'], tmpdir: '/tmp', cleanup: nothing };
  if (info.ok && info.kind === 'sandbox-exec') {
    // macOS has no private /tmp to give: each command gets a fresh folder of its own, removed after.
    const tmpdir = await mkdtemp(path.join(os.tmpdir(), 'zhixing-shell-'));
    return {
      prefix: [info.program!, ...seatbeltArgs(seatbeltProfile({ ...o, tmpdir }))],
      tmpdir,
      cleanup: () => rm(tmpdir, { recursive: true, force: true }),
    };
  }
  return { prefix: [], tmpdir: os.tmpdir(), cleanup: nothing };
}
