import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parsePlainFrontMatter } from './plain-front-matter.js';
import { shippedSkillsDir } from './shipped.js';
import { splitFrontMatter } from './skill-file.js';

/** YAML's reading of a text, or 'error'. */
const yaml = (text: string): unknown => {
  try {
    return parse(text);
  } catch {
    return 'error';
  }
};

// Values chosen to sit on each side of the line between plain text and what YAML reads otherwise.
const VALUES = [
  'Write a Word document (.docx) from data',
  '2024 年第三季度销售报告',
  'a, b and c',
  'a [b] {c}',
  'x: y',
  'x:y',
  'ends with:',
  'a # comment',
  'a#b',
  '#start',
  "it's fine",
  '"quoted"',
  "'single'",
  'a "b" c',
  '- item',
  '-x',
  '? q',
  ': c',
  '! tag',
  '& anchor',
  '* alias',
  '| block',
  '> folded',
  '% d',
  '@ at',
  '` tick',
  'true',
  'True',
  'yes',
  'no',
  'on',
  'null',
  '~',
  'NULL',
  '123',
  '-5',
  '+7',
  '0o17',
  '0x1F',
  '1.5',
  '.5',
  '1e3',
  '1.',
  '.inf',
  '-.Inf',
  '.nan',
  '1_000',
  '12:30',
  '2024-07-01',
  '1.2.3',
  'v1.0',
  '.hidden',
  'trailing spaces   ',
  'tab\there',
  'a\u2028b',
  '中文：冒号',
  'emoji 🎉',
  'back\\slash',
  'percent 100%',
  'C#',
  'a,b',
  'a?b',
  'a!b',
];

describe('plain front matter', () => {
  it('reads exactly what YAML reads, or leaves the text to YAML', () => {
    let read = 0;
    for (const value of VALUES) {
      for (const text of [
        `name: skill\ndescription: ${value}\n`,
        `description: ${value}\r\nname: x\r\n`,
        `# note\nname:   ${value}\n\nlicense: MIT`,
      ]) {
        const plain = parsePlainFrontMatter(text);
        if (plain === undefined) continue;
        read++;
        expect(plain, JSON.stringify(text)).toEqual(yaml(text));
      }
    }
    // Most everyday values are read here; the test is only worth something if many were.
    expect(read).toBeGreaterThan(60);
  });

  it('leaves structure, duplicates and empty values to YAML', () => {
    for (const text of [
      'name: a\nname: b',
      'name: a\nmetadata:\n  author: x',
      'name: a\ndescription: >\n  folded',
      'name: a\ntags:\n  - x',
      'name:\ndescription: x',
      '  name: a',
      'name:\ta',
      '',
      '# only a comment',
      '%YAML 1.2\nname: a',
      '__proto__: x',
    ]) {
      expect(parsePlainFrontMatter(text), JSON.stringify(text)).toBeUndefined();
    }
  });

  it('reads the shipped skills without YAML', () => {
    for (const name of ['docx-report', 'xlsx-sheet']) {
      const { yaml: text } = splitFrontMatter(readFileSync(join(shippedSkillsDir(), name, 'SKILL.md'), 'utf8'))!;
      expect(parsePlainFrontMatter(text)).toEqual(parse(text));
    }
  });
});
