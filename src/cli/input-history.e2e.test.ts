import { spawn } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  lstatSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openInputHistory, parseHistory } from './input-history.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const historyPath = () => {
  const dir = mkdtempSync(join(tmpdir(), 'zhixing-history-'));
  dirs.push(dir);
  return join(dir, 'history');
};

describe('the input history file', () => {
  it('keeps entries across runs, several lines whole, private to the user', () => {
    const path = historyPath();
    const h = openInputHistory({ path });
    h.add('帮我算一下 (3+5)*2');
    h.add('line one\nline two\n"quoted" \\ back');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(openInputHistory({ path }).entries()).toEqual([
      '帮我算一下 (3+5)*2',
      'line one\nline two\n"quoted" \\ back',
    ]);
  });

  it('drops consecutive duplicates and blank entries', () => {
    const path = historyPath();
    const h = openInputHistory({ path });
    for (const e of ['a', 'a', '  ', 'b', 'a']) h.add(e);
    expect(h.entries()).toEqual(['a', 'b', 'a']);
    expect(openInputHistory({ path }).entries()).toEqual(['a', 'b', 'a']);
  });

  it('a rewrite never writes through, nor removes, a file already at a temp name', () => {
    const path = historyPath();
    // What the rewrite's temp was once named: here a link to a file of the user's, and a file of the user's.
    const victim = join(path, '..', 'notes.txt');
    writeFileSync(victim, 'my notes');
    symlinkSync(victim, `${path}.${process.pid}.tmp`);
    const h = openInputHistory({ path, maxEntries: 10 });
    for (let i = 1; i <= 25; i++) h.add(`entry ${i}`);
    expect(h.entries()).toHaveLength(10);
    expect(readFileSync(victim, 'utf8')).toBe('my notes');
    expect(readlinkSync(`${path}.${process.pid}.tmp`)).toBe(victim);
    expect(lstatSync(path).isFile()).toBe(true);
  });

  it('keeps the newest entries only, rewriting the file when it has grown to twice that', () => {
    const path = historyPath();
    const h = openInputHistory({ path, maxEntries: 10 });
    for (let i = 1; i <= 25; i++) h.add(`entry ${i}`);
    expect(h.entries()).toEqual(Array.from({ length: 10 }, (_, i) => `entry ${i + 16}`));
    const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
    // Rewritten at the 21st entry to the newest 10, then four more appended.
    expect(lines.length).toBe(14);
    expect(openInputHistory({ path, maxEntries: 10 }).entries()).toEqual(h.entries());
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('skips a line cut short, and the next entry starts a line of its own', () => {
    const path = historyPath();
    openInputHistory({ path }).add('whole');
    // What a process killed in the middle of a write (or a full disk) can leave.
    appendFileSync(path, '"cut sh');
    const h = openInputHistory({ path });
    expect(h.entries()).toEqual(['whole']);
    h.add('after');
    expect(openInputHistory({ path }).entries()).toEqual(['whole', 'after']);
    expect(parseHistory('"a"\n{"x":1}\n42\n"b"\n')).toEqual(['a', 'b']);
  });

  it('narrows a file others can read to the user', () => {
    const path = historyPath();
    writeFileSync(path, '"old"\n');
    chmodSync(path, 0o644);
    openInputHistory({ path }).add('new');
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('says once when it cannot write, and goes on in memory', () => {
    const errors: Error[] = [];
    const h = openInputHistory({ path: join(historyPath(), 'no-such-dir', 'history'), onError: (e) => errors.push(e) });
    h.add('a');
    h.add('b');
    expect(h.entries()).toEqual(['a', 'b']);
    expect(errors).toHaveLength(1);
  });

  it('loses nothing and mixes nothing when two REPLs write at once, compactions included', async () => {
    const path = historyPath();
    const url = pathToFileURL(join(import.meta.dirname, '../../dist/cli/input-history.js')).href;
    // Each writer re-opens the file as a new REPL would, so it also reads and rewrites what the other wrote.
    const writer = (name: string) =>
      new Promise<number | null>((resolve, reject) => {
        const code = `import { openInputHistory } from ${JSON.stringify(url)};
          const h = openInputHistory({ path: ${JSON.stringify(path)}, maxEntries: 100 });
          for (let i = 0; i < 300; i++) h.add('${name} ' + i + '\\n' + 'x'.repeat(i % 50) + ' 天气');`;
        const child = spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: 'inherit' });
        child.on('error', reject);
        child.on('close', resolve);
      });
    expect(await Promise.all([writer('A'), writer('B'), writer('C')])).toEqual([0, 0, 0]);
    const text = readFileSync(path, 'utf8');
    // Every line is a whole entry.
    for (const line of text.split('\n').filter(Boolean)) expect(typeof JSON.parse(line)).toBe('string');
    const entries = parseHistory(text);
    expect(entries.length).toBeGreaterThanOrEqual(100);
    // It was rewritten along the way: 900 entries were appended.
    expect(text.split('\n').filter(Boolean).length).toBeLessThan(900);
    // None is there twice; the last one written is the newest.
    expect(new Set(entries).size).toBe(entries.length);
    expect(entries.at(-1)).toMatch(/^[ABC] 299\n/);
  });
});
