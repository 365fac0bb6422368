import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { createSkillCatalog } from './catalog.js';
import { discoverSkills, type HeaderCache, type SkillFolder } from './discover.js';
import { shippedSkillsDir } from './shipped.js';

const root = mkdtempSync(join(tmpdir(), 'zhixing-skills-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;

/** A fresh folder under the test's root. */
function folder(name: string): string {
  const path = join(root, `${++counter}-${name}`);
  mkdirSync(path, { recursive: true });
  return path;
}

/** A skill folder holding a SKILL.md with this front matter (YAML text) and body. */
function skill(parent: string, dir: string, frontMatter: string, body = `Instructions of ${dir}.`): string {
  const path = join(parent, dir);
  mkdirSync(path, { recursive: true });
  writeFileSync(join(path, 'SKILL.md'), `---\n${frontMatter}\n---\n${body}\n`);
  return path;
}

const catalogOf = (folders: SkillFolder[], workspace = folder('workspace'), lang: 'en' | 'zh' = 'en') => {
  const warnings: string[] = [];
  const catalog = createSkillCatalog({ folders, workspace, lang, warn: (line) => warnings.push(line) });
  return { catalog, warnings };
};

describe('skill discovery', () => {
  it('finds the shipped skills beside the code, with their names and descriptions', async () => {
    const { catalog, warnings } = catalogOf([{ source: 'shipped', path: shippedSkillsDir() }]);
    const skills = await catalog.list();
    expect(skills.map((s) => s.name)).toEqual(['docx-report', 'xlsx-sheet']);
    expect(skills[0]).toMatchObject({
      source: 'shipped',
      dir: join(shippedSkillsDir(), 'docx-report'),
      file: join(shippedSkillsDir(), 'docx-report', 'SKILL.md'),
    });
    expect(skills[0]!.description).toMatch(/^Write a Word document \(\.docx\)/);
    // Whole in the system prompt, which cuts descriptions at 300 characters.
    for (const s of skills) expect(s.description.length).toBeLessThanOrEqual(300);
    expect(warnings).toEqual([]);
  });

  it('lets the project override the user, and the user override what ships, by name', async () => {
    const shipped = folder('shipped');
    const user = folder('user');
    const project = folder('project');
    skill(shipped, 'report', 'name: report\ndescription: shipped report');
    skill(shipped, 'sheet', 'name: sheet\ndescription: shipped sheet');
    skill(user, 'report', "name: report\ndescription: the user's report");
    skill(user, 'notes', 'name: notes\ndescription: "the user\'s notes: quoted, with a colon"');
    skill(project, 'notes', "name: notes\ndescription: >\n  the project's notes,\n  folded over two lines");
    const { catalog, warnings } = catalogOf([
      { source: 'shipped', path: shipped },
      { source: 'user', path: user },
      { source: 'project', path: project },
    ]);
    const skills = await catalog.list();
    expect(skills.map((s) => [s.name, s.source, s.description])).toEqual([
      ['notes', 'project', "the project's notes, folded over two lines"],
      ['report', 'user', "the user's report"],
      ['sheet', 'shipped', 'shipped sheet'],
    ]);
    expect((await catalog.get('report'))!.dir).toBe(join(user, 'report'));
    expect(await catalog.get('nothing')).toBeUndefined();
    // A project replacing the user's own skill is said.
    expect(warnings).toEqual([
      expect.stringMatching(/^This project's skill "notes" \(.*\) replaces your own one of that name\.$/),
    ]);
  });

  it("gives a skill's folder as reached from where it was found, through a linked skills folder too", async () => {
    const real = folder('my-skills');
    skill(real, 'linked-one', 'name: linked-one\ndescription: found through a link');
    const home = folder('home');
    symlinkSync(real, join(home, 'skills'));
    const { catalog } = catalogOf([{ source: 'user', path: join(home, 'skills') }]);
    expect(await catalog.get('linked-one')).toMatchObject({
      dir: join(home, 'skills', 'linked-one'),
      file: join(home, 'skills', 'linked-one', 'SKILL.md'),
    });
  });

  it('says nothing about folders that do not exist, and reads a folder reached twice once', async () => {
    const user = folder('user');
    skill(user, 'one', 'name: one\ndescription: the one');
    const { catalog, warnings } = catalogOf([
      { source: 'shipped', path: join(root, 'no-such-folder') },
      { source: 'user', path: user },
      { source: 'project', path: user },
    ]);
    expect((await catalog.list()).map((s) => [s.name, s.source])).toEqual([['one', 'user']]);
    expect(warnings).toEqual([]);
  });

  it('skips each bad skill with one line saying why, and keeps the good ones', async () => {
    const user = folder('user');
    skill(user, 'good', 'name: good\ndescription: works');
    mkdirSync(join(user, 'no-file'));
    mkdirSync(join(user, 'plain'));
    writeFileSync(join(user, 'plain', 'SKILL.md'), 'Just text, no front matter.\n');
    skill(user, 'bad-yaml', 'name: bad-yaml\ndescription: [unclosed');
    skill(user, 'no-description', 'name: no-description');
    skill(user, 'Bad_Name', 'name: Bad_Name\ndescription: not a valid name');
    skill(user, 'long-name', `name: ${'a'.repeat(65)}\ndescription: too long a name`);
    skill(user, 'list', '- a\n- b');
    skill(user, 'huge', 'name: huge\ndescription: too big', 'x'.repeat(300 * 1024));
    mkdirSync(join(user, 'dir-file', 'SKILL.md'), { recursive: true });
    symlinkSync(join(user, 'loop-b'), join(user, 'loop-a'));
    symlinkSync(join(user, 'loop-a'), join(user, 'loop-b'));
    symlinkSync(join(root, 'nowhere'), join(user, 'dangling'));
    writeFileSync(join(user, 'README.md'), 'Loose files beside the skills are not skills.');
    mkdirSync(join(user, '.git'));
    const { catalog, warnings } = catalogOf([{ source: 'user', path: user }]);
    expect((await catalog.list()).map((s) => s.name)).toEqual(['good']);
    const at = (name: string) => `Skipped the skill in ${join(user, name)}: `;
    expect(warnings.sort()).toEqual(
      [
        `${at('Bad_Name')}its name "Bad_Name" is not one: lowercase letters, digits and single hyphens, at most 64 characters, e.g. "docx-report".`,
        `${at('bad-yaml')}its front matter is not valid YAML (Flow sequence in block collection must be sufficiently indented and end with a ] at line 4, column 1).`,
        `${at('dangling')}it points to something that does not exist.`,
        `${at('dir-file')}SKILL.md is not a regular file.`,
        `${at('huge')}SKILL.md is larger than 256 KB.`,
        `${at('list')}its front matter is not a set of "key: value" fields.`,
        `${at('long-name')}its name "${'a'.repeat(64)}" is not one: lowercase letters, digits and single hyphens, at most 64 characters, e.g. "docx-report".`,
        `${at('loop-a')}its symbolic links form a loop.`,
        `${at('loop-b')}its symbolic links form a loop.`,
        `${at('no-description')}its front matter has no "description" (what it is for and when to use it).`,
        `${at('no-file')}it has no SKILL.md.`,
        `${at('plain')}SKILL.md has no front matter (name and description between --- lines).`,
      ].sort(),
    );
    // Once per process: a second look finds the same problems and says nothing more.
    await catalog.list();
    expect(warnings).toHaveLength(12);
  });

  it('reads at most 200 skill folders from one place, and says so', async () => {
    const user = folder('user');
    for (let i = 0; i < 201; i++)
      skill(user, `s-${String(i).padStart(3, '0')}`, `name: s-${String(i).padStart(3, '0')}\ndescription: number ${i}`);
    const { catalog, warnings } = catalogOf([{ source: 'user', path: user }]);
    const skills = await catalog.list();
    expect(skills).toHaveLength(200);
    expect(skills.at(-1)!.name).toBe('s-199');
    expect(warnings).toEqual([`${user} holds 201 folders; only the first 200 by name were read as skills.`]);
  });

  it('writes its warnings in Chinese for a Chinese user', async () => {
    const user = folder('user');
    mkdirSync(join(user, 'empty'));
    const { catalog, warnings } = catalogOf([{ source: 'user', path: user }], folder('workspace'), 'zh');
    await catalog.list();
    expect(warnings).toEqual([`已跳过技能 ${join(user, 'empty')}：里面没有 SKILL.md。`]);
  });

  it('loads a skill whose folder is named otherwise under its own name, and says so', async () => {
    const user = folder('user');
    skill(user, 'my-folder', 'name: weekly-report\ndescription: a renamed folder');
    skill(user, 'weekly-report', 'name: weekly-report\ndescription: the right folder');
    const { catalog, warnings } = catalogOf([{ source: 'user', path: user }]);
    // Sorted by folder, `my-folder` comes first and keeps the name; the second of the same place is refused.
    expect((await catalog.list()).map((s) => [s.name, s.description])).toEqual([['weekly-report', 'a renamed folder']]);
    expect(warnings).toEqual([
      `The skill in ${join(user, 'my-folder')} is named "weekly-report", not after its folder; loaded as "weekly-report".`,
      `Skipped ${join(user, 'weekly-report')}: another skill in the same place is already called "weekly-report".`,
    ]);
  });

  it('takes no skill from the workspace, where the assistant itself writes files', async () => {
    const workspace = folder('workspace');
    const inside = join(workspace, '.zhixing', 'skills');
    skill(inside, 'planted', 'name: planted\ndescription: written by the assistant');
    const user = folder('user');
    skill(user, 'fine', 'name: fine\ndescription: a real skill');
    skill(workspace, 'linked', 'name: linked\ndescription: reached through a link');
    symlinkSync(join(workspace, 'linked'), join(user, 'linked'));
    const { catalog, warnings } = catalogOf(
      [
        { source: 'user', path: user },
        { source: 'project', path: inside },
      ],
      workspace,
    );
    expect((await catalog.list()).map((s) => s.name)).toEqual(['fine']);
    expect(warnings).toEqual([
      `Skipped the skill in ${join(user, 'linked')}: it leads into the workspace, where the assistant can write files.`,
      `Skipped the skills folder ${inside}: it lies inside the workspace, where the assistant can write files.`,
    ]);
  });

  it('reads a front matter longer than the first read, and parses a file again only when it changed', async () => {
    const user = folder('user');
    const long = skill(user, 'long', `name: long\nnotes: "${'n'.repeat(20_000)}"\ndescription: found after 20 KB`);
    let parses = 0;
    const cache: HeaderCache = new Map();
    const options = {
      folders: [{ source: 'user' as const, path: user }],
      workspace: folder('workspace'),
      lang: 'en' as const,
      loadYaml: async () => (text: string) => (parses++, parse(text) as unknown),
      cache,
    };
    expect([...(await discoverSkills(options)).skills.values()].map((s) => s.description)).toEqual([
      'found after 20 KB',
    ]);
    await discoverSkills(options);
    expect(parses).toBe(1);
    writeFileSync(join(long, 'SKILL.md'), '---\nname: long\ndescription: "changed"\n---\n');
    expect([...(await discoverSkills(options)).skills.values()].map((s) => s.description)).toEqual(['changed']);
    expect(parses).toBe(2);
  });

  it('never loads YAML for front matter made of plain `key: text` lines', async () => {
    const user = folder('user');
    skill(user, 'plain', 'name: plain\ndescription: Plain text, even with a colon: no, that one needs YAML');
    skill(user, 'simple', '# a comment\nname: simple\ndescription: Plain text (with brackets) and 中文\nlicense: MIT');
    let loads = 0;
    const options = {
      folders: [{ source: 'user' as const, path: user }],
      workspace: folder('workspace'),
      lang: 'en' as const,
      loadYaml: async () => (loads++, (text: string) => parse(text) as unknown),
      cache: new Map(),
    };
    const { skills, warnings } = await discoverSkills(options);
    expect([...skills.values()].map((s) => [s.name, s.description])).toEqual([
      ['simple', 'Plain text (with brackets) and 中文'],
    ]);
    expect(warnings).toEqual([
      expect.stringContaining(
        `${join(user, 'plain')}: its front matter is not valid YAML (Nested mappings are not allowed in compact mappings at line 3`,
      ),
    ]);
    expect(loads).toBe(1);
    rmSync(join(user, 'plain'), { recursive: true });
    loads = 0;
    await discoverSkills({ ...options, cache: new Map() });
    expect(loads).toBe(0);
  });
});
