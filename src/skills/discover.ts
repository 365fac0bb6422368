import type { Dirent, Stats } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { isWithin } from '../config/paths.js';
import { say, type Lang } from '../i18n.js';
import { parsePlainFrontMatter } from './plain-front-matter.js';
import {
  MAX_SKILL_FILE_BYTES,
  headerProblem,
  readSkillHead,
  splitFrontMatter,
  type SkillHeader,
} from './skill-file.js';

export const SKILL_FILE = 'SKILL.md';
/** More folders than this in one place is not a collection of skills but some other folder; the rest are left unread. */
const MAX_SKILLS_PER_FOLDER = 200;

/** Where a skill came from; later sources win over earlier ones by name. */
export type SkillSource = 'shipped' | 'user' | 'project';

/** A folder of skills, one skill per sub-folder. */
export interface SkillFolder {
  source: SkillSource;
  path: string;
}

/** A skill as the catalog knows it: its front matter and where it lives. Its body is read only when loaded. */
export interface Skill extends SkillHeader {
  source: SkillSource;
  /**
   * Absolute path of the skill's folder as reached from where it was found, links left as they are:
   * the shell's sandbox shows `$ZHIXING_HOME/skills` at that path, whatever it links to.
   */
  dir: string;
  /** Absolute path of its SKILL.md. */
  file: string;
}

/** What parsing a front matter gave, kept per file while the file stays the same. */
export type HeaderCache = Map<string, { stamp: string; header: SkillHeader | { problem: string } }>;

export interface DiscoverOptions {
  /** In order of precedence, lowest first: a later folder's skill replaces an earlier one of the same name. */
  folders: SkillFolder[];
  /** The session's workspace: the assistant writes there, so no skill is taken from it. */
  workspace: string;
  lang: Lang;
  /** YAML's parser, for a front matter that is more than `key: text` lines; loaded only when one is. */
  loadYaml: () => Promise<(text: string) => unknown>;
  cache: HeaderCache;
}

/** Every skill found, by name, and one line for each skill or folder that was skipped. */
export async function discoverSkills(
  options: DiscoverOptions,
): Promise<{ skills: Map<string, Skill>; warnings: string[] }> {
  const { lang } = options;
  const skills = new Map<string, Skill>();
  const warnings: string[] = [];
  const seenFolders = new Set<string>();
  for (const folder of options.folders) {
    let real: string;
    try {
      real = await realpath(folder.path);
    } catch (err) {
      // No folder is the usual case (nobody made ~/.zhixing/skills): nothing to say.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
        warnings.push(skippedFolder(lang, folder.path, fileErrorText(lang, err)));
      continue;
    }
    // Run from the home folder, ./.zhixing/skills is the user's own folder: read once.
    if (seenFolders.has(real)) continue;
    seenFolders.add(real);
    if (isWithin(real, options.workspace)) {
      warnings.push(
        skippedFolder(
          lang,
          folder.path,
          say(
            lang,
            '它在工作区里，助手能往那里写文件',
            'it lies inside the workspace, where the assistant can write files',
          ),
        ),
      );
      continue;
    }
    let entries: Dirent[];
    try {
      entries = await readdir(real, { withFileTypes: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOTDIR')
        warnings.push(skippedFolder(lang, folder.path, fileErrorText(lang, err)));
      continue;
    }
    const found = new Set<string>();
    // Hidden folders (.git) and loose files (a README beside the skills) are not skills.
    const candidates = entries
      .filter((e) => !e.name.startsWith('.') && (e.isDirectory() || e.isSymbolicLink()))
      .sort((a, b) => (a.name < b.name ? -1 : 1));
    if (candidates.length > MAX_SKILLS_PER_FOLDER) {
      warnings.push(
        say(
          lang,
          `${folder.path} 里有 ${candidates.length} 个文件夹，只读取了按名字排序的前 ${MAX_SKILLS_PER_FOLDER} 个。`,
          `${folder.path} holds ${candidates.length} folders; only the first ${MAX_SKILLS_PER_FOLDER} by name were read as skills.`,
        ),
      );
    }
    for (const entry of candidates.slice(0, MAX_SKILLS_PER_FOLDER)) {
      const result = await readSkill(join(folder.path, entry.name), entry.name, folder.source, options);
      if (!result) continue;
      if ('problem' in result) {
        warnings.push(
          say(
            lang,
            `已跳过技能 ${join(folder.path, entry.name)}：${result.problem}。`,
            `Skipped the skill in ${join(folder.path, entry.name)}: ${result.problem}.`,
          ),
        );
        continue;
      }
      const { skill, note } = result;
      if (note) warnings.push(note);
      if (found.has(skill.name)) {
        warnings.push(
          say(
            lang,
            `已跳过 ${skill.dir}：同一位置已有名为「${skill.name}」的技能。`,
            `Skipped ${skill.dir}: another skill in the same place is already called "${skill.name}".`,
          ),
        );
        continue;
      }
      found.add(skill.name);
      // A project's folder (a cloned repository) replacing a shipped or the user's own skill is said, not done quietly.
      const replaced = skills.get(skill.name);
      if (replaced && skill.source === 'project') {
        warnings.push(
          say(
            lang,
            `此项目的技能「${skill.name}」（${skill.dir}）取代了${replaced.source === 'shipped' ? '自带' : '你自己'}的同名技能。`,
            `This project's skill "${skill.name}" (${skill.dir}) replaces ${replaced.source === 'shipped' ? 'the shipped' : 'your own'} one of that name.`,
          ),
        );
      }
      skills.set(skill.name, skill);
    }
  }
  return { skills, warnings };
}

type ReadResult = { skill: Skill; note?: string } | { problem: string } | undefined;

/** One skill folder: the skill, why it is not one, or undefined for what is not a skill folder at all. */
async function readSkill(
  path: string,
  folderName: string,
  source: SkillSource,
  options: DiscoverOptions,
): Promise<ReadResult> {
  const { lang } = options;
  let real: string;
  let info: Stats;
  try {
    real = await realpath(path);
    info = await stat(real);
  } catch (err) {
    return { problem: fileErrorText(lang, err) };
  }
  if (!info.isDirectory()) return undefined;
  if (isWithin(real, options.workspace) || isWithin(options.workspace, real)) {
    return {
      problem: say(
        lang,
        '它通向工作区，助手能往那里写文件',
        'it leads into the workspace, where the assistant can write files',
      ),
    };
  }
  const file = join(path, SKILL_FILE);
  let fileInfo: Stats;
  try {
    fileInfo = await stat(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return {
      problem:
        code === 'ENOENT' ? say(lang, `里面没有 ${SKILL_FILE}`, `it has no ${SKILL_FILE}`) : fileErrorText(lang, err),
    };
  }
  if (!fileInfo.isFile())
    return { problem: say(lang, `${SKILL_FILE} 不是普通文件`, `${SKILL_FILE} is not a regular file`) };
  if (fileInfo.size > MAX_SKILL_FILE_BYTES) {
    return {
      problem: say(
        lang,
        `${SKILL_FILE} 超过 ${MAX_SKILL_FILE_BYTES / 1024} KB`,
        `${SKILL_FILE} is larger than ${MAX_SKILL_FILE_BYTES / 1024} KB`,
      ),
    };
  }
  const header = await cachedHeader(file, fileInfo, options);
  if ('problem' in header) return header;
  const skill: Skill = { ...header, source, dir: path, file };
  // The Agent Skills format wants the folder named as the skill. A renamed folder still works, under the name its file gives.
  const note =
    header.name === folderName
      ? undefined
      : say(
          lang,
          `技能 ${path} 的名字是「${header.name}」，和文件夹名不同；按「${header.name}」载入。`,
          `The skill in ${path} is named "${header.name}", not after its folder; loaded as "${header.name}".`,
        );
  return { skill, note };
}

/** The front matter of a file, parsed again only when the file changed (size, time or inode). */
async function cachedHeader(
  file: string,
  info: Stats,
  options: DiscoverOptions,
): Promise<SkillHeader | { problem: string }> {
  const stamp = `${info.ino}:${info.size}:${info.mtimeMs}`;
  const hit = options.cache.get(file);
  if (hit?.stamp === stamp) return hit.header;
  const header = await parseHeader(file, options);
  options.cache.set(file, { stamp, header });
  return header;
}

async function parseHeader(
  file: string,
  { lang, loadYaml }: DiscoverOptions,
): Promise<SkillHeader | { problem: string }> {
  let text: string;
  try {
    text = await readSkillHead(file);
  } catch (err) {
    return { problem: fileErrorText(lang, err) };
  }
  const parts = splitFrontMatter(text);
  if (!parts) {
    return {
      problem: say(
        lang,
        `${SKILL_FILE} 没有以 --- 包围的 YAML 头部（name 和 description）`,
        `${SKILL_FILE} has no front matter (name and description between --- lines)`,
      ),
    };
  }
  let parsed: unknown = parsePlainFrontMatter(parts.yaml);
  try {
    parsed ??= (await loadYaml())(parts.yaml);
  } catch (err) {
    // The parser counts lines from the front matter's first; the file has the opening --- above it.
    const first = String((err as Error).message)
      .split('\n')[0]!
      .replace(/:$/, '')
      .replace(/at line (\d+)/, (_, n: string) => `at line ${Number(n) + 1}`);
    return { problem: say(lang, `头部不是有效的 YAML（${first}）`, `its front matter is not valid YAML (${first})`) };
  }
  const problem = headerProblem(parsed, lang);
  if (problem) return { problem };
  const { name, description } = parsed as SkillHeader;
  return { name, description: description.trim() };
}

function fileErrorText(lang: Lang, err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ELOOP') return say(lang, '符号链接形成了循环', 'its symbolic links form a loop');
  if (code === 'ENOENT') return say(lang, '它指向不存在的位置', 'it points to something that does not exist');
  if (code === 'EACCES' || code === 'EPERM') return say(lang, '没有读取权限', 'it cannot be read (permission denied)');
  return say(
    lang,
    `无法读取（${code ?? (err as Error).message}）`,
    `it cannot be read (${code ?? (err as Error).message})`,
  );
}

const skippedFolder = (lang: Lang, path: string, why: string) =>
  say(lang, `已跳过技能文件夹 ${path}：${why}。`, `Skipped the skills folder ${path}: ${why}.`);
