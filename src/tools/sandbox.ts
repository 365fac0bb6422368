import { lstat, mkdir, readdir, readlink, realpath } from 'node:fs/promises';
import path from 'node:path';
import { isTempName } from './temp-files.js';
import { say, type Lang } from '../i18n.js';
import type { ToolContext } from './tool.js';
import { ToolError } from '../contract/tool-error.js';

/** How many "did you mean" names a not-found message offers at most. */
const MAX_SUGGESTIONS = 3;
/** Symbolic links followed while resolving one path before it counts as a loop; Linux's own limit (MAXSYMLINKS). */
const MAX_LINK_HOPS = 40;

/** The longest file or folder name Linux file systems take (NAME_MAX), in bytes: 85 CJK characters. */
const MAX_NAME_BYTES = 255;
/** The longest path a user may give, in bytes: Linux's PATH_MAX. */
const MAX_PATH_BYTES = 4_096;
/** Folder levels below the workspace a path may go. Far past any real layout; a deeper one is a runaway loop or an attack. */
const MAX_DEPTH = 64;
/** How much of an over-long name a refusal shows: enough to recognise it, not 255 bytes of it. */
const NAME_SHOWN_CHARS = 10;
/** The permission actions the file tools ask for. */
export type FileAction = 'file.read' | 'file.write' | 'file.list';

/** Why a path lies outside the sandbox; each has its own sentence for the user. */
export type OutsideReason = 'absolute' | 'escape' | 'symlink';

/** Where a user's path leads, worked out before any permission is asked. */
export interface SandboxPath {
  /**
   * Absolute path to operate on: every symlink on the way resolved, dangling ones included (and,
   * unless writing, one in the final name too); names that do not exist yet are kept as written.
   */
  target: string;
  /** What to show the user: relative to the workspace with `/`, or the path as given when it is outside. Never the absolute home path. */
  display: string;
  /** True when the target lies inside the workspace. */
  inside: boolean;
  /** Set when `inside` is false. */
  reason?: OutsideReason;
  /** Set when the last name the user gave is itself a symbolic link (followed to `target`, for reads). */
  finalLink?: boolean;
}

export interface ResolveOptions {
  /** A write must not follow a symlink in the final component, so it is refused instead. */
  forWrite?: boolean;
}

/** True when `p` is `root` itself or below it; `path.relative` avoids the `/ws` vs `/ws-evil` prefix trap. */
export function isInside(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel === '' || (!rel.startsWith('..' + path.sep) && rel !== '..' && !path.isAbsolute(rel));
}

/** Drive-absolute (`C:\x`, `C:x`), UNC (`\\server\share`) and root-relative (`\x`) Windows forms. */
function isWindowsAbsolute(p: string): boolean {
  return /^[A-Za-z]:/.test(p) || p.startsWith('\\');
}

const errCode = (err: unknown): string | undefined => (err as NodeJS.ErrnoException | undefined)?.code;

/** Splits a path or a link's text into names; empty names (from `//` or a trailing `/`) mean nothing. */
const namesOf = (p: string): string[] =>
  p.split(path.sep === '\\' ? /[\\/]/ : '/').filter((n) => n !== '' && n !== '.');

/**
 * Follows `lexical` one name at a time the way the system would, starting from `root` (already real)
 * when it lies below it. Every name that exists as a symlink is followed through its own text
 * (recursively, `..` taken from the link's real folder), whether or not its destination exists, so a
 * dangling link can never pass for a plain missing name. Once a name does not exist no link can
 * redirect the rest, which is kept as written. With `keepFinal` the last name is not followed: a write
 * replaces it, never goes through it.
 */
async function physicalLocation(
  root: string,
  lexical: string,
  keepFinal: boolean,
): Promise<{ target: string; finalLink: boolean }> {
  const start = isInside(root, lexical) ? root : path.parse(lexical).root;
  const names = namesOf(path.relative(start, lexical));
  const last = keepFinal ? names.pop() : undefined;
  // Names still to walk, next one on top: popping and pushing the top are O(1), where shifting
  // the front of an array costs its length at every level and made deep paths quadratic.
  const pending = names.reverse();
  // The user's own names are the bottom of `pending` (a link's names go on top), so counting
  // them tells whether the last one the user typed turned out to be a link.
  let own = pending.length;
  let finalLink = false;
  let resolved = start;
  let hops = 0;
  for (;;) {
    const isOwn = pending.length === own;
    const name = pending.pop();
    if (name === undefined) return { target: path.join(resolved, last ?? ''), finalLink };
    if (isOwn) own--;
    if (name === '..') {
      resolved = path.dirname(resolved);
      continue;
    }
    const next = path.join(resolved, name);
    const info = await lstat(next).catch((err: unknown) => {
      const code = errCode(err);
      if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
      throw err;
    });
    if (!info) return { target: path.join(next, ...pending.reverse(), last ?? ''), finalLink };
    if (!info.isSymbolicLink()) {
      resolved = next;
      continue;
    }
    if (isOwn && own === 0 && last === undefined) finalLink = true;
    if (++hops > MAX_LINK_HOPS)
      throw Object.assign(new Error(`too many symbolic links in ${lexical}`), { code: 'ELOOP' });
    const text = await readlink(next);
    const linkRoot = path.isAbsolute(text) ? path.parse(text).root : '';
    if (linkRoot !== '') resolved = linkRoot;
    pending.push(...namesOf(text.slice(linkRoot.length)).reverse());
  }
}

/** Turns a path relative to the workspace into the form users see: `/`-separated, `.` for the root. */
export function displayPath(workspace: string, p: string): string {
  const rel = path.relative(workspace, p);
  return rel === '' ? '.' : rel.split(path.sep).join('/');
}

/**
 * Refuses a path too deep or too long, before anything touches the disk: the system would fail only
 * after some folders were made, and every level adds work to each walk of the path.
 */
function checkSize(userPath: string, lang: Lang): void {
  // Counted once `a/../b` is folded to `b`; the last name is the file or folder itself, not a level.
  // An escape's leading `..` are no levels either, and it is refused as outside anyway.
  const depth = namesOf(path.normalize(userPath)).filter((n) => n !== '..').length - 1;
  if (depth > MAX_DEPTH) {
    throw new ToolError(
      say(
        lang,
        `路径有 ${formatBytes(depth)} 层文件夹，最多允许 ${MAX_DEPTH} 层。请换一个层级少一些的路径。`,
        `The path is ${formatBytes(depth)} folders deep; at most ${MAX_DEPTH} are allowed. Use a shallower path.`,
      ),
    );
  }
  const bytes = Buffer.byteLength(userPath, 'utf8');
  if (bytes > MAX_PATH_BYTES) {
    throw new ToolError(
      say(
        lang,
        `路径有 ${formatBytes(bytes)} 字节，最多允许 ${formatBytes(MAX_PATH_BYTES)} 字节。请换一个短一些的路径。`,
        `The path is ${formatBytes(bytes)} bytes long; at most ${formatBytes(MAX_PATH_BYTES)} are allowed. Use a shorter path.`,
      ),
    );
  }
  const longName = namesOf(userPath).find((n) => Buffer.byteLength(n, 'utf8') > MAX_NAME_BYTES);
  if (longName !== undefined) throw new ToolError(nameTooLongMessage(lang, longName));
}

/**
 * Works out where `userPath` leads without refusing outside targets: the caller decides
 * (through `ask`) whether outside is allowed. Malformed paths and writes through a final
 * symlink are refused here, whatever the policy.
 */
export async function locateInSandbox(
  workspace: string,
  userPath: string,
  lang: Lang,
  opts: ResolveOptions = {},
): Promise<SandboxPath> {
  if (userPath.trim() === '') {
    throw new ToolError(
      say(
        lang,
        '路径为空：请给出相对于工作区的文件路径。',
        'The path is empty: give a file path relative to the workspace.',
      ),
    );
  }
  if (userPath.includes('\0')) {
    throw new ToolError(
      say(lang, '路径中含有空字符（NUL），无法使用。', 'The path contains a NUL character and cannot be used.'),
    );
  }
  if (process.platform !== 'win32' && isWindowsAbsolute(userPath)) {
    throw new ToolError(outsideMessage(lang, 'use', userPath, 'absolute'));
  }
  checkSize(userPath, lang);
  await mkdir(workspace, { recursive: true });
  const root = await realpath(workspace);
  const absolute = path.isAbsolute(userPath);
  const lexical = absolute ? path.resolve(userPath) : path.resolve(root, userPath);
  const forWrite = opts.forWrite ?? false;

  if (forWrite && lexical !== root) {
    const stat = await lstat(lexical).catch(() => undefined);
    if (stat?.isSymbolicLink()) {
      const shown = absolute || !isInside(root, lexical) ? userPath : displayPath(root, lexical);
      throw new ToolError(
        say(
          lang,
          `拒绝写入 ${shown}：它是一个符号链接，出于安全考虑不会通过链接写入。请写入链接指向的实际文件，或换一个文件名。`,
          `Refused to write to ${shown}: it is a symbolic link, and writes never go through links. Write to the real file instead, or pick another name.`,
        ),
      );
    }
  }

  let target: string;
  let finalLink: boolean;
  try {
    ({ target, finalLink } = await physicalLocation(root, lexical, forWrite && lexical !== root));
  } catch (err) {
    const code = errCode(err);
    const reason =
      code === 'ELOOP'
        ? say(lang, '符号链接形成了循环', 'its symbolic links form a loop')
        : code === 'ENAMETOOLONG'
          ? say(
              lang,
              '名称或路径太长，超出了文件系统的限制',
              'a name or the whole path is too long for the file system',
            )
          : say(lang, `无法访问（${code ?? String(err)}）`, `it cannot be accessed (${code ?? String(err)})`);
    throw new ToolError(
      say(lang, `无法使用路径 ${userPath}：${reason}。`, `Cannot use the path ${userPath}: ${reason}.`),
    );
  }

  const reason: OutsideReason | undefined = absolute
    ? 'absolute'
    : !isInside(root, lexical)
      ? 'escape'
      : !isInside(root, target)
        ? 'symlink'
        : undefined;
  // finalLink only when true, so plain results stay the three documented fields.
  const link = finalLink ? { finalLink } : {};
  if (reason) return { target, display: userPath, inside: false, reason, ...link };
  return { target, display: displayPath(root, lexical), inside: true, ...link };
}

/**
 * The sandbox check as a plain function: the absolute path inside the workspace,
 * or a ToolError saying why not.
 */
export async function resolveInSandbox(
  workspace: string,
  userPath: string,
  lang: Lang,
  opts: ResolveOptions = {},
): Promise<string> {
  const located = await locateInSandbox(workspace, userPath, lang, opts);
  if (!located.inside) {
    throw new ToolError(
      outsideMessage(lang, opts.forWrite ? 'file.write' : 'use', userPath, located.reason ?? 'escape'),
    );
  }
  return located.target;
}

/**
 * What every file tool does first: locate the path, ask the permission layer (telling it
 * truthfully whether the target is inside), and throw a localized refusal on 'deny'.
 * Nothing has touched the disk (beyond creating the workspace) when this throws.
 */
export async function checkPath(
  ctx: ToolContext,
  action: FileAction,
  userPath: string,
  opts: ResolveOptions = {},
): Promise<SandboxPath> {
  const located = await locateInSandbox(ctx.workspace, userPath, ctx.lang, {
    forWrite: action === 'file.write' || opts.forWrite,
  });
  // Rules name files as the user does, relative to the workspace with `/` (`secret/*`): both the path
  // as given and where it leads (through links), so a link cannot carry a write past a deny.
  const aliases = located.inside ? [...new Set([located.display, displayPath(ctx.workspace, located.target)])] : [];
  const decision = await ctx.ask({
    action,
    target: located.target,
    insideSandbox: located.inside,
    ...(aliases.length ? { aliases } : {}),
  });
  if (decision === 'allow') return located;
  if (!located.inside)
    throw new ToolError(outsideMessage(ctx.lang, action, located.display, located.reason ?? 'escape'), {
      kind: 'refused',
    });
  const [zhVerb, , enGerund] = VERBS[action];
  const refusal = ctx.refusal?.();
  if (refusal === 'declined') {
    throw new ToolError(
      say(
        ctx.lang,
        `用户拒绝了${zhVerb} ${located.display}，没有做任何改动。`,
        `The user declined ${enGerund.toLowerCase()} ${located.display}; nothing was changed.`,
      ),
      { kind: 'refused' },
    );
  }
  if (refusal === 'unanswered') {
    throw new ToolError(
      say(
        ctx.lang,
        `${zhVerb} ${located.display} 需要用户批准，但没有人可以回答（没有终端），所以没有做任何改动。`,
        `${enGerund} ${located.display} needs the user's approval, and nobody was there to answer (no terminal); nothing was changed.`,
      ),
      { kind: 'refused' },
    );
  }
  if (refusal === 'cancelled') {
    throw new ToolError(
      say(
        ctx.lang,
        `等待用户批准时回合被停止了，没有${zhVerb} ${located.display}。`,
        `The turn was stopped while waiting for the user's approval; ${enGerund.toLowerCase()} ${located.display} did not happen.`,
      ),
      { kind: 'stopped' },
    );
  }
  throw new ToolError(
    say(
      ctx.lang,
      `${zhVerb} ${located.display} 的请求被权限设置拒绝了，没有做任何改动。`,
      `${enGerund} ${located.display} was refused by the permission settings; nothing was changed.`,
    ),
    { kind: 'refused' },
  );
}

/**
 * Checks again, right before the disk is changed, that `p` (which exists by now) still lies inside
 * the workspace: a folder swapped for a link after checkPath would otherwise carry a write outside.
 * Errors of realpath itself are passed on for the caller to word.
 */
export async function assertStillInside(
  workspace: string,
  p: string,
  lang: Lang,
  action: FileAction,
  shown: string,
): Promise<void> {
  const [root, real] = await Promise.all([realpath(workspace), realpath(p)]);
  if (!isInside(root, real)) throw new ToolError(outsideMessage(lang, action, shown, 'symlink'));
}

const VERBS: Record<FileAction | 'use', [zh: string, en: string, enGerund: string]> = {
  'file.read': ['读取', 'read', 'Reading'],
  'file.write': ['写入', 'write to', 'Writing to'],
  'file.list': ['列出', 'list', 'Listing'],
  use: ['访问', 'access', 'Accessing'],
};

function outsideMessage(lang: Lang, action: FileAction | 'use', shown: string, reason: OutsideReason): string {
  const [zhVerb, enVerb] = VERBS[action];
  const why = {
    absolute: ['这是绝对路径，指向工作区之外', 'it is an absolute path, outside the workspace'],
    escape: ['它用 .. 跳到了工作区之外', 'it uses .. to reach outside the workspace'],
    symlink: ['它经由符号链接指向工作区之外', 'it goes through a symbolic link that leads outside the workspace'],
  }[reason];
  return say(
    lang,
    `拒绝${zhVerb} ${shown}：${why[0]}。只能访问工作区内的文件，请使用相对于工作区的路径（例如 notes/a.txt）。`,
    `Refused to ${enVerb} ${shown}: ${why[1]}. Only files inside the workspace can be used; give a path relative to the workspace (e.g. notes/a.txt).`,
  );
}

function nameTooLongMessage(lang: Lang, name: string): string {
  const chars = [...name];
  const shown = chars.length > NAME_SHOWN_CHARS ? `${chars.slice(0, NAME_SHOWN_CHARS).join('')}…` : name;
  const bytes = formatBytes(Buffer.byteLength(name, 'utf8'));
  return say(
    lang,
    `名称“${shown}”太长：有 ${bytes} 字节，而文件或文件夹的名称最多 ${MAX_NAME_BYTES} 字节（约 85 个汉字）。请换一个短一些的名称。`,
    `The name "${shown}" is too long: ${bytes} bytes, where a file or folder name can have at most ${MAX_NAME_BYTES} (about 85 Chinese characters). Use a shorter name.`,
  );
}

/** Edit distance, for "did you mean" on a mistyped name. */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length];
}

const stem = (name: string): string => name.replace(/\.[^.]*$/, '');

/** Names in `dir` close to `name` (case, a typo or two, another extension), best first. */
export async function similarNames(dir: string, name: string): Promise<string[]> {
  const entries = await readdir(dir).catch(() => [] as string[]);
  const wanted = name.toLowerCase();
  const scored = entries
    .filter((e) => !isTempName(e))
    .map((e) => {
      const lower = e.toLowerCase();
      const d = distance(lower, wanted);
      const close =
        d <= Math.max(2, Math.floor(wanted.length / 3)) || (stem(lower) !== '' && stem(lower) === stem(wanted));
      return { e, d, close };
    })
    .filter((s) => s.close)
    .sort((a, b) => a.d - b.d || (a.e < b.e ? -1 : 1));
  return scored.slice(0, MAX_SUGGESTIONS).map((s) => s.e);
}

/**
 * "X does not exist", with "did you mean" names from the same folder when there are any;
 * a dangling link is named as such, since the link itself is plainly there.
 */
export async function notFoundMessage(lang: Lang, located: SandboxPath): Promise<string> {
  if (located.finalLink) {
    return say(
      lang,
      `找不到 ${located.display}：它是一个符号链接，但它指向的目标不存在。`,
      `${located.display} was not found: it is a symbolic link whose target does not exist.`,
    );
  }
  const base = say(
    lang,
    `找不到 ${located.display}：没有这个文件或文件夹。`,
    `${located.display} was not found: there is no such file or folder.`,
  );
  // The name asked for may be listed (a link, or a file gone missing under us); offering it back would be no help.
  const asked = new Set([path.basename(located.target), path.posix.basename(located.display)]);
  const names = (await similarNames(path.dirname(located.target), path.basename(located.target))).filter(
    (n) => !asked.has(n),
  );
  if (names.length === 0) return base;
  const folder = path.posix.dirname(located.display);
  const shown = names.map((n) => (folder === '.' ? n : `${folder}/${n}`)).join(say(lang, '、', ', '));
  return base + say(lang, `你是不是想找：${shown}？`, ` Did you mean: ${shown}?`);
}

/** Byte counts as people read them: `5 B`, `1.2 KB`, `3.4 MB`. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Exact byte counts with thousands separators, for limits: `1,000,001`. */
// Not toLocaleString: that loads the ICU number formatter, which costs every start milliseconds.
export const formatBytes = (bytes: number): string => String(bytes).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
