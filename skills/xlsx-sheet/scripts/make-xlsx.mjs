#!/usr/bin/env node
// Builds an Excel workbook (.xlsx) from a JSON description of its sheets; ../SKILL.md documents the format.
// Usage: node make-xlsx.mjs INPUT.json OUTPUT.xlsx [--force]
// Runs offline. `exceljs` resolves from the Zhixing install this skill ships with.
import { basename } from 'node:path';
import { InputError, describe, parseArgs, readJson, writeOutput } from './io.mjs';

const USAGE = 'Usage: node make-xlsx.mjs INPUT.json OUTPUT.xlsx [--force]';
const TYPES = ['text', 'number', 'date', 'percent', 'currency'];
const SUMMABLE = ['number', 'currency'];
const WORKBOOK_KEYS = ['sheets'];
const SHEET_KEYS = ['name', 'columns', 'rows', 'totals'];
const COLUMN_KEYS = ['header', 'key', 'type', 'width', 'decimals', 'symbol'];
const TOTALS_KEYS = ['label', 'columns'];
/** Excel's own limits on a sheet's name. */
const MAX_SHEET_NAME_CHARS = 31;
const BAD_SHEET_NAME_CHARS = /[[\]:*?/\\]/;
const MAX_DECIMALS = 10;
const MIN_WIDTH = 8;
const MAX_WIDTH = 60;
const DEFAULT_SYMBOL = '¥';
const HEADER_FILL = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFD9E2F3' } };
// 2024-07-01, optionally with a time: what JSON carries for a date.
const DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?Z?$/;
const NUMBER = /^[-+]?(\d{1,3}(,\d{3})+|\d+)?(\.\d+)?$/;

// --- Checking the input: every message names the field and what it should have been.

function record(value, path, allowed) {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new InputError(`${path}: expected an object, got ${describe(value)}`);
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key))
      throw new InputError(`${path}: unknown field "${key}"; allowed fields are ${allowed.join(', ')}`);
  }
  return value;
}

function list(value, path, nonEmpty = true) {
  if (!Array.isArray(value) || (nonEmpty && value.length === 0))
    throw new InputError(`${path}: expected ${nonEmpty ? 'a non-empty array' : 'an array'}, got ${describe(value)}`);
  return value;
}

function text(value, path) {
  if (typeof value !== 'string' || value.trim() === '')
    throw new InputError(`${path}: expected a non-empty string, got ${describe(value)}`);
  return value;
}

function whole(value, path, min, max) {
  if (!Number.isInteger(value) || value < min || value > max)
    throw new InputError(`${path}: expected a whole number from ${min} to ${max}, got ${describe(value)}`);
  return value;
}

function checkColumn(value, path, seen) {
  const c = record(value, path, COLUMN_KEYS);
  const key = text(c.key, `${path}.key`);
  if (seen.has(key))
    throw new InputError(`${path}.key: "${key}" is already the key of another column; keys must differ`);
  seen.add(key);
  const type = c.type ?? 'text';
  if (!TYPES.includes(type))
    throw new InputError(`${path}.type: expected one of ${TYPES.join(', ')}, got ${describe(type)}`);
  return {
    header: text(c.header, `${path}.header`),
    key,
    type,
    width: c.width === undefined ? undefined : whole(c.width, `${path}.width`, 1, 255),
    decimals: c.decimals === undefined ? undefined : whole(c.decimals, `${path}.decimals`, 0, MAX_DECIMALS),
    symbol: c.symbol === undefined ? DEFAULT_SYMBOL : text(c.symbol, `${path}.symbol`),
  };
}

/** A cell's value for its column's type: a string, a number, a Date or null (empty). */
function cellValue(value, column, path) {
  if (value === null || value === undefined || value === '') return null;
  const { type } = column;
  if (type === 'text') {
    if (['string', 'number', 'boolean'].includes(typeof value)) return String(value);
  } else if (type === 'date') {
    const m = typeof value === 'string' ? DATE.exec(value.trim()) : null;
    if (m) {
      const [y, mo, d, h = 0, mi = 0, s = 0] = m.slice(1).map((x) => (x === undefined ? undefined : Number(x)));
      const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
      // Date.UTC rolls 2024-02-30 over into March: a date that does not exist is refused instead.
      if (date.getUTCMonth() === mo - 1 && date.getUTCDate() === d) return date;
    }
    throw new InputError(`${path}: expected a date as "YYYY-MM-DD" (optionally with "THH:MM"), got ${describe(value)}`);
  } else {
    if (typeof value === 'number' && Number.isFinite(value)) return value;
    if (typeof value === 'string') {
      const plain = type === 'currency' ? value.trim().replace(column.symbol, '').trim() : value.trim();
      const percent = type === 'percent' && plain.endsWith('%');
      const digits = percent ? plain.slice(0, -1).trim() : plain;
      const number = NUMBER.test(digits) ? Number(digits.replace(/,/g, '')) / (percent ? 100 : 1) : NaN;
      if (/\d/.test(digits) && Number.isFinite(number)) return number;
    }
  }
  const expected = {
    text: 'text or a number',
    number: 'a number',
    percent: 'a fraction such as 0.125 or a string such as "12.5%"',
    currency: 'a number',
  }[type];
  throw new InputError(`${path}: column "${column.key}" is ${type}, so expected ${expected}, got ${describe(value)}`);
}

function checkRow(value, columns, path) {
  if (Array.isArray(value)) {
    if (value.length !== columns.length)
      throw new InputError(`${path}: expected ${columns.length} values (one per column), got ${value.length}`);
    return columns.map((c, i) => cellValue(value[i], c, `${path}[${i}]`));
  }
  const row = record(
    value,
    path,
    columns.map((c) => c.key),
  );
  return columns.map((c) => cellValue(row[c.key], c, `${path}.${c.key}`));
}

function checkSheet(value, path, names) {
  const s = record(value, path, SHEET_KEYS);
  const name = text(s.name, `${path}.name`);
  if (name.length > MAX_SHEET_NAME_CHARS || BAD_SHEET_NAME_CHARS.test(name)) {
    throw new InputError(
      `${path}.name: Excel allows at most ${MAX_SHEET_NAME_CHARS} characters and none of [ ] : * ? / \\ in a sheet's name, got ${describe(name)}`,
    );
  }
  if (names.has(name.toLowerCase())) throw new InputError(`${path}.name: another sheet is already called "${name}"`);
  names.add(name.toLowerCase());
  const seen = new Set();
  const columns = list(s.columns, `${path}.columns`).map((c, i) => checkColumn(c, `${path}.columns[${i}]`, seen));
  const rows = list(s.rows ?? [], `${path}.rows`, false).map((r, i) => checkRow(r, columns, `${path}.rows[${i}]`));
  let totals;
  if (s.totals !== undefined) {
    const t = record(s.totals, `${path}.totals`, TOTALS_KEYS);
    const summed = list(t.columns, `${path}.totals.columns`).map((key, i) => {
      const at = `${path}.totals.columns[${i}]`;
      const index = columns.findIndex((c) => c.key === key);
      if (index < 0)
        throw new InputError(
          `${at}: no column has the key ${describe(key)}; keys are ${columns.map((c) => c.key).join(', ')}`,
        );
      if (index === 0)
        throw new InputError(`${at}: the first column holds the totals row's label, so it cannot be summed`);
      if (!SUMMABLE.includes(columns[index].type))
        throw new InputError(
          `${at}: column "${key}" is ${columns[index].type}; only number and currency columns can be summed`,
        );
      return index;
    });
    if (rows.length === 0) throw new InputError(`${path}.totals: a totals row needs at least one row of data`);
    totals = { label: t.label === undefined ? 'Total' : text(t.label, `${path}.totals.label`), columns: summed };
  }
  return { name, columns, rows, totals };
}

/** The workbook as the builder wants it, or an InputError saying what is wrong with it. */
export function checkWorkbook(value) {
  const w = record(value, 'the input', WORKBOOK_KEYS);
  const names = new Set();
  return { sheets: list(w.sheets, 'sheets').map((s, i) => checkSheet(s, `sheets[${i}]`, names)) };
}

// --- Building the workbook.

function numberFormat(column, rows, index) {
  const fraction = (d) => (d > 0 ? `.${'0'.repeat(d)}` : '');
  switch (column.type) {
    case 'date':
      return rows.some((r) => r[index] instanceof Date && r[index].getTime() % 86_400_000 !== 0)
        ? 'yyyy-mm-dd hh:mm'
        : 'yyyy-mm-dd';
    case 'percent':
      return `0${fraction(column.decimals ?? 1)}%`;
    case 'currency':
      return `"${column.symbol.replace(/"/g, '')}"#,##0${fraction(column.decimals ?? 2)}`;
    case 'number': {
      const decimals = column.decimals ?? (rows.every((r) => r[index] === null || Number.isInteger(r[index])) ? 0 : 2);
      return `#,##0${fraction(decimals)}`;
    }
    default:
      return '@';
  }
}

/** Characters as a column's width counts them: Chinese and other wide characters take two. */
const displayWidth = (s) =>
  [...s].reduce(
    (n, ch) =>
      n +
      (/[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/.test(ch)
        ? 2
        : 1),
    0,
  );

function autoWidth(column, rows, index, format) {
  const shown = rows
    .map((r) => r[index])
    .filter((v) => v !== null)
    .map((v) =>
      v instanceof Date
        ? format
        : typeof v === 'number'
          ? v.toLocaleString('en-US', { maximumFractionDigits: 2 }) + '   '
          : v,
    );
  return Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, ...[column.header, ...shown].map(displayWidth)) + 2);
}

function addSheet(workbook, sheet) {
  const ws = workbook.addWorksheet(sheet.name, { views: [{ state: 'frozen', ySplit: 1 }] });
  ws.columns = sheet.columns.map((c, i) => {
    const numFmt = numberFormat(c, sheet.rows, i);
    return { header: c.header, key: c.key, width: c.width ?? autoWidth(c, sheet.rows, i, numFmt), style: { numFmt } };
  });
  const header = ws.getRow(1);
  header.font = { bold: true };
  header.alignment = { vertical: 'middle', horizontal: 'center', wrapText: true };
  header.eachCell((cell) => (cell.fill = HEADER_FILL));
  for (const values of sheet.rows) ws.addRow(values);
  const lastData = sheet.rows.length + 1;
  ws.autoFilter = { from: { row: 1, column: 1 }, to: { row: lastData, column: sheet.columns.length } };
  if (sheet.totals) {
    const row = ws.addRow([sheet.totals.label]);
    for (const index of sheet.totals.columns) {
      const letter = ws.getColumn(index + 1).letter;
      // The result is stored too, so viewers that do not recalculate still show the sum.
      const result = sheet.rows.reduce((sum, r) => sum + (r[index] ?? 0), 0);
      row.getCell(index + 1).value = { formula: `SUM(${letter}2:${letter}${lastData})`, result };
    }
    row.font = { bold: true };
    row.eachCell({ includeEmpty: true }, (cell) => (cell.border = { top: { style: 'thin' } }));
  }
}

async function main(argv) {
  const { input, output, force } = parseArgs(argv, USAGE, '.xlsx');
  const book = checkWorkbook(readJson(input));
  // Loaded only for input that passed: a mistake is reported at once, without loading the library.
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Zhixing';
  for (const sheet of book.sheets) addSheet(workbook, sheet);
  const size = writeOutput(output, Buffer.from(await workbook.xlsx.writeBuffer()), force);
  const rows = book.sheets.reduce((n, s) => n + s.rows.length, 0);
  const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
  console.log(`Wrote ${output} (${plural(book.sheets.length, 'sheet')}, ${plural(rows, 'row')}, ${size})`);
}

main(process.argv.slice(2)).catch((err) => {
  // A problem with the input is one line to act on; anything else is a bug, shown with its stack.
  const known = err instanceof InputError;
  console.error(
    `${basename(process.argv[1] ?? 'make-xlsx.mjs')}: ${known ? err.message : `failed: ${err?.stack ?? err}`}`,
  );
  process.exitCode = known ? err.exitCode : 1;
});
