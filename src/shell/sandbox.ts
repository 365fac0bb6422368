import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { bwrapArgs, type ContainOptions } from './bwrap.js';
import { seatbeltArgs, seatbeltProfile } from './seatbelt.js';

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
}

export interface DetectOptions {
  /** PATH to look for bwrap in: the one commands get. */
  searchPath: string;
  /** The network setting: with it off, the trial also makes a network namespace. */
  network: boolean;
  platform?: NodeJS.Platform;
}

/** A program on the search path, as an absolute path, or undefined. */
export function findProgram(name: string, searchPath: string, extra: string[] = []): string | undefined {
  for (const dir of [...searchPath.split(path.delimiter), ...extra]) {
    if (!path.isAbsolute(dir)) continue;
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here.
    }
  }
  return undefined;
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
    if (!program) return { kind: 'none', ok: false, reason: 'bubblewrap (bwrap) is not installed' };
    const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '--unshare-pid', '--unshare-ipc',
      '--unshare-uts', '--die-with-parent', '--new-session', '--cap-drop', 'ALL', ...(o.network ? [] : ['--unshare-net']), '--', 'true'];
    const failed = await trial(program, args);
    return failed ? { kind: 'bwrap', ok: false, reason: `bwrap does not work here: ${failed}`, program } : { kind: 'bwrap', ok: true, program };
  }
  if (platform === 'darwin') {
    const program = findProgram('sandbox-exec', '/usr/bin');
    if (!program) return { kind: 'none', ok: false, reason: 'sandbox-exec is not available' };
    const failed = await trial(program, ['-p', '(version 1)(allow default)', '/usr/bin/true']);
    return failed ? { kind: 'sandbox-exec', ok: false, reason: `sandbox-exec does not work here: ${failed}`, program } : { kind: 'sandbox-exec', ok: true, program };
  }
  return { kind: 'none', ok: false, reason: `no sandbox is supported on ${platform}` };
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
  /** Removes what the launch made (macOS's private temporary folder). */
  cleanup(): Promise<void>;
}

/** The way to start one command in the sandbox `info` describes; a plain start where there is none. */
export async function launchFor(info: SandboxInfo, o: ContainOptions): Promise<Launch> {
  const nothing = async () => {};
  if (info.ok && info.kind === 'bwrap') return { prefix: [info.program!, ...bwrapArgs(o), '--'], tmpdir: '/tmp', cleanup: nothing };
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
