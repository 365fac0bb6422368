import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Lang } from '../i18n.js';
import { createSkillCatalog } from '../skills/catalog.js';
import { shippedSkillsDir } from '../skills/shipped.js';
import { createToolRegistry } from './registry.js';
import { createSkillTool } from './skill.js';
import type { ToolContext } from './tool.js';

const root = mkdtempSync(join(tmpdir(), 'zhixing-skill-tool-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const workspace = join(root, 'workspace');
const user = join(root, 'user-skills');
mkdirSync(workspace);

// A user's skill with a script, a nested file, a hidden file, a linked folder that loops, and a long body.
const notes = join(user, 'meeting-notes');
mkdirSync(join(notes, 'scripts', 'lib'), { recursive: true });
writeFileSync(
  join(notes, 'SKILL.md'),
  '---\nname: meeting-notes\ndescription: Turn a meeting into minutes.\nlicense: MIT\n---\n\n# Minutes\n\nRun `python3 scripts/minutes.py notes.txt`.\n',
);
writeFileSync(join(notes, 'scripts', 'minutes.py'), 'print("minutes")\n');
writeFileSync(join(notes, 'scripts', 'lib', 'util.py'), '\n');
writeFileSync(join(notes, '.secret'), 'hidden\n');
writeFileSync(join(notes, 'odd\nSKILL.md'), 'a name with a line break\n');
symlinkSync(notes, join(notes, 'scripts', 'loop'));
const long = join(user, 'long-one');
mkdirSync(long);
writeFileSync(
  join(long, 'SKILL.md'),
  `---\nname: long-one\ndescription: A skill with a very long body.\n---\n${'步骤。'.repeat(10_000)}\n`,
);

const catalog = createSkillCatalog({
  folders: [
    { source: 'shipped', path: shippedSkillsDir() },
    { source: 'user', path: user },
  ],
  workspace,
  lang: 'en',
  warn: (line) => {
    throw new Error(`unexpected warning: ${line}`);
  },
});
const registry = createToolRegistry([createSkillTool(catalog)]);
const ctx = (lang: Lang = 'en'): ToolContext => ({
  sessionId: 's1',
  turnId: 't1',
  callId: 'c1',
  workspace,
  signal: new AbortController().signal,
  lang,
  ask: async () => 'deny',
  progress: () => {},
});
const load = (name: unknown, lang: Lang = 'en') =>
  registry.run({ id: 'c1', name: 'skill', arguments: JSON.stringify({ name }) }, ctx(lang));

describe('the skill tool', () => {
  it('returns the instructions without the front matter, the absolute folder and the files in it', async () => {
    const r = await load('meeting-notes');
    expect(r.ok).toBe(true);
    expect(r.output).toBe(
      [
        'Skill "meeting-notes" (from your skills folder)',
        `Folder: ${notes}`,
        'Files in it: SKILL.md, scripts/lib/util.py, scripts/loop, scripts/minutes.py',
        'Paths in the instructions are relative to that folder. Run its scripts through the shell tool by their absolute path (the folder plus the relative path); the command runs in the workspace, so files it writes land there.',
        '',
        '--- SKILL.md ---',
        '# Minutes\n\nRun `python3 scripts/minutes.py notes.txt`.',
      ].join('\n'),
    );
    expect(r).toMatchObject({
      title: 'meeting-notes',
      metadata: { name: 'meeting-notes', source: 'user', folder: notes },
    });
  });

  it('loads a shipped skill with its script', async () => {
    const r = await load('docx-report', 'zh');
    expect(r.ok).toBe(true);
    const lines = r.output.split('\n');
    expect(lines.slice(0, 3)).toEqual([
      '技能「docx-report」（知行自带）',
      `文件夹：${join(shippedSkillsDir(), 'docx-report')}`,
      '其中的文件：SKILL.md, scripts/io.mjs, scripts/make-docx.mjs',
    ]);
    expect(r.output).toContain('node <skill folder>/scripts/make-docx.mjs report.json report.docx');
    expect(r.output).not.toContain('description:');
  });

  it('says where the rest of a body too long to show is', async () => {
    const r = await load('long-one');
    expect(r.ok).toBe(true);
    expect(r.output.length).toBeLessThan(30_000);
    expect(r.output).toMatch(
      new RegExp(
        `… \\[the instructions are 30000 characters; the first 24000 are shown, the rest is in ${join(long, 'SKILL.md')}, readable through the shell\\]$`,
      ),
    );
  });

  it('refuses a name it does not know, with a guess and every name there is', async () => {
    const typo = await load('docx-reprot');
    expect(typo).toMatchObject({
      ok: false,
      output:
        'Error: There is no skill called "docx-reprot". Did you mean "docx-report"? Available skills: docx-report, long-one, meeting-notes, xlsx-sheet.',
    });
    const zh = await load('excel', 'zh');
    expect(zh.output).toBe(
      'Error: 没有名为「excel」的技能。可用的技能：docx-report、long-one、meeting-notes、xlsx-sheet。',
    );
    expect((await load('')).ok).toBe(false);
    expect((await load(' Meeting-Notes ')).title).toBe('meeting-notes');
  });

  it('says so when there are no skills at all', async () => {
    const empty = createSkillCatalog({ folders: [], workspace, lang: 'en', warn: () => {} });
    const r = await createToolRegistry([createSkillTool(empty)]).run(
      { id: 'c1', name: 'skill', arguments: '{"name":"x"}' },
      ctx(),
    );
    expect(r.output).toBe('Error: There is no skill called "x", and no skills are installed.');
  });
});
