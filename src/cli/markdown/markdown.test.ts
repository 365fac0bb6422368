import { describe, expect, it } from 'vitest';
import { textWidth } from '../line-editor/text-width.js';
import { createMarkdownRenderer } from './index.js';

const WIDTH = 40;
const md = createMarkdownRenderer(() => WIDTH);
/** What the terminal shows, colours aside. */
const strip = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');
const render = (text: string) => md.render(text);
const shown = (text: string) => strip(render(text));

/** The text fed in pieces of random sizes (from 1 character up), as a model streams it. */
function streamed(text: string, seed: number, maxPiece = 12): { out: string; pieces: string[] } {
  let x = seed;
  const random = () => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const s = md.stream();
  const pieces: string[] = [];
  for (let i = 0; i < text.length;) {
    const n = 1 + Math.floor(random() * maxPiece);
    pieces.push(s.push(text.slice(i, i + n)));
    i += n;
  }
  pieces.push(s.end());
  return { out: pieces.join(''), pieces };
}

const SAMPLES: Record<string, string> = {
  'a mixed reply': [
    '# 北京天气 Weather',
    '',
    'Today is **sunny** and *mild*, with `AQI 42`. See [the forecast](https://example.com/f?q=1) for more. 今天适合出门散步，记得带水。',
    '',
    '- first',
    '- second with a long line of words that has to wrap under its bullet',
    '  - nested **bold**',
    '    1. deep one',
    '    2. deep two',
    '- [ ] to do',
    '- [x] done',
    '',
    '> a quote with `code`',
    '> - and a list',
    '>',
    '> > nested quote',
    '',
    '| 城市 | 温度 | Note |',
    '|:--|--:|:-:|',
    '| 北京 | 3°C | 晴 |',
    '| Paris | 12°C | cloudy, windy |',
    '',
    '---',
    '',
    '```python',
    'def f(x):',
    '    """doc',
    '    string"""',
    '    return x + 1  # comment',
    '```',
    '',
    'The end.',
  ].join('\n'),
  'tricky inline':
    'snake_case_name, __init__ and __strong__text; AT&T &amp; 1 < 2 > 0; \\*not em\\*; **bold *and em***; ~~gone~~ `a | b` <https://x.y/z>\n',
  'an unclosed fence': 'Here:\n\n```js\nconst a = `template\nstring`; /* block\ncomment */\nlet b = 1;',
  'a table right after a paragraph': 'Results:\n| a | b |\n|---|---|\n| 1 | 2 |\ntext after',
  'ordered lists that continue after blank lines':
    '1. one\n\n2. two\n\n   more of two\n3. three\n\n8) other\n9) list\n',
  'lazy lines and an ordered list inside a paragraph':
    '- item\ncontinued lazily\n\nThe year\n2023. was good\n\n> quote\nlazy quote\n',
  'a heading with closing hashes and rules': '## Title ##\n***\n___\n- - -\n#hashtag is text\n####### seven\n',
  'Chinese prose with punctuation':
    '这是一段很长的中文文字，用来检查换行的时候标点符号不会出现在行首。“引号”也一样（括号）！再来一句：好的。\n',
  'a long word and a long URL':
    'see https://example.com/a/very/long/path/that/does/not/fit/in/forty/columns/at/all ok\n',
  'indented code in a list': '1. Run:\n\n   ```bash\n   npm install\n   npm test # twice\n   ```\n2. Done\n',
};

describe('rendering Markdown for the terminal', () => {
  it('styles headings, emphasis, inline code and links, and drops the markers', () => {
    const out = render('# Title\n\nSome **bold**, *italic*, `code` and a [link](https://a.b/c).\n');
    expect(out).toContain('\x1b[1;4mTitle\x1b[0m');
    expect(out).toContain('\x1b[1mbold\x1b[0m');
    expect(out).toContain('\x1b[3mitalic\x1b[0m');
    expect(out).toContain('\x1b[36mcode\x1b[0m');
    expect(out).toContain('\x1b[4;34mlink\x1b[0m');
    expect(strip(out)).toBe('Title\n\nSome bold, italic, code and a link\n(https://a.b/c).\n');
  });

  it('shows an address once when the link text is the address', () => {
    expect(shown('<https://a.b/c> and [https://a.b/c](https://a.b/c)\n')).toBe('https://a.b/c and https://a.b/c\n');
  });

  it('draws bullets by depth, numbers as written, checkboxes, and hanging indents', () => {
    expect(shown('- a\n- b\n  - c\n    - d\n- [ ] e\n- [x] f\n')).toBe('• a\n• b\n  ◦ c\n    ▪ d\n• ☐ e\n• ☑ f\n');
    expect(shown('3. three\n4. four\n   1. sub\n')).toBe('3. three\n4. four\n   1. sub\n');
    // CommonMark numbers a list from its first number, whatever the later items say.
    expect(shown('1. a\n1. b\n1. c\n')).toBe('1. a\n2. b\n3. c\n');
    expect(shown('- a long item whose words wrap under the first word of the item\n')).toBe(
      '• a long item whose words wrap under the\n  first word of the item\n',
    );
  });

  it('keeps a loose list one list, with its blank lines', () => {
    expect(shown('1. one\n\n2. two\n\n   more of two\n3. three\n')).toBe(
      '1. one\n\n2. two\n\n   more of two\n3. three\n',
    );
  });

  it('marks block quotes with a bar, nested ones with two, lists and code inside them', () => {
    expect(shown('> quoted\n> - item\n>\n> > deeper\n\nafter\n')).toBe('│ quoted\n│ • item\n│\n│ │ deeper\n\nafter\n');
    expect(shown('> ```js\n> let a = 1;\n> ```\n')).toBe('│ ```js\n│ let a = 1;\n│ ```\n');
  });

  it('draws horizontal rules across the width', () => {
    expect(shown('a\n\n---\n\nb\n')).toBe(`a\n\n${'─'.repeat(WIDTH)}\n\nb\n`);
    expect(shown('- - -\n')).toBe(`${'─'.repeat(WIDTH)}\n`);
  });

  it('highlights fenced code by language, line by line, with multi-line strings and comments coloured through', () => {
    const out = render('```python\ndef f(x):\n    """doc\n    string"""\n    return x  # note\n```\n');
    const lines = out.split('\n');
    expect(strip(out)).toBe('```python\ndef f(x):\n    """doc\n    string"""\n    return x  # note\n```\n');
    expect(lines[1]).toContain('\x1b[35mdef\x1b[0m');
    // The docstring's second line is still a string (green): the line before it opened it.
    expect(lines[3]).toBe('\x1b[32m    string"""\x1b[0m');
    expect(lines[4]).toContain('\x1b[90m# note\x1b[0m');
  });

  it('shows code of an unknown language plain, and code spans and blocks verbatim', () => {
    expect(render("```klingon\nqapla' **x**\n```\n")).toBe(
      "\x1b[2m```klingon\x1b[0m\nqapla' **x**\n\x1b[2m```\x1b[0m\n",
    );
    expect(shown('`\\*a*` and `<b>`\n')).toBe('\\*a* and <b>\n');
  });

  it('aligns table columns by display width, CJK counted double, as the delimiter row says', () => {
    const out = shown('| 城市 | 温度 | Note |\n|:--|--:|:-:|\n| 北京 | 3°C | 晴 |\n| Paris | 12°C | cloudy |\n');
    expect(out).toBe(
      [
        '┌───────┬──────┬────────┐',
        '│ 城市  │ 温度 │  Note  │',
        '├───────┼──────┼────────┤',
        '│ 北京  │  3°C │   晴   │',
        '│ Paris │ 12°C │ cloudy │',
        '└───────┴──────┴────────┘',
        '',
      ].join('\n'),
    );
  });

  it('narrows a table wider than the terminal and wraps its cells', () => {
    const out = shown(`| a | b |\n|---|---|\n| ${'word '.repeat(12)}| 北京上海广州深圳杭州南京成都重庆 |\n`);
    const rows = out.trimEnd().split('\n');
    for (const row of rows) expect(textWidth(row)).toBeLessThanOrEqual(WIDTH);
    expect(new Set(rows.map(textWidth)).size).toBe(1);
    expect(out).toContain('北京');
  });

  it('wraps CJK text at character boundaries, never putting closing punctuation first on a row', () => {
    const out = shown(SAMPLES['Chinese prose with punctuation']!);
    for (const row of out.trimEnd().split('\n')) {
      expect(textWidth(row)).toBeLessThanOrEqual(WIDTH);
      expect(row).not.toMatch(/^[，。、；：？！）」』】》”]/);
    }
    expect(out.replace(/\n/g, '')).toBe(SAMPLES['Chinese prose with punctuation']!.trim());
  });

  it('breaks a word longer than a row across rows', () => {
    const out = shown(SAMPLES['a long word and a long URL']!);
    for (const row of out.trimEnd().split('\n')) expect(textWidth(row)).toBeLessThanOrEqual(WIDTH);
    expect(out.replace(/\n/g, '')).toContain(
      'https://example.com/a/very/long/path/that/does/not/fit/in/forty/columns/at/all',
    );
  });

  it('writes no control character but its own colour codes, whatever the text holds', () => {
    const out = render('```bash\necho -e "\\x1b[31m" \x1b]52;c;AAAA\x07 \x9b2J\n```\n`\x1b[8m` **\x1b]0;t\x07**\n');
    expect(out.replace(/\x1b\[[0-9;]*m/g, '')).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
  });

  it('leaves no blank line at the start or the end, and collapses runs of blank lines', () => {
    expect(shown('\n\n\na\n\n\n\nb\n\n\n')).toBe('a\n\nb\n');
  });
});

describe('a streamed reply', () => {
  for (const [name, text] of Object.entries(SAMPLES)) {
    it(`ends up exactly as the whole text rendered at once, however it is cut: ${name}`, () => {
      const whole = render(text);
      for (let seed = 1; seed <= 60; seed++) expect(streamed(text, seed, seed % 3 === 0 ? 3 : 12).out).toBe(whole);
      // One character at a time.
      const s = md.stream();
      expect([...text].map((ch) => s.push(ch)).join('') + s.end()).toBe(whole);
    });
  }

  it('shows the words of a line before the line is complete', () => {
    const s = md.stream();
    expect(strip(s.push('Hello world, this is'))).toBe('Hello world, this');
    expect(strip(s.push(' a reply'))).toBe(' is a');
    expect(strip(s.push('\n'))).toBe(' reply\n');
    expect(strip(s.push('- item one'))).toBe('• item');
    // A line that is no block of its own goes on the item's paragraph (a lazy line).
    expect(strip(s.push('\n**Note:** 今天天气'))).toBe(' one\n  Note: 今天天');
  });

  it('holds what the rest of a line could change: an open emphasis, a possible list, a table', () => {
    const s = md.stream();
    expect(s.push('Some **bold')).toBe('Some');
    expect(s.push(' text')).toBe('');
    expect(strip(s.push('** done\n'))).toBe(' bold text done\n');
    expect(s.push('AT&am')).toBe('');
    expect(strip(s.push('p;T and'))).toBe('AT&T');
    expect(strip(s.push(' more\n'))).toBe(' and more\n');
    expect(s.push('-')).toBe('');
    expect(s.push('--')).toBe('');
    expect(strip(s.push('\n'))).toBe(`${'─'.repeat(WIDTH)}\n`);
    expect(s.push('| a | b |\n')).toBe('');
    expect(s.push('|---|---|\n| 1 | 2 |\n')).toBe('');
    expect(strip(s.end())).toContain('│ 1 │ 2 │');
  });

  it('keeps up with a very long line arriving in small pieces', () => {
    const line = `${'word '.repeat(40_000)}end\n`;
    const s = md.stream();
    const started = performance.now();
    let out = '';
    for (let i = 0; i < line.length; i += 4) out += s.push(line.slice(i, i + 4));
    out += s.end();
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(out).toBe(render(line));
  });

  it('shows each code line of a fence as it completes, before the fence closes', () => {
    const s = md.stream();
    expect(strip(s.push('```js\nlet a = 1;\nlet b'))).toBe('```js\nlet a = 1;\n');
    expect(strip(s.push(' = 2;\n'))).toBe('let b = 2;\n');
  });
});
