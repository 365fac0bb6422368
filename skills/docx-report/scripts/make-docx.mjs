#!/usr/bin/env node
// Builds a Word report (.docx) from a JSON description of it; ../SKILL.md documents the format.
// Usage: node make-docx.mjs INPUT.json OUTPUT.docx [--force]
// Runs offline. `docx` resolves from the Zhixing install this skill ships with.
import { basename } from 'node:path';
import { InputError, describe, parseArgs, readJson, writeOutput } from './io.mjs';

const USAGE = 'Usage: node make-docx.mjs INPUT.json OUTPUT.docx [--force]';
// Word falls back per script: Latin text takes the first two, Chinese the East Asian font.
const LATIN_FONT = 'Calibri';
const EAST_ASIAN_FONT = 'Microsoft YaHei';
const FONT = { ascii: LATIN_FONT, hAnsi: LATIN_FONT, cs: LATIN_FONT, eastAsia: EAST_ASIAN_FONT };
const BODY_HALF_POINTS = 22;
const HEADER_FILL = 'D9E2F3';
const REPORT_KEYS = ['title', 'subtitle', 'author', 'date', 'sections'];
const SECTION_KEYS = ['heading', 'content'];
const BLOCK_KEYS = ['paragraph', 'subheading', 'bullets', 'numbered', 'table'];
const TABLE_KEYS = ['header', 'rows', 'caption'];
const NUMBERED = 'numbered-list';

// --- Checking the input: every message names the field and what it should have been.

/** Text as XML can hold it: control characters (other than tab and line break) and lone surrogates would make Word refuse the file. */
const clean = (value) => value.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '').toWellFormed();

function text(value, path, { optional = false } = {}) {
  if (value === undefined && optional) return undefined;
  if (typeof value !== 'string' || value.trim() === '')
    throw new InputError(`${path}: expected a non-empty string, got ${describe(value)}`);
  return clean(value);
}

function onlyKeys(object, allowed, path) {
  for (const key of Object.keys(object)) {
    if (!allowed.includes(key))
      throw new InputError(`${path}: unknown field "${key}"; allowed fields are ${allowed.join(', ')}`);
  }
}

function record(value, path) {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new InputError(`${path}: expected an object, got ${describe(value)}`);
  return value;
}

function list(value, path, { nonEmpty = true } = {}) {
  if (!Array.isArray(value)) throw new InputError(`${path}: expected an array, got ${describe(value)}`);
  if (nonEmpty && value.length === 0) throw new InputError(`${path}: expected at least one item, got an empty array`);
  return value;
}

function cell(value, path) {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'string' || typeof value === 'boolean') return clean(String(value));
  throw new InputError(`${path}: expected a string, a number or null, got ${describe(value)}`);
}

function checkTable(value, path) {
  const table = record(value, path);
  onlyKeys(table, TABLE_KEYS, path);
  const header = list(table.header, `${path}.header`).map((h, i) => text(h, `${path}.header[${i}]`));
  const rows = list(table.rows ?? [], `${path}.rows`, { nonEmpty: false }).map((row, r) => {
    const cells = list(row, `${path}.rows[${r}]`);
    if (cells.length !== header.length) {
      throw new InputError(`${path}.rows[${r}]: expected ${header.length} cells (one per header), got ${cells.length}`);
    }
    return cells.map((c, i) => cell(c, `${path}.rows[${r}][${i}]`));
  });
  return { header, rows, caption: text(table.caption, `${path}.caption`, { optional: true }) };
}

function checkBlock(value, path) {
  if (typeof value === 'string') return { paragraph: clean(value) };
  const block = record(value, path);
  const keys = Object.keys(block);
  if (keys.length !== 1 || !BLOCK_KEYS.includes(keys[0])) {
    throw new InputError(
      `${path}: expected a string or an object with exactly one of ${BLOCK_KEYS.join(', ')}, got ${describe(value)}`,
    );
  }
  const [key] = keys;
  const at = `${path}.${key}`;
  if (key === 'paragraph' || key === 'subheading') return { [key]: text(block[key], at) };
  if (key === 'table') return { table: checkTable(block.table, at) };
  return { [key]: list(block[key], at).map((item, i) => text(item, `${at}[${i}]`)) };
}

/** The report as the builder wants it, or an InputError saying what is wrong with it. */
export function checkReport(value) {
  const report = record(value, 'the input');
  onlyKeys(report, REPORT_KEYS, 'the input');
  return {
    title: text(report.title, 'title'),
    subtitle: text(report.subtitle, 'subtitle', { optional: true }),
    author: text(report.author, 'author', { optional: true }),
    date: text(report.date, 'date', { optional: true }),
    sections: list(report.sections, 'sections').map((s, i) => {
      const section = record(s, `sections[${i}]`);
      onlyKeys(section, SECTION_KEYS, `sections[${i}]`);
      return {
        heading: text(section.heading, `sections[${i}].heading`),
        content: list(section.content ?? [], `sections[${i}].content`, { nonEmpty: false }).map((b, j) =>
          checkBlock(b, `sections[${i}].content[${j}]`),
        ),
      };
    }),
  };
}

// --- Building the document, with the `docx` library handed in once the input has passed.

export function documentBuilder({
  AlignmentType,
  BorderStyle,
  Document,
  HeadingLevel,
  LevelFormat,
  Paragraph,
  ShadingType,
  Table,
  TableCell,
  TableRow,
  TextRun,
  WidthType,
}) {
  /** Runs of a line of text: `**bold**` as models write it becomes bold, line breaks stay line breaks. */
  function runs(line, extra = {}) {
    return line.split('\n').flatMap((part, i) =>
      part
        .split(/\*\*(.+?)\*\*/)
        .filter((piece, j) => piece !== '' || j % 2 === 1)
        .map(
          (piece, j) =>
            new TextRun({
              text: piece,
              bold: j % 2 === 1 || extra.bold,
              break: i > 0 && j === 0 ? 1 : undefined,
              ...extra,
            }),
        ),
    );
  }

  function tableOf({ header, rows }) {
    const border = { style: BorderStyle.SINGLE, size: 4, color: '808080' };
    const borders = { top: border, bottom: border, left: border, right: border };
    const numeric = (value) => /^-?[\d,]+(\.\d+)?%?$/.test(value);
    const row = (cells, isHeader) =>
      new TableRow({
        tableHeader: isHeader,
        children: cells.map(
          (value) =>
            new TableCell({
              borders,
              shading: isHeader ? { type: ShadingType.CLEAR, fill: HEADER_FILL, color: 'auto' } : undefined,
              children: [
                new Paragraph({
                  alignment: !isHeader && numeric(value) ? AlignmentType.RIGHT : AlignmentType.LEFT,
                  children: runs(value, isHeader ? { bold: true } : {}),
                }),
              ],
            }),
        ),
      });
    return new Table({
      width: { size: 100, type: WidthType.PERCENTAGE },
      rows: [row(header, true), ...rows.map((r) => row(r, false))],
    });
  }

  function buildDocument(report) {
    const children = [new Paragraph({ heading: HeadingLevel.TITLE, children: runs(report.title) })];
    if (report.subtitle) children.push(new Paragraph({ style: 'Subtitle', children: runs(report.subtitle) }));
    const byline = [report.author, report.date].filter(Boolean).join(' · ');
    if (byline)
      children.push(new Paragraph({ children: [new TextRun({ text: byline, italics: true, color: '595959' })] }));
    let lists = 0;
    for (const section of report.sections) {
      children.push(new Paragraph({ heading: HeadingLevel.HEADING_1, children: runs(section.heading) }));
      for (const block of section.content) {
        if (block.paragraph !== undefined)
          children.push(new Paragraph({ children: runs(block.paragraph), spacing: { after: 120 } }));
        else if (block.subheading !== undefined)
          children.push(new Paragraph({ heading: HeadingLevel.HEADING_2, children: runs(block.subheading) }));
        else if (block.bullets)
          children.push(...block.bullets.map((item) => new Paragraph({ bullet: { level: 0 }, children: runs(item) })));
        else if (block.numbered) {
          // Each list its own instance, so every numbered list starts again at 1.
          const instance = ++lists;
          children.push(
            ...block.numbered.map(
              (item) => new Paragraph({ numbering: { reference: NUMBERED, level: 0, instance }, children: runs(item) }),
            ),
          );
        } else {
          if (block.table.caption)
            children.push(
              new Paragraph({
                children: [new TextRun({ text: block.table.caption, bold: true })],
                spacing: { before: 120, after: 60 },
              }),
            );
          children.push(tableOf(block.table), new Paragraph({ children: [] }));
        }
      }
    }
    // The outline level puts headings in Word's navigation pane and its table of contents.
    const heading = (halfPoints, outlineLevel) => ({
      run: { font: FONT, size: halfPoints, bold: true, color: '1F3864' },
      paragraph: { outlineLevel, spacing: { before: 240, after: 120 } },
    });
    return new Document({
      title: report.title,
      creator: report.author ?? 'Zhixing',
      styles: {
        default: {
          document: { run: { font: FONT, size: BODY_HALF_POINTS, language: { value: 'en-US', eastAsia: 'zh-CN' } } },
          title: { run: { font: FONT, size: 48, bold: true } },
          heading1: heading(32, 0),
          heading2: heading(26, 1),
        },
        paragraphStyles: [
          {
            id: 'Subtitle',
            name: 'Subtitle',
            basedOn: 'Normal',
            next: 'Normal',
            run: { font: FONT, size: 28, color: '595959' },
          },
        ],
      },
      numbering: {
        config: [
          {
            reference: NUMBERED,
            levels: [
              {
                level: 0,
                format: LevelFormat.DECIMAL,
                text: '%1.',
                alignment: AlignmentType.START,
                style: { paragraph: { indent: { left: 720, hanging: 360 } } },
              },
            ],
          },
        ],
      },
      sections: [{ children }],
    });
  }

  return buildDocument;
}

async function main(argv) {
  const { input, output, force } = parseArgs(argv, USAGE, '.docx');
  const report = checkReport(readJson(input));
  // Loaded only for input that passed: a mistake is reported at once, without loading the library.
  const docx = await import('docx');
  const bytes = await docx.Packer.toBuffer(documentBuilder(docx)(report));
  const size = writeOutput(output, bytes, force);
  const tables = report.sections.flatMap((s) => s.content).filter((b) => b.table).length;
  const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
  console.log(`Wrote ${output} (${plural(report.sections.length, 'section')}, ${plural(tables, 'table')}, ${size})`);
}

main(process.argv.slice(2)).catch((err) => {
  // A problem with the input is one line to act on; anything else is a bug, shown with its stack.
  const known = err instanceof InputError;
  console.error(
    `${basename(process.argv[1] ?? 'make-docx.mjs')}: ${known ? err.message : `failed: ${err?.stack ?? err}`}`,
  );
  process.exitCode = known ? err.exitCode : 1;
});
