// The shipped office skills' scripts, run as the model runs them through the shell: `node <skill
// folder>/scripts/… in.json out.xxx` in the workspace. The files they write are opened and read back.
import { execFile } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/cli.js';

const DOCX_SCRIPT = join(REPO_ROOT, 'skills', 'docx-report', 'scripts', 'make-docx.mjs');
const XLSX_SCRIPT = join(REPO_ROOT, 'skills', 'xlsx-sheet', 'scripts', 'make-xlsx.mjs');
const root = mkdtempSync(join(tmpdir(), 'zhixing-office-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let ws: string;
let n = 0;
beforeEach(() => {
  ws = join(root, `ws-${++n}`);
  rmSync(ws, { recursive: true, force: true });
  mkdirSync(ws);
});

function run(script: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [script, ...args],
      { cwd: ws, env: { PATH: process.env.PATH ?? '' } },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr }),
    );
  });
}
const input = (name: string, value: unknown) =>
  writeFileSync(join(ws, name), typeof value === 'string' ? value : JSON.stringify(value, null, 2));

const REPORT = {
  title: '2024 年第三季度销售报告',
  subtitle: 'Q3 2024 Sales Report',
  author: '市场部',
  date: '2024-10-08',
  sections: [
    {
      heading: '概述 Overview',
      content: [
        '本季度销售额为 **200 万元**，同比增长 12%。',
        'Sales & margin grew <fast>.',
        { bullets: ['华东增长最快', 'South flat'] },
      ],
    },
    {
      heading: '分地区明细 By region',
      content: [
        { subheading: '表格 Table' },
        {
          table: {
            caption: '表 1 各地区销售额',
            header: ['地区 Region', '销售额 Sales', '增长 Growth'],
            rows: [
              ['华东', 120, '18%'],
              ['华南', 80.5, null],
            ],
          },
        },
      ],
    },
    { heading: '下一步 Next steps', content: [{ numbered: ['扩大华东渠道', 'Review the south'] }] },
  ],
};

/** The paragraphs of a document.xml, each with its style and text, and the text of each table cell. */
function readDocument(xml: string) {
  const unescape = (s: string) =>
    s
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&amp;/g, '&');
  const textOf = (part: string) =>
    [...part.matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((m) => unescape(m[1]!)).join('');
  const body = xml.replace(/<w:tbl>[\s\S]*?<\/w:tbl>/g, '');
  const paragraphs = [...body.matchAll(/<w:p>[\s\S]*?<\/w:p>|<w:p [\s\S]*?<\/w:p>/g)].map((m) => ({
    style: /<w:pStyle w:val="([^"]+)"\/>/.exec(m[0])?.[1] ?? (m[0].includes('<w:numPr>') ? 'list' : 'Normal'),
    text: textOf(m[0]),
  }));
  const rows = [...xml.matchAll(/<w:tr>[\s\S]*?<\/w:tr>/g)].map((m) =>
    [...m[0].matchAll(/<w:tc>[\s\S]*?<\/w:tc>/g)].map((c) => textOf(c[0])),
  );
  return { paragraphs: paragraphs.filter((p) => p.text !== ''), rows };
}

describe('docx-report: make-docx.mjs', () => {
  it('writes a real Word file with the title, headings, paragraphs, lists, a table and Chinese text', async () => {
    input('report.json', REPORT);
    const r = await run(DOCX_SCRIPT, ['report.json', 'report.docx']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const size = statSync(join(ws, 'report.docx')).size;
    expect(r.stdout).toBe(`Wrote report.docx (3 sections, 1 table, ${(size / 1024).toFixed(1)} KB)\n`);

    const zip = await JSZip.loadAsync(readFileSync(join(ws, 'report.docx')));
    const { paragraphs, rows } = readDocument(await zip.file('word/document.xml')!.async('string'));
    expect(paragraphs).toEqual([
      { style: 'Title', text: '2024 年第三季度销售报告' },
      { style: 'Subtitle', text: 'Q3 2024 Sales Report' },
      { style: 'Normal', text: '市场部 · 2024-10-08' },
      { style: 'Heading1', text: '概述 Overview' },
      { style: 'Normal', text: '本季度销售额为 200 万元，同比增长 12%。' },
      { style: 'Normal', text: 'Sales & margin grew <fast>.' },
      { style: 'ListParagraph', text: '华东增长最快' },
      { style: 'ListParagraph', text: 'South flat' },
      { style: 'Heading1', text: '分地区明细 By region' },
      { style: 'Heading2', text: '表格 Table' },
      { style: 'Normal', text: '表 1 各地区销售额' },
      { style: 'Heading1', text: '下一步 Next steps' },
      { style: 'ListParagraph', text: '扩大华东渠道' },
      { style: 'ListParagraph', text: 'Review the south' },
    ]);
    expect(rows).toEqual([
      ['地区 Region', '销售额 Sales', '增长 Growth'],
      ['华东', '120', '18%'],
      ['华南', '80.5', ''],
    ]);
    const xml = await zip.file('word/document.xml')!.async('string');
    // The bold figure, the repeating header row, and two lists: bullets and a numbered one.
    expect(xml).toMatch(/<w:b\/><w:bCs\/><\/w:rPr><w:t xml:space="preserve">200 万元<\/w:t>/);
    expect(xml).toContain('<w:tblHeader/>');
    expect(new Set([...xml.matchAll(/<w:numId w:val="(\d+)"\/>/g)].map((m) => m[1])).size).toBe(2);
    const styles = await zip.file('word/styles.xml')!.async('string');
    expect(styles).toContain(
      '<w:rFonts w:ascii="Calibri" w:cs="Calibri" w:eastAsia="Microsoft YaHei" w:hAnsi="Calibri"/>',
    );
    expect(styles).toContain('<w:lang w:val="en-US" w:eastAsia="zh-CN"/>');
    expect(await zip.file('docProps/core.xml')!.async('string')).toContain(
      '<dc:title>2024 年第三季度销售报告</dc:title>',
    );
    expect(readdirSync(ws).sort()).toEqual(['report.docx', 'report.json']);
  });

  it('drops characters XML cannot hold, so Word still opens the file', async () => {
    input('report.json', {
      title: 'Bell\u0007 and \ud800 half',
      sections: [
        { heading: 'H\u0001', content: ['a\u0002b', { table: { header: ['c\u0003'], rows: [['d\u0004']] } }] },
      ],
    });
    expect((await run(DOCX_SCRIPT, ['report.json', 'report.docx'])).code).toBe(0);
    const zip = await JSZip.loadAsync(readFileSync(join(ws, 'report.docx')));
    for (const name of Object.keys(zip.files).filter((f) => f.endsWith('.xml'))) {
      expect(await zip.file(name)!.async('string')).not.toMatch(
        /[\u0000-\u0008\u000B\u000C\u000E-\u001F]|[\ud800-\udbff](?![\udc00-\udfff])/,
      );
    }
    const { paragraphs, rows } = readDocument(await zip.file('word/document.xml')!.async('string'));
    expect(paragraphs.map((p) => p.text)).toEqual(['Bell and \ufffd half', 'H', 'ab']);
    expect(rows).toEqual([['c'], ['d']]);
  });

  it('refuses invalid input with a line naming the field, exits non-zero and writes nothing', async () => {
    const cases: Array<[unknown, string]> = [
      [{ sections: REPORT.sections }, 'title: expected a non-empty string, got nothing (the field is missing)'],
      [{ title: 'T', sections: [] }, 'sections: expected at least one item, got an empty array'],
      [
        { title: 'T', sections: [{ heading: 'H', content: [{ paragraphs: 'x' }] }] },
        'sections[0].content[0]: expected a string or an object with exactly one of paragraph, subheading, bullets, numbered, table, got an object {"paragraphs":"x"}',
      ],
      [
        { title: 'T', sections: [{ heading: 'H', content: [{ table: { header: ['a', 'b'], rows: [['1']] } }] }] },
        'sections[0].content[0].table.rows[0]: expected 2 cells (one per header), got 1',
      ],
      [
        { title: 'T', titel: 'typo', sections: [{ heading: 'H' }] },
        'the input: unknown field "titel"; allowed fields are title, subtitle, author, date, sections',
      ],
      ['{"title": "T",', 'report.json is not valid JSON: '],
    ];
    for (const [value, message] of cases) {
      input('report.json', value);
      const r = await run(DOCX_SCRIPT, ['report.json', 'report.docx']);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr.startsWith(`make-docx.mjs: ${message}`)).toBe(true);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(readdirSync(ws)).toEqual(['report.json']);
    }
    const usage = await run(DOCX_SCRIPT, ['report.json']);
    expect(usage).toMatchObject({
      code: 2,
      stderr:
        'make-docx.mjs: expected an input and an output file, got 1 argument(s). Usage: node make-docx.mjs INPUT.json OUTPUT.docx [--force]\n',
    });
    expect((await run(DOCX_SCRIPT, ['missing.json', 'out.docx'])).stderr).toBe(
      'make-docx.mjs: the input file missing.json does not exist\n',
    );
  });

  it('leaves an existing output alone unless --force, and leaves no temporary file behind', async () => {
    input('report.json', REPORT);
    writeFileSync(join(ws, 'report.docx'), "the user's own file");
    const refused = await run(DOCX_SCRIPT, ['report.json', 'report.docx']);
    expect(refused).toMatchObject({
      code: 1,
      stdout: '',
      stderr:
        'make-docx.mjs: report.docx already exists and was left unchanged; pass --force to replace it, or choose another name\n',
    });
    expect(readFileSync(join(ws, 'report.docx'), 'utf8')).toBe("the user's own file");
    const forced = await run(DOCX_SCRIPT, ['report.json', 'report.docx', '--force']);
    expect(forced.code).toBe(0);
    expect(readFileSync(join(ws, 'report.docx')).subarray(0, 2).toString()).toBe('PK');
    expect(readdirSync(ws).sort()).toEqual(['report.docx', 'report.json']);
  });
});

const SHEET = {
  sheets: [
    {
      name: '七月销售 July',
      columns: [
        { header: '日期 Date', key: 'date', type: 'date' },
        { header: '地区 Region', key: 'region' },
        { header: '销售额 Sales', key: 'sales', type: 'currency', symbol: '¥' },
        { header: '增长 Growth', key: 'growth', type: 'percent' },
        { header: '订单数 Orders', key: 'orders', type: 'number', width: 12 },
      ],
      rows: [
        { date: '2024-07-01', region: '华东', sales: 1200.5, growth: 0.12, orders: 31 },
        { date: '2024-07-02', region: '华南', sales: '¥800', growth: '8.5%', orders: 22 },
        ['2024-07-03', '00123', 99.99, -0.02, null],
      ],
      totals: { label: '合计 Total', columns: ['sales', 'orders'] },
    },
    { name: 'Notes', columns: [{ header: 'Note', key: 'note' }], rows: [['备注：数据来自 CRM']] },
  ],
};

describe('xlsx-sheet: make-xlsx.mjs', () => {
  it('writes a real workbook: sheets, header, typed values, number formats, a SUM row, frozen header and a filter', async () => {
    input('sheet.json', SHEET);
    const r = await run(XLSX_SCRIPT, ['sheet.json', 'sales.xlsx']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Wrote sales\.xlsx \(2 sheets, 4 rows, \d+\.\d KB\)\n$/);

    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(join(ws, 'sales.xlsx'));
    expect(book.worksheets.map((s) => s.name)).toEqual(['七月销售 July', 'Notes']);
    const sheet = book.getWorksheet('七月销售 July')!;
    const values = (row: number) => (sheet.getRow(row).values as unknown[]).slice(1);
    expect(values(1)).toEqual(['日期 Date', '地区 Region', '销售额 Sales', '增长 Growth', '订单数 Orders']);
    expect(sheet.getRow(1).font).toMatchObject({ bold: true });
    expect(values(2)).toEqual([new Date(Date.UTC(2024, 6, 1)), '华东', 1200.5, 0.12, 31]);
    expect(values(3)).toEqual([new Date(Date.UTC(2024, 6, 2)), '华南', 800, 0.085, 22]);
    // A text column keeps leading zeros; an empty value is an empty cell.
    expect(values(4)).toEqual([new Date(Date.UTC(2024, 6, 3)), '00123', 99.99, -0.02]);
    expect(['A2', 'B2', 'C2', 'D2', 'E2'].map((a) => sheet.getCell(a).numFmt)).toEqual([
      'yyyy-mm-dd',
      '@',
      '"¥"#,##0.00',
      '0.0%',
      '#,##0',
    ]);
    expect(sheet.getCell('A5').value).toBe('合计 Total');
    expect(sheet.getCell('C5').value).toEqual({ formula: 'SUM(C2:C4)', result: 2100.49 });
    expect(sheet.getCell('E5').value).toEqual({ formula: 'SUM(E2:E4)', result: 53 });
    expect(sheet.getCell('C5').numFmt).toBe('"¥"#,##0.00');
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1, topLeftCell: 'A2' });
    expect(sheet.autoFilter).toBe('A1:E4');
    expect(sheet.getColumn(5).width).toBe(12);
    expect(sheet.getColumn(2).width).toBeGreaterThanOrEqual(13);
    expect(book.getWorksheet('Notes')!.getCell('A2').value).toBe('备注：数据来自 CRM');
  });

  it('refuses invalid input with a line naming the cell or field, exits non-zero and writes nothing', async () => {
    const sheet = SHEET.sheets[0]!;
    const cases: Array<[unknown, string]> = [
      [
        { sheets: [{ ...sheet, rows: [{ ...sheet.rows[0], date: '2024-02-30' }] }] },
        'sheets[0].rows[0].date: expected a date as "YYYY-MM-DD" (optionally with "THH:MM"), got a string "2024-02-30"',
      ],
      [
        { sheets: [{ ...sheet, rows: [{ ...sheet.rows[0], sales: 'lots' }] }] },
        'sheets[0].rows[0].sales: column "sales" is currency, so expected a number, got a string "lots"',
      ],
      [
        { sheets: [{ ...sheet, rows: [{ ...sheet.rows[0], amount: 1 }] }] },
        'sheets[0].rows[0]: unknown field "amount"; allowed fields are date, region, sales, growth, orders',
      ],
      [
        { sheets: [{ ...sheet, totals: { columns: ['region'] } }] },
        'sheets[0].totals.columns[0]: column "region" is text; only number and currency columns can be summed',
      ],
      [
        { sheets: [{ ...sheet, name: 'a/b' }] },
        'sheets[0].name: Excel allows at most 31 characters and none of [ ] : * ? / \\ in a sheet\'s name, got a string "a/b"',
      ],
      [
        { sheets: [sheet, { ...sheet, name: '七月销售 JULY' }] },
        'sheets[1].name: another sheet is already called "七月销售 JULY"',
      ],
      [
        { sheets: [{ ...sheet, columns: [{ header: 'x', key: 'x', type: 'money' }] }] },
        'sheets[0].columns[0].type: expected one of text, number, date, percent, currency, got a string "money"',
      ],
    ];
    for (const [value, message] of cases) {
      input('sheet.json', value);
      const r = await run(XLSX_SCRIPT, ['sheet.json', 'out.xlsx']);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(`make-xlsx.mjs: ${message}\n`);
      expect(readdirSync(ws)).toEqual(['sheet.json']);
    }
    expect(await run(XLSX_SCRIPT, ['sheet.json', 'out.csv'])).toMatchObject({
      code: 2,
      stderr: 'make-xlsx.mjs: the output file must end with .xlsx, got "out.csv"\n',
    });
  });

  it('leaves an existing output alone unless --force', async () => {
    input('sheet.json', SHEET);
    writeFileSync(join(ws, 'sales.xlsx'), 'keep me');
    const refused = await run(XLSX_SCRIPT, ['sheet.json', 'sales.xlsx']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      'make-xlsx.mjs: sales.xlsx already exists and was left unchanged; pass --force to replace it, or choose another name\n',
    );
    expect(readFileSync(join(ws, 'sales.xlsx'), 'utf8')).toBe('keep me');
    expect((await run(XLSX_SCRIPT, ['sheet.json', 'sales.xlsx', '--force'])).code).toBe(0);
    expect(existsSync(join(ws, 'sales.xlsx')) && readFileSync(join(ws, 'sales.xlsx')).subarray(0, 2).toString()).toBe(
      'PK',
    );
  });
});

describe('the office skills', () => {
  it('document an example their own script accepts', async () => {
    for (const [skill, script, output] of [
      ['docx-report', DOCX_SCRIPT, 'example.docx'],
      ['xlsx-sheet', XLSX_SCRIPT, 'example.xlsx'],
    ] as const) {
      const doc = readFileSync(join(REPO_ROOT, 'skills', skill, 'SKILL.md'), 'utf8');
      const examples = [...doc.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]!);
      expect(examples).toHaveLength(1);
      input('example.json', examples[0]!);
      const r = await run(script, ['example.json', output]);
      expect(r.stderr).toBe('');
      expect(r.stdout).toMatch(new RegExp(`^Wrote ${output.replace('.', '\\.')} \\(`));
    }
  });

  it('carry the same input and output rules: their io.mjs copies do not drift apart', () => {
    const copy = (skill: string) => readFileSync(join(REPO_ROOT, 'skills', skill, 'scripts', 'io.mjs'), 'utf8');
    expect(copy('xlsx-sheet')).toBe(copy('docx-report'));
  });
});
