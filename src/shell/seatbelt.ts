import path from 'node:path';
import type { ContainOptions } from './bwrap.js';
import { existing, programPaths, secretPaths } from './hidden.js';

/**
 * macOS's counterpart of the bubblewrap options: a Seatbelt profile for `sandbox-exec`. In SBPL the
 * last rule that matches an operation decides, so the order is the policy, as with bubblewrap's mounts.
 * Paths never enter the profile's text: they are passed as parameters (`-D NAME=path`), so no file
 * name can end a string and add a rule of its own.
 */
export interface SeatbeltProfile {
  profile: string;
  /** `NAME=value` pairs for `sandbox-exec -D`. */
  params: Record<string, string>;
}

/** Writes a contained command needs besides the workspace and its temporary folder. */
const DEVICE_WRITES =
  '(literal "/dev/null") (literal "/dev/zero") (literal "/dev/tty") (regex #"^/dev/fd/") (regex #"^/dev/ttys[0-9]+$")';

export function seatbeltProfile(o: ContainOptions & { tmpdir: string }): SeatbeltProfile {
  const params: Record<string, string> = {};
  const param = (name: string, value: string) => ((params[name] = value), `(param "${name}")`);
  const real = (p: string) => existing(p)?.path ?? path.resolve(p);
  const lines = ['(version 1)', '(allow default)'];
  lines.push('(deny file-write*)');
  lines.push(
    `(allow file-write* (subpath ${param('WORKSPACE', real(o.workspace))}) (subpath ${param('TMP', real(o.tmpdir))}) ${DEVICE_WRITES})`,
  );
  // The home unseen and unwritable whole; the workspace (often inside it) given back; skills readable.
  lines.push(`(deny file-read* file-write* (subpath ${param('ZHIXING_HOME', real(o.home))}))`);
  for (const [i, file] of o.protectedFiles.map(real).entries())
    lines.push(`(deny file-read* file-write* (literal ${param(`PROTECTED_${i}`, file)}))`);
  lines.push(`(allow file-read* file-write* (subpath ${param('WORKSPACE_AGAIN', real(o.workspace))}))`);
  lines.push(`(allow file-read* (subpath ${param('SKILLS', real(path.join(o.home, 'skills')))}))`);
  for (const [i, secret] of secretPaths(o.userHome).entries()) {
    lines.push(`(deny file-read* file-write* (subpath ${param(`SECRET_${i}`, secret.path)}))`);
  }
  const shell = existing(o.shell)?.path;
  for (const [i, program] of programPaths(o.maskPrograms, o.searchPath)
    .filter((p) => p !== shell)
    .entries()) {
    // Not run, and not read either: a copy made elsewhere would run.
    lines.push(`(deny process-exec file-read* (literal ${param(`MASKED_${i}`, program)}))`);
  }
  if (!o.network) lines.push('(deny network*)');
  return { profile: `${lines.join('\n')}\n`, params };
}

/** `sandbox-exec`'s arguments before the command: the profile and its parameters. */
export function seatbeltArgs(p: SeatbeltProfile): string[] {
  return ['-p', p.profile, ...Object.entries(p.params).flatMap(([k, v]) => ['-D', `${k}=${v}`])];
}
