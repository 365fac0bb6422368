import { STALE_MS } from '../src/sessions/session-lock.js';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BIN, runCli } from './support/cli.js';
import { tempHome } from './support/temp-home.js';

/**
 * Several zhixing processes on one home. A session runs one turn at a time across processes, so no
 * model is ever sent another process's unanswered message and no history comes out interleaved.
 */
let server: Server;
let url: string;
/** Each request's user messages, as the model saw them. */
const seen: string[][] = [];
/** Messages whose answer waits until the test lets it go: a turn that runs exactly as long as the test needs. */
const held = new Map<string, { answered: Promise<void>; release: () => void }>();
function hold(message: string): () => void {
  let release!: () => void;
  const answered = new Promise<void>((resolve) => (release = resolve));
  held.set(message, { answered, release });
  return release;
}

beforeAll(async () => {
  // Answers each streamed request from its own last user message: later when it is held or says "medium", never when it says "hang".
  server = createServer(async (req, res) => {
    let raw = '';
    for await (const part of req) raw += part;
    const body = JSON.parse(raw);
    if (!body.stream) return void res.writeHead(500).end();
    const users = body.messages
      .filter((m: { role: string }) => m.role === 'user')
      .map((m: { content: string }) => m.content);
    seen.push(users);
    const last: string = users.at(-1);
    if (last.includes('hang')) return;
    await held.get(last)?.answered;
    const delay = last.includes('medium') ? 1_200 : 0;
    await new Promise((r) => setTimeout(r, delay));
    const chunk = (delta: object, finish: string | null = null) =>
      `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(chunk({ role: 'assistant', content: `answer to ${last}` }) + chunk({}, 'stop') + 'data: [DONE]\n\n');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
});
afterAll(() => {
  for (const h of held.values()) h.release();
  server.closeAllConnections();
  server.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Starts a one-shot and waits until the model has been asked its message: that process then holds the session's lock. */
const startAsked = async (args: string[], env: Record<string, string>) => {
  const from = seen.length;
  const run = runCli(args, env);
  while (!seen.slice(from).some((u) => u.at(-1) === args.at(-1))) await sleep(20);
  // Wrapped, so awaiting this waits for the ask, not for the whole run.
  return { run };
};

/** runCli's run, with its stderr readable while it runs. */
function spawnCli(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: env.ZHIXING_HOME,
    env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
  return { stderr: () => stderr, done };
}

function history(home: string, session: string): string[] {
  const db = new Database(join(home, 'zhixing.db'), { readonly: true });
  const rows = db
    .prepare(
      `SELECT m.role, p.text FROM messages m JOIN parts p ON p.message_id = m.id
    WHERE m.session_id = ? AND p.type = 'text' ORDER BY p.rowid`,
    )
    .all(session) as Array<{ role: string; text: string }>;
  db.close();
  return rows.map((r) => `${r.role}: ${r.text}`);
}

describe('two processes on one home', () => {
  it('a follow-up waits for the other process to finish the turn, then continues with the whole exchange', async () => {
    const t = tempHome();
    const env = { ZHIXING_HOME: t.home, ZHIXING_BASE_URL: url, ZHIXING_LANG: 'en' };
    try {
      const first = await runCli(['--json', 'hello'], env);
      const session = JSON.parse(first.stdout).session;
      const { run: a } = await startAsked(['--json', 'A medium'], env);
      const b = await runCli(['--json', 'B fast'], env);
      const ra = await a;
      expect(JSON.parse(ra.stdout)).toMatchObject({ session, reply: 'answer to A medium' });
      expect(JSON.parse(b.stdout)).toMatchObject({ session, reply: 'answer to B fast' });
      // B's model saw A's finished exchange, and A's model never saw B's message.
      expect(seen.find((u) => u.at(-1) === 'B fast')).toEqual(['hello', 'A medium', 'B fast']);
      expect(seen.find((u) => u.at(-1) === 'A medium')).toEqual(['hello', 'A medium']);
      expect(history(t.home, session)).toEqual([
        'user: hello',
        'assistant: answer to hello',
        'user: A medium',
        'assistant: answer to A medium',
        'user: B fast',
        'assistant: answer to B fast',
      ]);
    } finally {
      t.cleanup();
    }
  });

  it('a follow-up during a long turn starts a new session and says so', async () => {
    const t = tempHome();
    const env = { ZHIXING_HOME: t.home, ZHIXING_BASE_URL: url, ZHIXING_LANG: 'en' };
    try {
      const session = JSON.parse((await runCli(['--json', 'hi'], env)).stdout).session;
      // A's turn lasts until B is done, however long B takes to start and give up waiting.
      const releaseA = hold('A long');
      const { run: a } = await startAsked(['--json', 'A long'], env);
      const b = await runCli(['--json', 'B fast'], env);
      releaseA();
      const out = JSON.parse(b.stdout);
      expect(out.session).not.toBe(session);
      expect(out.reply).toBe('answer to B fast');
      expect(b.stderr).toContain(
        `The most recent session is busy in another Zhixing process; this message starts a new session (${out.session}).`,
      );
      expect(seen.find((u) => u.at(-1) === 'B fast' && u.length === 1)).toBeDefined();
      expect(JSON.parse((await a).stdout).reply).toBe('answer to A long');
      expect(history(t.home, session)).toEqual([
        'user: hi',
        'assistant: answer to hi',
        'user: A long',
        'assistant: answer to A long',
      ]);
    } finally {
      t.cleanup();
    }
  });

  it('with --session the second process says it is waiting, waits, and keeps the order', async () => {
    const t = tempHome();
    const env = { ZHIXING_HOME: t.home, ZHIXING_BASE_URL: url, ZHIXING_LANG: 'en' };
    try {
      const session = JSON.parse((await runCli(['--json', 'start'], env)).stdout).session;
      // A's turn lasts until B says it is waiting for it.
      const releaseA = hold('A held');
      const { run: a } = await startAsked(['--json', '--session', session, 'A held'], env);
      const waiting = spawnCli(['--json', '--session', session, 'B fast'], env);
      await vi.waitFor(() => expect(waiting.stderr()).toContain('waiting for it to finish'), {
        timeout: 20_000,
        interval: 20,
      });
      releaseA();
      const b = await waiting.done;
      expect(b.stderr).toMatch(
        /^This session is busy in another Zhixing process \(pid \d+\); waiting for it to finish…\n$/,
      );
      expect(JSON.parse(b.stdout).reply).toBe('answer to B fast');
      await a;
      expect(history(t.home, session).slice(2)).toEqual([
        'user: A held',
        'assistant: answer to A held',
        'user: B fast',
        'assistant: answer to B fast',
      ]);
    } finally {
      t.cleanup();
    }
  });

  it('takes over at once from a process killed mid-turn, and marks its turn interrupted', async () => {
    const t = tempHome();
    const env = { ZHIXING_HOME: t.home, ZHIXING_BASE_URL: url, ZHIXING_LANG: 'en' };
    try {
      const session = JSON.parse((await runCli(['--json', 'start'], env)).stdout).session;
      const child = spawn(process.execPath, [BIN, '--session', session, 'please hang'], {
        cwd: t.home,
        env: { PATH: process.env.PATH ?? '', ...env },
      });
      while (!seen.some((u) => u.at(-1) === 'please hang')) await sleep(50);
      child.kill('SIGKILL');
      await new Promise((r) => child.on('close', r));
      const started = Date.now();
      const b = await runCli(['--json', '--session', session, 'after the crash'], env);
      expect(JSON.parse(b.stdout).reply).toBe('answer to after the crash');
      // Not by waiting for the dead process's lock to go stale: it saw the process was gone.
      expect(Date.now() - started).toBeLessThan(STALE_MS / 2);
      const db = new Database(join(t.home, 'zhixing.db'), { readonly: true });
      const reasons = db
        .prepare('SELECT stop_reason AS r FROM turns WHERE session_id = ? ORDER BY started_at')
        .all(session)
        .map((x) => (x as { r: string }).r);
      db.close();
      expect(reasons).toEqual(['done', 'interrupted', 'done']);
    } finally {
      t.cleanup();
    }
  });
});

describe('while another process is mid-turn', () => {
  it('refuses to delete the session, and Ctrl-C while waiting for it exits 130 having sent nothing', async () => {
    const t = tempHome();
    const env = { ZHIXING_HOME: t.home, ZHIXING_BASE_URL: url, ZHIXING_LANG: 'en' };
    const holder = spawn(process.execPath, [BIN, '--new', 'please hang again'], {
      cwd: t.home,
      env: { PATH: process.env.PATH ?? '', ...env },
    });
    try {
      while (!seen.some((u) => u.at(-1) === 'please hang again')) await sleep(50);
      const { createApp } = await import('../src/app.js');
      const { loadConfig } = await import('../src/config/config.js');
      const app = await createApp(loadConfig({ env, cwd: t.home }));
      const session = app.sessions.mostRecent()!.id;
      await expect(app.sessions.delete(session)).rejects.toMatchObject({
        code: 'busy',
        message: expect.stringContaining('another Zhixing process'),
      });
      app.close();

      const waiter = spawn(process.execPath, [BIN, '--json', '--session', session, 'queued'], {
        cwd: t.home,
        env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', ...env },
      });
      let stdout = '';
      let stderr = '';
      waiter.stdout.on('data', (d) => (stdout += d));
      waiter.stderr.on('data', (d) => (stderr += d));
      while (!stderr.includes('waiting')) await sleep(50);
      waiter.kill('SIGINT');
      const code = await new Promise((r) => waiter.on('close', r));
      expect(code).toBe(130);
      expect(stderr).toContain('Stopped waiting; the message was not sent.');
      expect(JSON.parse(stdout).error).toMatchObject({ code: 'aborted' });
      expect(seen.some((u) => u.at(-1) === 'queued')).toBe(false);
    } finally {
      holder.kill('SIGKILL');
      t.cleanup();
    }
  });
});

describe('many processes at once', () => {
  it('six offline one-shots adding todos: each adds its own, once, and says so', async () => {
    const t = tempHome();
    try {
      await runCli(['你好'], { ZHIXING_HOME: t.home });
      const items = Array.from({ length: 6 }, (_, i) => `买第${i + 1}样东西`);
      const runs = await Promise.all(
        items.map((item) => runCli(['--json', `记一下 ${item}`], { ZHIXING_HOME: t.home })),
      );
      runs.forEach((r, i) => {
        expect(r.code).toBe(0);
        const out = JSON.parse(r.stdout);
        expect(out.actions).toMatchObject([{ tool: 'todo_add', input: { content: items[i] }, ok: true }]);
        expect(out.reply).toContain(items[i]);
      });
      const db = new Database(join(t.home, 'zhixing.db'), { readonly: true });
      const todos = db
        .prepare('SELECT content FROM todos ORDER BY content')
        .all()
        .map((x) => (x as { content: string }).content);
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      db.close();
      expect(todos).toEqual([...items].sort());
    } finally {
      t.cleanup();
    }
  });
});
