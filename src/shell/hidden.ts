import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * What a contained command must not see in the user's home: credentials, keys and browser profiles.
 * Nothing here is needed to do work in a workspace, and all of it is what a hostile web page would
 * want a model to print.
 */
export const USER_SECRETS = [
  '.ssh',
  '.gnupg',
  '.aws',
  '.azure',
  '.kube',
  '.docker/config.json',
  '.netrc',
  '.git-credentials',
  '.config/gcloud',
  '.config/gh',
  '.config/hub',
  '.config/git/credentials',
  '.npmrc',
  '.yarnrc.yml',
  '.pypirc',
  '.pgpass',
  '.my.cnf',
  '.vault-token',
  '.password-store',
  '.local/share/keyrings',
  '.terraform.d/credentials.tfrc.json',
  '.cargo/credentials',
  '.cargo/credentials.toml',
  '.gem/credentials',
  '.m2/settings.xml',
  '.config/rclone',
  '.mozilla',
  '.config/google-chrome',
  '.config/chromium',
  '.thunderbird',
  'Library/Keychains',
  'Library/Cookies',
  // Histories hold what was typed, passwords given on command lines included.
  '.bash_history',
  '.zsh_history',
  '.python_history',
  '.psql_history',
  '.mysql_history',
  '.node_repl_history',
  // Zhixing's default home, where ZHIXING_HOME points elsewhere (a second home, a test).
  '.zhixing',
];

/**
 * Sockets of daemons that act for root or for the user: a command that can talk to the Docker daemon,
 * systemd or a D-Bus bus can have them start anything outside the sandbox, read-only file system or
 * not (connecting to a socket is no write). `/run/user` holds the user's own (bus, systemd, the
 * GnuPG and SSH agents, the keyring).
 */
export const SYSTEM_SOCKETS = [
  '/run/docker.sock',
  '/var/run/docker.sock',
  '/run/containerd/containerd.sock',
  '/run/podman/podman.sock',
  '/run/dbus',
  '/var/run/dbus',
  '/run/systemd/private',
  '/run/user',
];

/** Folders where programs live even when PATH does not name them. */
const PROGRAM_DIRS = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];

export interface HiddenPath {
  /** Real path (links followed): what the sandbox must cover, wherever the link points. */
  path: string;
  dir: boolean;
}

/** `p` as a real path with what it is, or undefined when it does not exist. */
export function existing(p: string): HiddenPath | undefined {
  try {
    const real = realpathSync(p);
    return { path: real, dir: statSync(real).isDirectory() };
  } catch {
    return undefined;
  }
}

/** The user's secrets that exist, and the daemon sockets, as real paths. */
export function secretPaths(userHome: string): HiddenPath[] {
  const found = [...USER_SECRETS.map((rel) => path.join(userHome, rel)), ...SYSTEM_SOCKETS]
    .map(existing)
    .filter((h): h is HiddenPath => h !== undefined);
  return uniqueBy(found);
}

/**
 * Every copy of the named programs a command could run: each folder of `searchPath` and the usual
 * program folders, as real paths (so a link such as /bin/curl → /usr/bin/curl is covered once, at
 * its target). Names with a slash are taken as paths.
 */
export function programPaths(names: string[], searchPath: string): string[] {
  const dirs = [...new Set([...searchPath.split(path.delimiter).filter((d) => path.isAbsolute(d)), ...PROGRAM_DIRS])];
  const found = new Set<string>();
  for (const name of names) {
    const candidates = name.includes('/') ? [name] : dirs.map((d) => path.join(d, name));
    for (const candidate of candidates) {
      const hit = existing(candidate);
      if (!hit || hit.dir) continue;
      try {
        accessSync(hit.path, constants.X_OK);
        found.add(hit.path);
      } catch {
        // Not executable: nothing runs it by name.
      }
    }
  }
  return [...found];
}

/** True when `p` is `root` or lies below it (both absolute). */
export function within(p: string, root: string): boolean {
  const rel = path.relative(root, p);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

function uniqueBy(list: HiddenPath[]): HiddenPath[] {
  const seen = new Set<string>();
  return list.filter((h) => !seen.has(h.path) && seen.add(h.path));
}
