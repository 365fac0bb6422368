import path from 'node:path';
import { existing, programPaths, secretPaths, within, type HiddenPath } from './hidden.js';

/** What a contained command may and may not reach. */
export interface ContainOptions {
  /** The session's workspace: the one folder the command may write (besides its private /tmp). */
  workspace: string;
  /** `$ZHIXING_HOME`: hidden whole (config.json, .env, the database), its `skills/` shown read-only. */
  home: string;
  /** The agent's own files (config.json, .env, the database): covered one by one where the home is not covered whole. */
  protectedFiles: string[];
  /** The user's home folder, whose credentials (`~/.ssh`, `~/.aws`…) are hidden. */
  userHome: string;
  /** Off: the command gets a network of its own with nothing but loopback in it. */
  network: boolean;
  /**
   * Programs the rules deny outright (`curl` from `"curl *": "deny"`): every copy on the search
   * path is covered, so no spelling, script or `subprocess` call can start one.
   */
  maskPrograms: string[];
  /** PATH as the command sees it. */
  searchPath: string;
  /** The shell that runs the command: never masked, or nothing would run at all. */
  shell: string;
  /**
   * Folders commands must be able to read though they lie where the sandbox covers (a private /tmp):
   * the installation, whose skills' scripts import its packages, and a project's skills. Never
   * anything inside `$ZHIXING_HOME`, which stays covered.
   */
  shown?: string[];
}

/** The bind of `/dev/null` over a file, or of an empty tmpfs over a folder: what hides it inside the sandbox. */
function cover(h: HiddenPath): string[] {
  return h.dir ? ['--tmpfs', h.path] : ['--ro-bind', '/dev/null', h.path];
}

/**
 * Made read-only once everything inside is bound: an empty folder that takes writes which then vanish
 * would only mislead (a config.json "saved" that never was).
 */
function sealCovers(args: string[]): string[] {
  const covers = args.flatMap((a, i) => (a === '--tmpfs' && args[i + 1] !== '/tmp' ? [args[i + 1]!] : []));
  return covers.flatMap((c) => ['--remount-ro', c]);
}

/**
 * bubblewrap's options for one command. Mounts stack in the order given, so the order is the policy:
 * the whole system read-only; a private /dev, /proc and /tmp; the home covered by an empty tmpfs;
 * skills shown again read-only; the workspace bound writable; then the secrets and the masked
 * programs covered last, so that no bind before them can bring them back into view.
 */
export function bwrapArgs(o: ContainOptions): string[] {
  const workspace = existing(o.workspace)?.path ?? path.resolve(o.workspace);
  const home = existing(o.home)?.path;
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];
  // Folders already covered whole: nothing inside them needs covering again.
  const covered: string[] = ['/tmp'];
  // Before the home is covered, so a shown folder that holds the home cannot bring it back into view.
  for (const f of (o.shown ?? []).map(existing)) {
    if (f?.dir && within(f.path, '/tmp') && !(home && within(f.path, home))) args.push('--ro-bind', f.path, f.path);
  }
  // A home at the root would cover the whole system; config.json and the rest are then covered one by one below.
  if (home && home !== path.parse(home).root) {
    args.push('--tmpfs', home);
    covered.push(home);
    const skills = existing(path.join(home, 'skills'));
    // Where skills is a link to the user's own folder, the link went with the home: the folder is bound in its place.
    if (skills?.dir) args.push('--ro-bind', skills.path, path.join(home, 'skills'));
  }
  const isCovered = (p: string) => covered.some((c) => within(p, c));
  for (const file of o.protectedFiles.map(existing)) if (file && !isCovered(file.path)) args.push(...cover(file));
  const secrets = secretPaths(o.userHome).filter((s) => !isCovered(s.path));
  // A secret folder that holds the workspace is covered before the workspace is bound, so the
  // workspace shows through it; every other secret after, so a workspace that holds it cannot show it.
  for (const s of secrets.filter((s) => within(workspace, s.path))) args.push(...cover(s));
  args.push('--bind', workspace, workspace);
  for (const s of secrets.filter((s) => !within(workspace, s.path))) args.push(...cover(s));
  const shell = existing(o.shell)?.path;
  for (const program of programPaths(o.maskPrograms, o.searchPath)) {
    if (program !== shell && !isCovered(program)) args.push('--ro-bind', '/dev/null', program);
  }
  args.push(...sealCovers(args));
  args.push(
    '--chdir', workspace,
    '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try',
    // The namespace dies with bubblewrap, and with it every process the command left behind.
    '--die-with-parent',
    // No controlling terminal: nothing can push keystrokes into the user's (TIOCSTI).
    '--new-session',
    // Run as root, the command would keep every capability and could unmount what hides the home.
    '--cap-drop', 'ALL',
  );
  if (!o.network) args.push('--unshare-net');
  return args;
}
