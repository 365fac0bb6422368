import { open, type FileHandle } from 'node:fs/promises';
import { z } from 'zod';
import { say, type Lang } from '../i18n.js';

/** A SKILL.md past this is not instructions but data; it is skipped rather than read. */
export const MAX_SKILL_FILE_BYTES = 256 * 1024;
/** Front matter is a few lines: reading this much finds its end in any real skill without reading the body. */
const HEAD_BYTES = 16 * 1024;
/** The Agent Skills format's limits. */
const MAX_NAME_CHARS = 64;
const MAX_DESCRIPTION_CHARS = 1024;
/** Lowercase letters and digits in hyphen-joined words: `docx-report`, never `-x`, `a--b` or `Docx`. */
const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** A front matter delimiter line: `---`, and `...` may also close it, as in YAML. */
const OPEN_LINE = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSE_LINE = /^(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/m;

/** The fields of a skill's front matter Zhixing reads; others (license, metadata…) are allowed and left alone. */
export const SkillHeader = z.object({
  name: z.string().max(MAX_NAME_CHARS).regex(NAME),
  description: z.string().trim().min(1).max(MAX_DESCRIPTION_CHARS),
});
export type SkillHeader = z.infer<typeof SkillHeader>;

/** A SKILL.md split at its front matter, or undefined when it does not start with one. */
export function splitFrontMatter(text: string): { yaml: string; body: string } | undefined {
  const start = OPEN_LINE.exec(text);
  if (!start) return undefined;
  const rest = text.slice(start[0].length);
  const end = CLOSE_LINE.exec(rest);
  if (!end) return undefined;
  return { yaml: rest.slice(0, end.index), body: rest.slice(end.index + end[0].length) };
}

/**
 * The start of a SKILL.md, up to and including its front matter when that ends early (it always
 * does): start-up reads a few hundred bytes per skill, never the bodies. At most MAX_SKILL_FILE_BYTES.
 */
export async function readSkillHead(path: string): Promise<string> {
  const handle = await open(path, 'r');
  try {
    const size = Math.min((await handle.stat()).size, MAX_SKILL_FILE_BYTES);
    const head = await readAt(handle, Math.min(size, HEAD_BYTES));
    if (size <= HEAD_BYTES || splitFrontMatter(head)) return head;
    // Front matter longer than the head: read on, as far as a skill file may go.
    return await readAt(handle, size);
  } finally {
    await handle.close();
  }
}

async function readAt(handle: FileHandle, length: number): Promise<string> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, 0);
  return buffer.subarray(0, bytesRead).toString('utf8');
}

/** Why a parsed front matter is not a skill's, in one clause; undefined when it is one. */
export function headerProblem(parsed: unknown, lang: Lang): string | undefined {
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return say(lang, '头部不是 "键: 值" 形式的字段', 'its front matter is not a set of "key: value" fields');
  }
  const { name, description } = parsed as Record<string, unknown>;
  if (typeof name !== 'string')
    return say(lang, '头部缺少 "name"（字符串）', 'its front matter has no "name" (a string)');
  if (name.length > MAX_NAME_CHARS || !NAME.test(name)) {
    return say(
      lang,
      `名字「${name.slice(0, MAX_NAME_CHARS)}」不合格：只能用小写字母、数字和单个连字符，最多 ${MAX_NAME_CHARS} 个字符，如 "docx-report"`,
      `its name "${name.slice(0, MAX_NAME_CHARS)}" is not one: lowercase letters, digits and single hyphens, at most ${MAX_NAME_CHARS} characters, e.g. "docx-report"`,
    );
  }
  if (typeof description !== 'string' || description.trim() === '') {
    return say(
      lang,
      '头部缺少 "description"（说明何时使用它）',
      'its front matter has no "description" (what it is for and when to use it)',
    );
  }
  if (description.length > MAX_DESCRIPTION_CHARS) {
    return say(
      lang,
      `"description" 超过 ${MAX_DESCRIPTION_CHARS} 个字符`,
      `its "description" is longer than ${MAX_DESCRIPTION_CHARS} characters`,
    );
  }
  return undefined;
}
