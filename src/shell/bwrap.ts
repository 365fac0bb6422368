import path from 'node:path';
import { existing, programPaths, secretPaths, within, type HiddenPath } from './hidden.js';
import { ETC_SECRETS, programInstalls, systemEntries } from './root-view.js';

/** The descriptors bubblewrap reports the sandbox's pid on, and waits on before it runs the command (user-mode network). */
export const INFO_FD = 3;
export const BLOCK_FD = 4;

/** What a contained command may and may not reach. */
export interface ContainOptions {
  /** The session's workspace: the one folder the command may write (besides its private /tmp and its fresh home). */
  workspace: string;
  /** `$ZHIXING_HOME`: absent (config.json, .env, the database), but for its `skills/`, shown read-only. */
  home: string;
  /** The agent's own files (config.json, .env, the database): covered wherever something shown would show them. */
  protectedFiles: string[];
  /** The user's home folder: replaced by an empty one, which is the command's HOME. */
  userHome: string;
  /** Off: the command gets a network of its own with nothing but loopback in it. */
  network: boolean;
  /**
   * Programs the rules deny outright (`curl` from `"curl *": "deny"`): every copy on the search
   * path is covered, so no spelling, script or `subprocess` call can start one.
   */
  maskPrograms: string[];
  /** PATH as the command sees it: the installations of its programs are shown read-only. */
  searchPath: string;
  /** The shell that runs the command: never masked, or nothing would run at all. */
  shell: string;
  /**
   * Folders commands must be able to read: the installation's skills and packages, a project's skills.
   * Shown read-only at the path given and at their real path. Never anything of `$ZHIXING_HOME` but its skills.
   */
  shown?: string[];
  /** Folders nothing shown may hold (the folder Zhixing was started in, with its ./.env). */
  private?: string[];
}

/** Set when the command's network is user-mode: its name server, and how bubblewrap hands over the sandbox. */
export interface UserNetBinding {
  /** A resolv.conf naming the forwarder the network offers, shown at /etc/resolv.conf. */
  resolvConf: string;
}

/** Files in the home that shells run as commands when they start (login, interactive, or bash over SSH). */
const STARTUP_FILES = [
  '.profile',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.bashrc',
  '.shrc',
  '.kshrc',
  '.mkshrc',
  '.zshenv',
  '.zprofile',
  '.zshrc',
  '.zlogin',
  '.zlogout',
];

/** The bind of `/dev/null` over a file, or of an empty tmpfs over a folder: what hides it inside the sandbox. */
function cover(h: HiddenPath): string[] {
  return h.dir ? ['--tmpfs', h.path, '--remount-ro', h.path] : ['--ro-bind', '/dev/null', h.path];
}

/**
 * bubblewrap's options for one command. The sandbox starts from an empty root and is given only what
 * a command needs, so nothing is there to read that was not meant to be: the system folders and the
 * program installations read-only, a private /dev, /proc and /tmp, an empty home, the skills
 * read-only, the workspace writable; then whatever secret a shown folder holds, covered last, so no
 * bind before can bring it back into view.
 */
export function bwrapArgs(o: ContainOptions, userNet?: UserNetBinding): string[] {
  const workspace = existing(o.workspace)?.path ?? path.resolve(o.workspace);
  const userHome = path.resolve(o.userHome);
  const zhixingHome = existing(o.home)?.path ?? path.resolve(o.home);
  const args: string[] = [];
  const shown: string[] = [];
  // Folders shown read-only inside the empty home: mounted after the folders that hold them in place.
  const inHome: string[][] = [];
  const show = (from: string, at: string) => {
    if (within(at, userHome) && at !== userHome) inHome.push(['--ro-bind', from, at]);
    else args.push('--ro-bind', from, at);
    shown.push(at);
  };
  for (const e of systemEntries()) {
    if (e.kind === 'link') args.push('--symlink', e.target, e.path);
    else show(e.path, e.path);
  }
  for (const s of ETC_SECRETS.map(existing)) if (s && within(s.path, '/etc')) args.push(...cover(s));
  if (userNet) args.push('--ro-bind', userNet.resolvConf, '/etc/resolv.conf');
  args.push('--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp');
  // An empty home at the user's own path: what programs look for there (~/.bashrc, ~/.gitconfig, keys) is simply not there.
  if (userHome !== path.parse(userHome).root) {
    args.push('--tmpfs', userHome);
    // Shells' startup files stay empty and unwritable: a command cannot plant one for a login shell
    // (`exec -l`, `bash -l`), or a `bash -c` that reads ~/.bashrc, to run what no rule saw.
    for (const file of STARTUP_FILES) args.push('--ro-bind', '/dev/null', path.join(userHome, file));
  }
  const forbidden = [userHome, zhixingHome, ...(o.private ?? []).map((p) => existing(p)?.path ?? path.resolve(p))];
  for (const given of o.shown ?? []) {
    const real = existing(given);
    if (!real) continue;
    // Never Zhixing's home, nor a folder that holds it or a private one.
    if (forbidden.some((f) => within(f, real.path)) || within(real.path, zhixingHome)) continue;
    show(real.path, real.path);
    const at = path.resolve(given);
    if (at !== real.path) show(real.path, at);
  }
  const installs = programInstalls({ searchPath: o.searchPath, shown: [...shown], forbidden });
  for (const install of installs) show(install, install);
  // Where skills is a link to the user's own folder, the folder is shown at both paths, so scripts find each other either way.
  const skills = existing(path.join(zhixingHome, 'skills'));
  if (skills?.dir) {
    show(skills.path, path.join(zhixingHome, 'skills'));
    if (skills.path !== path.join(zhixingHome, 'skills')) show(skills.path, skills.path);
  }
  args.push(
    ...holders(
      inHome.map((b) => b[2]!),
      userHome,
      workspace,
    ),
    ...inHome.flat(),
  );
  args.push('--bind', workspace, workspace);
  shown.push(workspace);
  const isShown = (p: string) => shown.some((s) => within(p, s));
  const shell = existing(o.shell)?.path;
  for (const program of programPaths(o.maskPrograms, o.searchPath)) {
    if (program !== shell && isShown(program)) args.push('--ro-bind', '/dev/null', program);
  }
  // Defence in depth: a key that a shown folder happens to hold (`~/.cargo/credentials.toml` in cargo's
  // installation) is covered all the same; a secret folder that holds the workspace is left, or the workspace would go.
  const secrets = [
    ...o.protectedFiles.map(existing),
    ...secretPaths(userHome),
    ...installs.flatMap(installSecrets),
  ].filter((h): h is HiddenPath => h !== undefined && isShown(h.path) && !within(workspace, h.path));
  for (const s of unique(secrets)) args.push(...cover(s));
  // The empty root itself read-only: a file "written" beside the workspace (a config.json that is not
  // there) would vanish with the sandbox and only mislead. The home, /tmp and the workspace are mounts of their own.
  args.push('--remount-ro', '/');
  args.push(
    '--chdir',
    workspace,
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup-try',
    // Always a network namespace of its own: empty when the network is off, given a user-mode network when on.
    '--unshare-net',
    // The namespace dies with bubblewrap, and with it every process the command left behind.
    '--die-with-parent',
    // No controlling terminal: nothing can push keystrokes into the user's (TIOCSTI).
    '--new-session',
    // Run as root, the command would keep every capability and could unmount what hides the home.
    '--cap-drop',
    'ALL',
  );
  if (userNet) args.push('--info-fd', String(INFO_FD), '--block-fd', String(BLOCK_FD));
  return args;
}

/**
 * A folder shown read-only inside the writable home (`~/.local/bin`) is held by its mount only: the
 * folder above it, made in the home for the mount, could be renamed away (`mv ~/.local ~/x`) and a
 * writable `~/.local/bin` made in its place. So each folder between the home and a shown one is a
 * mount of its own, an empty writable tmpfs, which no command can rename or remove. None inside the
 * workspace, which would be hidden by it.
 */
function holders(mounts: string[], userHome: string, workspace: string): string[] {
  const found = new Set<string>();
  for (const at of mounts) {
    for (let dir = path.dirname(at); dir !== userHome && within(dir, userHome); dir = path.dirname(dir)) {
      if (!within(dir, workspace) && !mounts.some((m) => within(dir, m))) found.add(dir);
    }
  }
  // Outer folders first, so an inner one is made inside the outer mount.
  return [...found].sort((a, b) => a.split(path.sep).length - b.split(path.sep).length).flatMap((d) => ['--tmpfs', d]);
}

/**
 * Settings files inside a program's installation that may hold a registry token: npm's global
 * `etc/npmrc` (`_authToken`), and cargo's `config.toml` in `~/.cargo` (`[registry] token`).
 */
const INSTALL_SECRETS = ['etc/npmrc', '.npmrc'];
const CARGO_SECRETS = ['config.toml', 'config'];

function installSecrets(install: string): HiddenPath[] {
  const names = path.basename(install) === '.cargo' ? [...INSTALL_SECRETS, ...CARGO_SECRETS] : INSTALL_SECRETS;
  return names.map((n) => existing(path.join(install, n))).filter((h): h is HiddenPath => h !== undefined);
}

function unique(list: HiddenPath[]): HiddenPath[] {
  const seen = new Set<string>();
  return list.filter((h) => !seen.has(h.path) && seen.add(h.path));
}
