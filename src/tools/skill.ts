import { z } from 'zod';
import { closestName } from '../config/suggest.js';
import { say, type Lang } from '../i18n.js';
import type { SkillCatalog } from '../skills/catalog.js';
import type { Skill } from '../skills/discover.js';
import { listSkillFiles, readSkillBody } from '../skills/skill-body.js';
import { defineTool, type Tool } from './tool.js';
import { ToolError } from '../contract/tool-error.js';

/** The registry cuts any output at 30,000 characters; the body stops short of that so the cut is said plainly here. */
const MAX_BODY_CHARS = 24_000;
/** A name longer than any skill may have is not a name. */
const MAX_NAME_CHARS = 200;

export const SkillParams = z.object({
  name: z
    .string()
    .min(1)
    .max(MAX_NAME_CHARS)
    .describe('The skill\'s name exactly as the list of skills gives it, e.g. "docx-report".'),
});
export type SkillParams = z.infer<typeof SkillParams>;

/** `skill {name}`: a skill's instructions, its folder and its files, for the model to follow. */
export function createSkillTool(catalog: SkillCatalog): Tool {
  return defineTool({
    name: 'skill',
    annotations: { readOnly: true },
    description:
      'Load one of the skills listed in the system prompt: its instructions (SKILL.md), the absolute path of its folder and the files in it. ' +
      'Call it before a task a skill fits, then follow the instructions. Its scripts run through the shell tool, by their absolute path, in the workspace.',
    parameters: SkillParams,
    async execute(args, ctx) {
      const { lang } = ctx;
      // Skill names are lowercase: "DOCX-Report" can only mean one.
      const name = args.name.trim().toLowerCase();
      const skill = await catalog.get(name);
      if (!skill)
        throw new ToolError(
          unknownSkill(
            lang,
            name,
            (await catalog.list()).map((s) => s.name),
          ),
        );
      let body: string;
      try {
        body = await readSkillBody(skill.file);
      } catch (err) {
        const why = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
        throw new ToolError(
          say(
            lang,
            `无法读取技能「${name}」的 ${skill.file}（${why}）。`,
            `Cannot read ${skill.file} of the skill "${name}" (${why}).`,
          ),
        );
      }
      const { files, more } = await listSkillFiles(skill.dir);
      const listed = files.join(', ') + (more ? say(lang, `，另有 ${more} 个`, `, and ${more} more`) : '');
      let shown = body;
      if (body.length > MAX_BODY_CHARS) {
        shown = `${body.slice(0, MAX_BODY_CHARS)}\n${say(
          lang,
          `… [说明共 ${body.length} 个字符，只显示了前 ${MAX_BODY_CHARS} 个；其余部分在 ${skill.file} 里，可以用 shell 读取]`,
          `… [the instructions are ${body.length} characters; the first ${MAX_BODY_CHARS} are shown, the rest is in ${skill.file}, readable through the shell]`,
        )}`;
      }
      const output = [
        say(
          lang,
          `技能「${skill.name}」（${sourceText(lang, skill)}）`,
          `Skill "${skill.name}" (${sourceText(lang, skill)})`,
        ),
        say(lang, `文件夹：${skill.dir}`, `Folder: ${skill.dir}`),
        say(lang, `其中的文件：${listed}`, `Files in it: ${listed}`),
        say(
          lang,
          '说明里的路径都相对于这个文件夹。它的脚本要通过 shell 工具、用绝对路径（文件夹 + 相对路径）运行；命令在工作区里执行，输出文件就写在那里。',
          'Paths in the instructions are relative to that folder. Run its scripts through the shell tool by their absolute path (the folder plus the relative path); the command runs in the workspace, so files it writes land there.',
        ),
        '',
        `--- SKILL.md ---`,
        shown,
      ].join('\n');
      return { output, title: skill.name, metadata: { name: skill.name, source: skill.source, folder: skill.dir } };
    },
  });
}

function sourceText(lang: Lang, skill: Skill): string {
  if (skill.source === 'shipped') return say(lang, '知行自带', 'shipped with Zhixing');
  if (skill.source === 'user') return say(lang, '你的技能文件夹', 'from your skills folder');
  return say(lang, '本项目的 .zhixing/skills', "from this project's .zhixing/skills");
}

function unknownSkill(lang: Lang, name: string, names: string[]): string {
  if (names.length === 0)
    return say(
      lang,
      `没有名为「${name}」的技能，目前也没有任何技能。`,
      `There is no skill called "${name}", and no skills are installed.`,
    );
  const guess = closestName(name, names);
  const hint = guess ? say(lang, `你是不是指「${guess}」？`, ` Did you mean "${guess}"?`) : '';
  return say(
    lang,
    `没有名为「${name}」的技能。${hint}可用的技能：${names.join('、')}。`,
    `There is no skill called "${name}".${hint} Available skills: ${names.join(', ')}.`,
  );
}
