import { lstatSync, readdirSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { existing, within } from './hidden.js';

/**
 * What a contained command sees of the machine besides its workspace: the system's own folders,
 * read-only, and the folders programs on its PATH are installed in. Everything else is absent — the
 * user's home, other users', /root, /mnt, /srv, /var, the folder Zhixing was started in — so no list
 * of secrets has to be complete for them to stay unseen.
 */

/** Folders every program needs: binaries, libraries, the system's settings. Links (merged /usr) stay links. */
export const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc'];

/**
 * What /etc holds that is no program's business: password hashes, host keys, saved Wi-Fi and VPN
 * passwords, TLS private keys, Kerberos keytabs. Under Linux, root reads these whatever their mode,
 * and Zhixing may well run as root in a container.
 */
export const ETC_SECRETS = [
  '/etc/shadow',
  '/etc/shadow-',
  '/etc/gshadow',
  '/etc/gshadow-',
  '/etc/security/opasswd',
  '/etc/sudoers',
  '/etc/sudoers.d',
  '/etc/ssh',
  '/etc/ssl/private',
  '/etc/pki/tls/private',
  '/etc/krb5.keytab',
  '/etc/NetworkManager/system-connections',
  '/etc/wpa_supplicant',
  '/etc/ppp/chap-secrets',
  '/etc/ppp/pap-secrets',
  '/etc/ipsec.secrets',
  '/etc/wireguard',
  '/etc/openvpn',
  '/etc/letsencrypt',
  '/etc/libvirt/secrets',
  '/etc/docker/key.json',
  '/etc/rancher',
  '/etc/kubernetes',
  '/etc/cups/ssl',
  '/etc/environment',
  // Package managers' settings for the whole system, which can hold a registry's or an index's token.
  '/etc/npmrc',
  '/etc/pip.conf',
  '/etc/xdg/pip',
  '/etc/apt/auth.conf',
  '/etc/apt/auth.conf.d',
  '/etc/.pwd.lock',
];

/** PATH folders full of the system's own links, which lead back into the system folders: not walked link by link. */
const SYSTEM_BIN_DIRS = new Set(['/usr/bin', '/usr/sbin', '/bin', '/sbin']);
/** PATH folders named so that the folder above is the installation (`~/.cargo/bin`, `~/.pyenv/shims`, `/opt/node/bin`). */
const INSTALL_LEAVES = new Set(['bin', 'sbin', 'shims']);
/** Folders above a PATH folder that are not an installation but a catch-all (`~/.local/bin` is not `~/.local`). */
const CATCH_ALL = new Set(['.local', 'local', 'usr', 'opt', 'home', 'Users', 'var', 'srv', 'mnt', 'media', 'work']);

/** One mount of the view: a real folder shown read-only, or a link as the system has it. */
export type RootEntry = { kind: 'dir'; path: string } | { kind: 'link'; path: string; target: string };

/** The system folders that exist here, as folders or as links to where they really are. */
export function systemEntries(dirs: string[] = SYSTEM_DIRS): RootEntry[] {
  const out: RootEntry[] = [];
  for (const dir of dirs) {
    try {
      const st = lstatSync(dir);
      if (st.isSymbolicLink()) out.push({ kind: 'link', path: dir, target: readlinkSync(dir) });
      else if (st.isDirectory()) out.push({ kind: 'dir', path: dir });
    } catch {
      // Not on this system (/lib32, /libx32…).
    }
  }
  return out;
}

export interface InstallOptions {
  /** PATH as the command sees it. */
  searchPath: string;
  /** Folders already shown: nothing inside them is bound again. */
  shown: string[];
  /** Folders no installation may be, or contain: the user's home, Zhixing's home, the start folder. */
  forbidden: string[];
}

/**
 * The installation folders of the programs on PATH that live outside the system folders (node under
 * ~/.nvm, cargo's tools, pyenv's pythons), as real paths: each PATH folder's installation, and the
 * installation of every program in it that is a link to elsewhere (/usr/local/bin/node → /opt/node/bin/node).
 * Never a folder that is, or holds, one of `forbidden`: then only the PATH folder itself.
 */
export function programInstalls(o: InstallOptions): string[] {
  const found: string[] = [];
  const shown = () => [...o.shown, ...found];
  const add = (dir: string) => {
    const real = existing(dir);
    if (!real?.dir || shown().some((s) => within(real.path, s))) return;
    const install = installOf(real.path, o.forbidden);
    if (!install) return;
    for (let i = found.length - 1; i >= 0; i--) if (within(found[i]!, install)) found.splice(i, 1);
    found.push(install);
  };
  for (const dir of o.searchPath.split(path.delimiter).filter((d) => path.isAbsolute(d))) {
    add(dir);
    if (SYSTEM_BIN_DIRS.has(dir)) continue;
    for (const target of linkedPrograms(dir)) add(path.dirname(target));
  }
  return found;
}

/** The folder to show for a PATH folder: its installation where that is safe, itself where not, nothing where even that is not. */
function installOf(dir: string, forbidden: string[]): string | undefined {
  const holdsForbidden = (p: string) => p === path.parse(p).root || forbidden.some((f) => within(f, p));
  const parent = path.dirname(dir);
  if (INSTALL_LEAVES.has(path.basename(dir)) && !CATCH_ALL.has(path.basename(parent)) && !holdsForbidden(parent))
    return parent;
  return holdsForbidden(dir) ? undefined : dir;
}

/** Where the links in a PATH folder lead, as real paths of files. */
function linkedPrograms(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const name of names) {
    const p = path.join(dir, name);
    try {
      if (!lstatSync(p).isSymbolicLink()) continue;
    } catch {
      continue;
    }
    const real = existing(p);
    if (real && !real.dir && path.dirname(real.path) !== dir) out.push(real.path);
  }
  return out;
}
