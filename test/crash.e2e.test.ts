import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { createStore } from '../src/store/store.js';
import { startOpenAiServer, textReply, toolCallsReply, type OpenAiServer } from './support/openai-server.js';
import { BIN, runCli } from './support/cli.js';
import { tempHome } from './support/temp-home.js';

let llmServer: OpenAiServer;
let weather: Server;
let weatherUrl: string;

beforeAll(async () => {
  llmServer = await startOpenAiServer();
  // A weather service that never answers, so the weather call is still running when the process dies.
  weather = createServer(() => {});
  await new Promise<void>((r) => weather.listen(0, '127.0.0.1', r));
  weatherUrl = `http://127.0.0.1:${(weather.address() as { port: number }).port}`;
});
afterAll(async () => {
  await llmServer.close();
  weather.closeAllConnections();
  await new Promise((r) => weather.close(r));
});

const waitFor = async (check: () => boolean, timeoutMs = 10_000) => {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
};

describe('kill -9 in the middle of a turn', () => {
  it('leaves the database intact and the history complete up to the last finished step', async () => {
    const home = tempHome();
    const env = {
      ZHIXING_HOME: home.home,
      ZHIXING_BASE_URL: llmServer.url,
      ZHIXING_MODEL: 'm',
      ZHIXING_LANG: 'en',
      ZHIXING_GEOCODING_URL: `${weatherUrl}/geo`,
      ZHIXING_WEATHER_URL: `${weatherUrl}/forecast`,
    };
    llmServer.enqueue(
      toolCallsReply([{ id: 'c_calc', name: 'calculator', args: { expression: '(3+5)*2' } }]),
      toolCallsReply([{ id: 'c_weather', name: 'weather', args: { city: 'Paris' } }], { text: 'Now the weather.' }),
    );
    const child = spawn(process.execPath, [BIN, '--new', 'sum, then weather'], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: 'ignore',
    });
    const dbPath = join(home.home, 'zhixing.db');
    const states = () => {
      try {
        const store = createStore(dbPath);
        try {
          const s = store.sessions.mostRecent();
          return s
            ? store.messages
                .list(s.id)
                .flatMap((m) => m.parts.flatMap((p) => (p.type === 'tool' ? [`${p.tool}:${p.state}`] : [])))
            : [];
        } finally {
          store.close();
        }
      } catch {
        return [];
      }
    };
    await waitFor(() => states().includes('weather:running'));
    child.kill('SIGKILL');
    await new Promise((r) => child.on('exit', r));

    const store = createStore(dbPath);
    expect(store.integrityCheck()).toBe('ok');
    const session = store.sessions.mostRecent()!;
    const history = store.messages.list(session.id);
    expect(history.map((m) => m.role)).toEqual(['user', 'assistant', 'assistant']);
    expect(history[0]!.parts).toMatchObject([{ type: 'text', text: 'sum, then weather' }]);
    expect(history[1]!.parts).toMatchObject([
      { type: 'tool', tool: 'calculator', state: 'completed', output: '16', callId: 'c_calc' },
    ]);
    expect(history[2]!.parts).toMatchObject([
      { type: 'text', text: 'Now the weather.' },
      { type: 'tool', tool: 'weather', state: 'running', callId: 'c_weather' },
    ]);
    store.close();

    // The next turn picks up the same session; the interrupted call is reported to the model as such.
    llmServer.enqueue(textReply('Sorry, the weather check was interrupted.'));
    const before = llmServer.requests.length;
    const r = await runCli(['--json', 'what happened?'], env);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).session).toBe(session.id);
    const sent = llmServer.requests.slice(before).find((q) => q.body?.stream === true)!.body.messages;
    expect(sent.filter((m: { role: string }) => m.role === 'tool')).toEqual([
      { role: 'tool', tool_call_id: 'c_calc', content: '16' },
      { role: 'tool', tool_call_id: 'c_weather', content: expect.stringMatching(/^Error: interrupted/) },
    ]);
    home.cleanup();
  });
});
