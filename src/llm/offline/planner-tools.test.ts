/**
 * The offline planner driving the real tools through the real registry: real files in a temp
 * workspace, a real SQLite store for todos and prefs, real HTTP (port 0) for the weather services.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryService } from '../../memory/service.js';
import { createStore, type Store } from '../../store/store.js';
import { calculatorTool } from '../../tools/calculator.js';
import { createCurrentTimeTool } from '../../tools/current-time.js';
import { fileListTool } from '../../tools/file-list.js';
import { fileReadTool } from '../../tools/file-read.js';
import { fileWriteTool } from '../../tools/file-write.js';
import { createToolRegistry, type ToolRegistry } from '../../tools/registry.js';
import { createMemoryTools } from '../../tools/memory.js';
import { createTodoTools } from '../../tools/todos.js';
import type { ToolContext } from '../../tools/tool.js';
import { createWeatherTool } from '../../tools/weather.js';
import type { ChatMessage, Llm } from '../types.js';
import { createOfflinePlanner, detectLang } from './planner.js';
import { turn, replyOf } from './testing.js';

const FIXTURES = '/work/shared/fixtures/weather';
const NOW = new Date('2026-03-06T01:30:00Z'); // a Friday

let root: string;
let workspace: string;
let store: Store;
let server: Server;
let registry: ToolRegistry;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'zhixing-offline-'));
  workspace = join(root, 'workspace');
  mkdirSync(workspace);
  store = createStore(join(root, 'z.db'));
  store.sessions.create('s1', '', NOW.getTime()); // memories belong to a session
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    res.setHeader('content-type', 'application/json');
    if (url.pathname === '/geo') {
      const known = url.searchParams.get('name')?.toLowerCase() === 'enschede';
      res.end(known ? readFileSync(join(FIXTURES, 'open-meteo-geocoding-enschede.json')) : '{"generationtime_ms":0.1}');
    } else {
      res.end(readFileSync(join(FIXTURES, 'open-meteo-forecast-current-subset.json')));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  registry = createToolRegistry([
    calculatorTool,
    createCurrentTimeTool({ now: () => NOW, defaultTimeZone: 'Asia/Shanghai' }),
    ...createTodoTools(store.todos, () => NOW.getTime(), 'Asia/Shanghai'),
    fileReadTool,
    fileWriteTool,
    fileListTool,
    createWeatherTool({ geocodingUrl: `${base}/geo`, forecastUrl: `${base}/forecast` }),
    ...createMemoryTools({
      memory: createMemoryService({ repo: store.memories, newId: () => store.newId('mem') }),
      sessionTitle: (id) => store.sessions.get(id)?.title,
    }),
  ]);
});

afterAll(async () => {
  store.close();
  await new Promise((resolve) => server.close(resolve));
  rmSync(root, { recursive: true, force: true });
});

/** One turn as the agent runs it: the tools write in the language of the user's message. */
function context(text: string): ToolContext {
  return {
    sessionId: 's1',
    turnId: 't1',
    callId: 'c1',
    workspace,
    signal: new AbortController().signal,
    lang: detectLang(text),
    ask: async (r) => (r.insideSandbox ? 'allow' : 'deny'),
    progress: () => {},
  };
}

async function say(llm: Llm, text: string, history: ChatMessage[] = []) {
  const ctx = context(text);
  return turn(llm, history, text, async (call) => replyOf(await registry.run(call, ctx)), registry.specs());
}

const offline = () => createOfflinePlanner({ prefs: store.prefs });

describe('offline planner with the real tools', () => {
  it('calculates, and relays what the calculator refuses', async () => {
    const llm = offline();
    expect((await say(llm, '帮我算一下 (3+5)*2')).reply).toBe('(3+5)*2 = 16');
    expect((await say(llm, '(3+5)*12 等于多少')).reply).toBe('(3+5)*12 = 96');
    expect((await say(llm, '0.1+0.2')).reply).toBe('0.1+0.2 = 0.3');
    expect((await say(llm, '帮我算一下 1/0')).reply).toBe('抱歉，1/0 算不出来：除数不能为零。');
    expect((await say(llm, '1/0')).reply).toBe("Sorry, I couldn't calculate 1/0: Division by zero.");
    const big = await say(llm, '算一下 9**999');
    expect(big.reply).toMatch(/^抱歉，9\*\*999 算不出来：.*太大/);
    expect((await say(llm, 'calculate 2^10')).reply).toBe('2^10 = 1024');
  });

  it('hands the calculator percentages and Chinese numerals it can read', async () => {
    const llm = offline();
    expect((await say(llm, '帮忙算下 15% 的 200 是多少')).reply).toBe('15/100*200 = 30');
    expect((await say(llm, '百分之二十的 50')).reply).toBe('20/100*50 = 10');
    expect((await say(llm, '200 的 15%')).reply).toBe('200*15/100 = 30');
    expect((await say(llm, '200 乘以 15%')).reply).toBe('200 乘以 (15/100) = 30');
    expect((await say(llm, '7%3')).reply).toBe('7%3 = 1');
    expect((await say(llm, '一百加二十')).reply).toBe('100+20 = 120');
    expect((await say(llm, '三点五乘以二')).reply).toBe('3.5*2 = 7');
    expect((await say(llm, '一千零五减五')).reply).toBe('1005-5 = 1000');
    expect((await say(llm, '二的十次方等于多少')).reply).toBe('2的10次方 = 1024');
    expect((await say(llm, '算算 3 加 5')).reply).toBe('3 加 5 = 8');
  });

  it('runs nothing for code', async () => {
    const r = await say(offline(), '__import__("os").system("dir")');
    expect(r.calls).toEqual([]);
    expect(r.reply).toContain("won't run");
  });

  it('writes, reads and lists files in the workspace, and refuses to leave it', async () => {
    const llm = offline();
    const w = await say(llm, '把 hello 写到 notes/a.txt');
    expect(w.reply).toMatch(/^好的，已写入 notes\/a\.txt/);
    expect(readFileSync(join(workspace, 'notes/a.txt'), 'utf8')).toBe('hello');
    await say(llm, '帮我创建文件 notes.txt，内容是：今天也要加油');
    expect(readFileSync(join(workspace, 'notes.txt'), 'utf8')).toBe('今天也要加油');
    expect((await say(llm, '读一下 notes/a.txt')).reply).toBe('notes/a.txt 的内容：\n```\nhello\n```');
    expect((await say(llm, 'read notes.txt')).reply).toBe('Contents of notes.txt:\n```\n今天也要加油\n```');
    const list = await say(llm, '有哪些文件');
    expect(list.reply).toContain('notes.txt');
    expect(list.reply).toContain('notes');
    const secret = await say(llm, '把 秘密 写到 ../secret.txt');
    expect(secret.reply).toMatch(/^抱歉，没能写入：拒绝写入 \.\.\/secret\.txt：/);
    expect(secret.reply).toMatch(/没有写入任何内容|没有做任何改动/);
    expect(existsSync(join(root, 'secret.txt'))).toBe(false);
    expect((await say(llm, '看看 notes/a.txt')).reply).toBe('notes/a.txt 的内容：\n```\nhello\n```');
    expect((await say(llm, 'show me notes.txt')).reply).toBe('Contents of notes.txt:\n```\n今天也要加油\n```');
    expect((await say(llm, '看看 notes/')).reply).toContain('a.txt');
    const missing = await say(llm, '读一下 nope.txt');
    expect(missing.reply).toMatch(/^抱歉，没能读取：找不到 nope\.txt/);
  });

  it('keeps todos: add, list, done, delete, and an out-of-range number', async () => {
    const llm = offline();
    expect((await say(llm, '记一下 周五前交周报')).reply).toBe(
      '好的，已添加待办 #1：周五前交周报（截止：2026-03-06 周五）',
    );
    await say(llm, '帮我记一下：明天 9 点交软件工程作业');
    const list = await say(llm, '看看待办');
    expect(list.reply).toContain('1. [ ] 周五前交周报（截止：2026-03-06 周五）');
    expect(list.reply).toContain('2. [ ] 明天 9 点交软件工程作业（截止：2026-03-07 周六 9 点）');
    expect((await say(llm, '第一条完成了')).reply).toBe('好的，已完成第 1 条：周五前交周报');
    expect((await say(llm, '删掉第二个待办')).reply).toBe('好的，已删除第 2 条：明天 9 点交软件工程作业');
    expect((await say(llm, '删除第 5 条')).reply).toMatch(/^抱歉，没能删除：没有第 5 条待办/);
    const both = await say(llm, '算一下 1+1，然后看看待办');
    expect(both.reply.split('\n')[0]).toBe('1+1 = 2');
  });

  it('tells the time', async () => {
    const r = await say(offline(), '今天星期几');
    expect(r.reply).toContain('2026年3月6日 星期五');
    expect((await say(offline(), 'what time is it in London')).reply).toContain('Europe/London');
  });

  it('gets the weather over HTTP, follows up, and relays an unknown city', async () => {
    const llm = offline();
    const a = await say(llm, 'weather in Enschede');
    expect(a.reply).toContain('Enschede');
    const b = await say(llm, 'what about Atlantis?', a.messages);
    expect(b.calls).toEqual([{ name: 'weather', args: { city: 'Atlantis' } }]);
    expect(b.reply).toMatch(/^Sorry, I couldn't get the weather for Atlantis: I couldn't find/);
  });

  it('remembers the name as a memory in the real store, across a restart', async () => {
    expect((await say(offline(), '我叫什么名字')).reply).toBe('你还没告诉我你的名字呢。说「我叫……」，我就会记住。');
    expect((await say(offline(), '我叫刘浩彬')).reply).toBe('好的，刘浩彬，我记住你的名字了。有什么可以帮你的？');
    const path = join(root, 'z.db');
    const reopened = createStore(path); // a second connection, as after a restart
    try {
      const tools = createToolRegistry(
        createMemoryTools({
          memory: createMemoryService({ repo: reopened.memories, newId: () => reopened.newId('mem') }),
          sessionTitle: (id) => reopened.sessions.get(id)?.title,
        }),
      );
      const r = await turn(
        createOfflinePlanner({ prefs: reopened.prefs }),
        [],
        '我叫什么名字',
        async (call) => replyOf(await tools.run(call, context('我叫什么名字'))),
        tools.specs(),
      );
      expect(r.reply).toBe('你叫刘浩彬。');
    } finally {
      reopened.close();
    }
  });

  it('saves what the user likes and answers from it; says honestly when nothing is saved', async () => {
    expect((await say(offline(), '我对什么过敏')).reply).toBe(
      '我没有记下和这个有关的内容。想让我记住什么，可以说「记住：……」。',
    );
    expect((await say(offline(), '记住：我喜欢喝美式咖啡')).reply).toBe('好的，我记住了：你喜欢喝美式咖啡。');
    expect((await say(offline(), '帮我记一下我对花生过敏')).reply).toBe('好的，我记住了：你对花生过敏。');
    expect((await say(offline(), '我喜欢喝什么')).reply).toBe('我记得：你喜欢喝美式咖啡。');
    expect((await say(offline(), '我对什么过敏')).reply).toBe('我记得：你对花生过敏。');
    expect((await say(offline(), 'remember that I like oat milk')).reply).toBe(
      "Got it, I'll remember: you like oat milk.",
    );
    expect((await say(offline(), 'what do I like to drink?')).reply).toContain('you like oat milk.');
    expect(store.memories.list({ limit: 10, offset: 0 }).memories.map((m) => [m.kind, m.content])).toEqual(
      expect.arrayContaining([
        ['preference', '我喜欢喝美式咖啡'],
        ['fact', '我对花生过敏'],
        ['preference', 'I like oat milk'],
        ['fact', '我叫刘浩彬'],
      ]),
    );
  });
});
