// Skills through the real CLI and the OpenAI wire format: the model sees them listed in the system
// prompt, calls `skill`, and gets the instructions and the folder back.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAiServer, textReply, toolCallsReply, type OpenAiServer } from './support/openai-server.js';
import { REPO_ROOT, runCli } from './support/cli.js';
import { tempHome } from './support/temp-home.js';

let server: OpenAiServer;
let home: ReturnType<typeof tempHome>;
let env: Record<string, string>;
const project = mkdtempSync(join(tmpdir(), 'zhixing-project-'));

function skill(parent: string, name: string, description: string, body: string): void {
  mkdirSync(join(parent, name), { recursive: true });
  writeFileSync(join(parent, name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`);
}

beforeAll(async () => {
  server = await startOpenAiServer();
  home = tempHome();
  env = {
    ZHIXING_HOME: home.home,
    ZHIXING_BASE_URL: server.url,
    ZHIXING_API_KEY: 'sk-test-abcdefghijklmnop1234',
    ZHIXING_MODEL: 'test-model',
    ZHIXING_LANG: 'en',
  };
  skill(join(home.home, 'skills'), 'house-style', 'How the user likes documents to look.', 'Use short sentences.');
  const projectSkills = join(project, '.zhixing', 'skills');
  skill(projectSkills, 'team-memo', "Write a memo in the team's format.", 'Start with the decision.');
  // A project's skill replaces the shipped one of the same name.
  skill(projectSkills, 'xlsx-sheet', "The project's own spreadsheet rules.", 'Always add a notes sheet.');
  mkdirSync(join(projectSkills, 'half-done'));
});
afterAll(async () => {
  await server.close();
  home.cleanup();
  rmSync(project, { recursive: true, force: true });
});

const streamed = () => server.requests.filter((r) => r.body?.stream === true);

describe('skills in a one-shot run with a model', () => {
  it("lists the shipped, the user's and the project's skills, and the skill tool returns the instructions and the folder", async () => {
    server.enqueue(
      toolCallsReply([{ id: 'call_skill', name: 'skill', args: { name: 'docx-report' } }]),
      textReply('I have the docx-report skill.'),
    );
    const r = await runCli(['--json', 'write a Word report of our Q3 sales'], env, { cwd: project });
    expect(r.stderr).toBe(
      `zhixing: Skipped the skill in ${join(project, '.zhixing', 'skills', 'half-done')}: it has no SKILL.md.\n` +
        `zhixing: This project's skill "xlsx-sheet" (${join(project, '.zhixing', 'skills', 'xlsx-sheet')}) replaces the shipped one of that name.\n`,
    );
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.reply).toBe('I have the docx-report skill.');

    const [first, second] = streamed();
    const system = first!.body.messages[0];
    expect(system.role).toBe('system');
    const listed = (system.content as string).split('\n').filter((l) => l.startsWith('- '));
    expect(listed).toEqual([
      expect.stringMatching(/^- docx-report: Write a Word document \(\.docx\)/),
      '- house-style: How the user likes documents to look.',
      "- team-memo: Write a memo in the team's format.",
      "- xlsx-sheet: The project's own spreadsheet rules.",
    ]);
    expect(system.content).toContain('call the skill tool with its name before starting');
    const skillTool = first!.body.tools.find((t: { function: { name: string } }) => t.function.name === 'skill');
    expect(skillTool.function.parameters).toMatchObject({ type: 'object', required: ['name'] });

    const folder = join(REPO_ROOT, 'skills', 'docx-report');
    expect(out.actions).toHaveLength(1);
    expect(out.actions[0]).toMatchObject({ tool: 'skill', input: { name: 'docx-report' }, ok: true });
    const output: string = out.actions[0].output;
    expect(output.split('\n').slice(0, 3)).toEqual([
      'Skill "docx-report" (shipped with Zhixing)',
      `Folder: ${folder}`,
      'Files in it: SKILL.md, scripts/io.mjs, scripts/make-docx.mjs',
    ]);
    expect(output).toContain('--- SKILL.md ---\n# Word report (.docx)');
    expect(output).toContain('`node <skill folder>/scripts/make-docx.mjs report.json report.docx`');
    expect(output).not.toContain('name: docx-report');
    // What the model gets back is exactly that.
    expect(second!.body.messages.find((m: { role: string }) => m.role === 'tool')).toEqual({
      role: 'tool',
      tool_call_id: 'call_skill',
      content: output,
    });
  });

  it("carries a report from the skill's instructions to a Word file in the workspace, the script run through the shell", async () => {
    // The model loads the skill, writes the report's JSON as the instructions say, then runs the
    // skill's script through the shell (the shell asks by default; --yes approves).
    const report = {
      title: '周报 Weekly report',
      sections: [
        {
          heading: '进展 Progress',
          content: [
            '完成了 **技能** 功能。',
            { table: { header: ['项 Item', '状态 State'], rows: [['docx', '完成 done']] } },
          ],
        },
      ],
    };
    const folder = join(REPO_ROOT, 'skills', 'docx-report');
    server.enqueue(
      toolCallsReply([{ id: 'call_skill', name: 'skill', args: { name: 'docx-report' } }]),
      toolCallsReply([
        { id: 'call_write', name: 'file_write', args: { path: 'weekly.json', content: JSON.stringify(report) } },
      ]),
      toolCallsReply([
        {
          id: 'call_run',
          name: 'shell',
          args: { command: `node ${folder}/scripts/make-docx.mjs weekly.json weekly.docx` },
        },
      ]),
      textReply('Your report is in weekly.docx.'),
    );
    const r = await runCli(['--json', '--yes', '--new', '把这周的进展写成 Word 周报'], env, {
      cwd: project,
      timeoutMs: 60_000,
    });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.actions.map((a: { tool: string; ok: boolean }) => [a.tool, a.ok])).toEqual([
      ['skill', true],
      ['file_write', true],
      ['shell', true],
    ]);
    expect(/^(?:Folder|文件夹)[:：] ?(.+)$/m.exec(out.actions[0].output)![1]).toBe(folder);
    expect(out.actions[2].output).toMatch(
      /^Exit code 0 \([\d.]+ s\)\nWrote weekly\.docx \(1 section, 1 table, [\d.]+ KB\)\n$/,
    );
    // The shell asks by default, and --yes approved it.
    expect(out.actions[2].permission).toEqual([
      expect.objectContaining({ action: 'shell.run', decision: 'allow', by: 'yes' }),
    ]);
    const workspace = join(home.home, 'workspace');
    const xml = await (
      await JSZip.loadAsync(readFileSync(join(workspace, 'weekly.docx')))
    )
      .file('word/document.xml')!
      .async('string');
    for (const text of ['周报 Weekly report', '进展 Progress', '技能', '完成 done']) expect(xml).toContain(text);
  });

  it('makes an Excel sheet the same way, and the workbook holds the rows and a SUM', async () => {
    const sheet = {
      sheets: [
        {
          name: '支出',
          columns: [
            { header: '项目', key: 'item', type: 'text' },
            { header: '金额', key: 'amount', type: 'currency' },
          ],
          rows: [
            { item: '房租', amount: 3500 },
            { item: '水电', amount: 240.5 },
          ],
          totals: { label: '合计', columns: ['amount'] },
        },
      ],
    };
    const folder = join(REPO_ROOT, 'skills', 'xlsx-sheet');
    server.enqueue(
      toolCallsReply([
        { id: 'call_write2', name: 'file_write', args: { path: 'spend.json', content: JSON.stringify(sheet) } },
      ]),
      toolCallsReply([
        {
          id: 'call_run2',
          name: 'shell',
          args: { command: `node ${folder}/scripts/make-xlsx.mjs spend.json spend.xlsx` },
        },
      ]),
      textReply('spend.xlsx is ready.'),
    );
    const r = await runCli(['--json', '--yes', '--new', '把这个月的支出做成 Excel 表'], env, { timeoutMs: 60_000 });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.actions.map((a: { tool: string; ok: boolean }) => [a.tool, a.ok])).toEqual([
      ['file_write', true],
      ['shell', true],
    ]);
    expect(out.actions[1].output).toMatch(/Exit code 0[^\n]*\nWrote spend\.xlsx/);
    const { default: ExcelJS } = await import('exceljs');
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(join(home.home, 'workspace', 'spend.xlsx'));
    const ws = book.getWorksheet('支出')!;
    expect(ws.getRow(1).values).toEqual([undefined, '项目', '金额']);
    expect(ws.getCell('A2').value).toBe('房租');
    expect(ws.getCell('B3').value).toBe(240.5);
    const formulas: string[] = [];
    ws.eachRow((row) =>
      row.eachCell((cell) => {
        if (cell.formula) formulas.push(cell.formula);
      }),
    );
    expect(formulas).toContain('SUM(B2:B3)');
  });

  it('tells the model which skills exist when it asks for one that does not', async () => {
    server.enqueue(
      toolCallsReply([{ id: 'call_bad', name: 'skill', args: { name: 'team-memos' } }]),
      textReply('There is no such skill.'),
    );
    const r = await runCli(['--json', 'use the memo skill'], env, { cwd: project });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).actions[0]).toMatchObject({
      ok: false,
      output:
        'Error: There is no skill called "team-memos". Did you mean "team-memo"? Available skills: docx-report, house-style, team-memo, xlsx-sheet.',
    });
  });

  it('reads no skills offline, where no model reads the list', async () => {
    const r = await runCli(['(3+5)*2'], { ...env, ZHIXING_OFFLINE: '1' }, { cwd: project });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toContain('16');
  });
});
