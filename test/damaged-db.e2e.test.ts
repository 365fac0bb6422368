import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, openSync, readdirSync, readFileSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createStore } from '../src/store/store.js';
import { BIN, runCli } from './support/cli.js';
import { useTempHomes } from './support/temp-home.js';

/**
 * A damaged zhixing.db as a user meets it: `zhixing "hi"` and `zhixing serve` refuse with a plain
 * sentence and exit 1, and the file keeps every byte it had.
 */
const home = useTempHomes();
const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

/** A home whose database held a conversation, then was damaged by `damage`. */
function damagedHome(damage: (path: string) => void) {
  const h = home();
  const db = join(h.home, 'zhixing.db');
  const store = createStore(db);
  for (let i = 0; i < 50; i++) store.sessions.create(`s_${i}`, `旧会话 ${i}`, i);
  store.close();
  damage(db);
  return { ...h, db, before: sha(db) };
}

const overwrite = (offset: number, bytes: Buffer) => (path: string) => {
  const fd = openSync(path, 'r+');
  writeSync(fd, bytes, 0, bytes.length, offset);
  closeSync(fd);
};

const damages: Array<[string, (path: string) => void, string]> = [
  // Page 2 is the sessions table's root: its cell pointers torn.
  ['bytes overwritten in a table page', overwrite(4096 + 8, Buffer.alloc(64, 0xee)), 'Tree 2 page 2 cell'],
  ['a truncated file', (p) => truncateSync(p, 6000), 'database disk image is malformed'],
  ['a garbage header', overwrite(0, Buffer.from('garbage garbage!')), 'file is not a database'],
];

/** `zhixing serve` until it exits; it must not get as far as serving. */
function serveExit(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0'], {
    cwd: env.ZHIXING_HOME,
    env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

describe('a damaged database', () => {
  it.each(damages)(
    '%s: a one-shot run says so plainly, exits 1, and leaves the file as it was',
    async (_, damage, words) => {
      const h = damagedHome(damage);
      const r = await runCli(['--offline', 'hi'], { ...h.env, ZHIXING_LANG: 'en' });
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(
        new RegExp(
          `^zhixing: The database at ${h.db} is damaged \\(${words}.*\\)\\. Nothing was written to it\\. A copy of it as it was is at ${h.db}\\.damaged-\\d{8}T\\d{6}Z\\. `,
        ),
      );
      expect(r.stderr).not.toContain('internal error');
      expect(sha(h.db)).toBe(h.before);
      const copies = readdirSync(h.home).filter((n) => /^zhixing\.db\.damaged-\d{8}T\d{6}Z$/.test(n));
      expect(copies).toHaveLength(1);
      expect(sha(join(h.home, copies[0]!))).toBe(h.before);
    },
  );

  it('in Chinese for a Chinese message, and --json gets its one object with the code', async () => {
    const h = damagedHome(damages[0]![1]);
    const zh = await runCli(['--offline', '现在几点'], h.env);
    expect(zh.code).toBe(1);
    expect(zh.stderr).toMatch(
      new RegExp(
        `^zhixing: ${h.db} 处的数据库已损坏（Tree 2 page 2 cell .*）。 没有向它写入任何内容。 它原样的副本在 `,
      ),
    );
    const json = await runCli(['--offline', '--json', 'hi'], { ...h.env, ZHIXING_LANG: 'en' });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      session: null,
      reply: '',
      error: { code: 'damaged', message: expect.stringContaining('is damaged') },
    });
    expect(sha(h.db)).toBe(h.before);
  });

  it('serve refuses to start, says why, and leaves the file as it was', async () => {
    const h = damagedHome(damages[0]![1]);
    const r = await serveExit({ ...h.env, ZHIXING_LANG: 'en' });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      new RegExp(
        `^zhixing: The database at ${h.db} is damaged \\(Tree 2 page 2 cell .*\\)\\. Nothing was written to it\\.`,
      ),
    );
    expect(sha(h.db)).toBe(h.before);
  });

  it('a file that is not a database at all is refused the same way, not started over', async () => {
    const h = home();
    const db = join(h.home, 'zhixing.db');
    writeFileSync(db, '这是我的笔记，不是数据库。\n'.repeat(100));
    const before = sha(db);
    const r = await runCli(['--offline', 'hi'], { ...h.env, ZHIXING_LANG: 'en' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`The database at ${db} is damaged (file is not a database). Nothing was written to it.`);
    expect(sha(db)).toBe(before);
  });

  it('found while serve runs: every request says so, a copy is kept, and stopping writes nothing into the file', async () => {
    const h = home();
    const db = join(h.home, 'zhixing.db');
    const store = createStore(db);
    for (let i = 0; i < 200; i++) store.sessions.create(`s_${i}`, `旧会话 ${i} ${'长'.repeat(200)}`, i);
    store.close();
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0'], {
      cwd: h.home,
      env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', ...h.env, ZHIXING_LANG: 'en' },
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    const api = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        out += d;
        const m = /serving on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.on('close', (code) => reject(new Error(`serve exited ${code}`)));
    });
    // Every page after the header torn, as a failing disk might.
    const size = readFileSync(db).length;
    overwrite(4096, Buffer.alloc(Math.max(size - 4096, 4096), 0xee))(db);
    let answer = '';
    for (let i = 0; i < 20 && !/damaged/.test(answer); i++)
      answer = await (await fetch(`${api}/api/sessions?limit=200&offset=${i}`)).text();
    expect(answer).toMatch(/The database at .*zhixing\.db is damaged/);
    expect(answer).toMatch(/A copy of it as it was is at .*zhixing\.db\.damaged-/);
    const walBefore = (() => {
      try {
        return sha(`${db}-wal`);
      } catch {
        return 'none';
      }
    })();
    const before = sha(db);
    child.kill('SIGTERM');
    await exited;
    expect(sha(db)).toBe(before);
    expect(
      (() => {
        try {
          return sha(`${db}-wal`);
        } catch {
          return 'none';
        }
      })(),
    ).toBe(walBefore);
    expect(readdirSync(h.home).filter((n) => /^zhixing\.db\.damaged-\d{8}T\d{6}Z$/.test(n))).toHaveLength(1);
  });
});
