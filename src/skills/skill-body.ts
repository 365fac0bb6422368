import type { Dirent } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { MAX_SKILL_FILE_BYTES, splitFrontMatter } from './skill-file.js';

/** Enough to see what a skill holds; a skill with more files lists the rest as a count. */
const MAX_LISTED_FILES = 60;
/** Deeper than this a skill is carrying a project, not a few scripts. */
const MAX_DEPTH = 4;
/** Folders that hold what the skill's tools installed, not the skill itself. */
const SKIPPED_FOLDERS = new Set(['node_modules', '__pycache__']);
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** A SKILL.md's instructions: the text after its front matter. */
export async function readSkillBody(file: string): Promise<string> {
  const { size } = await stat(file);
  if (size > MAX_SKILL_FILE_BYTES)
    throw Object.assign(new Error(`${file} is larger than ${MAX_SKILL_FILE_BYTES} bytes`), { code: 'EFBIG' });
  const text = await readFile(file, 'utf8');
  return (splitFrontMatter(text)?.body ?? text).trim();
}

/**
 * The files in a skill's folder, relative to it, sorted, at most MAX_LISTED_FILES; `more` counts
 * those left out. Links are listed, never followed, so a loop cannot make the walk endless.
 */
export async function listSkillFiles(dir: string): Promise<{ files: string[]; more: number }> {
  const files: string[] = [];
  let more = 0;
  const walk = async (relative: string, depth: number): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(join(dir, relative), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      // A name with a line break or another control character could pass for more lines of the tool's output.
      if (entry.name.startsWith('.') || SKIPPED_FOLDERS.has(entry.name) || CONTROL.test(entry.name)) continue;
      const path = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (depth < MAX_DEPTH) await walk(path, depth + 1);
      } else if (files.length < MAX_LISTED_FILES) files.push(path);
      else more++;
    }
  };
  await walk('', 1);
  return { files, more };
}
