import { afterEach, describe, expect, it } from 'vitest';
import { request, startTestServer, type TestServer } from './support/http.js';
import { startOpenAiServer, textReply, type OpenAiServer } from './support/openai-server.js';

const KEY = 'sk-test-0123456789abcdefMODELS';

let t: TestServer | undefined;
let model: OpenAiServer | undefined;
afterEach(async () => {
  await t?.close();
  await model?.close();
  t = undefined;
  model = undefined;
});

/** How long the provider has to list its models here (5 s in use: model-catalog.test.ts). */
const LIST_TIMEOUT_MS = 1_000;

async function withModel(): Promise<TestServer> {
  model = await startOpenAiServer();
  const logs: string[] = [];
  t = await startTestServer({
    env: { ZHIXING_BASE_URL: model.url, ZHIXING_API_KEY: KEY, ZHIXING_MODEL: 'test-model' },
    log: (l) => logs.push(l),
    modelListTimeoutMs: LIST_TIMEOUT_MS,
  });
  (t as TestServer & { logs: string[] }).logs = logs;
  return t;
}

const modelsAsked = () => model!.requests.filter((r) => r.method === 'GET' && r.path === '/v1/models');

describe('GET /api/models', () => {
  it("lists the provider's models, asking it once a minute with the key for its own URL only", async () => {
    await withModel();
    model!.setModels(['zeta-1', 'test-model', 'alpha-2', KEY]);
    const r = await request(t!.port, '/api/models');
    expect(r.status).toBe(200);
    // A name carrying the key is dropped: the key never leaves in a response.
    expect(r.json()).toEqual({
      mode: 'llm',
      provider: 'custom',
      current: 'test-model',
      models: ['alpha-2', 'test-model', 'zeta-1'],
      source: 'provider',
    });
    expect(r.body).not.toContain(KEY);
    expect(modelsAsked()).toHaveLength(1);
    expect(modelsAsked()[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    // Cached: the second request does not ask again.
    expect((await request(t!.port, '/api/models')).json().models).toEqual(['alpha-2', 'test-model', 'zeta-1']);
    expect(modelsAsked()).toHaveLength(1);
  });

  it('offers the configured model alone when the provider fails, and does not keep the failure', async () => {
    await withModel();
    model!.setModels({ status: 500 });
    const failed = (await request(t!.port, '/api/models')).json();
    expect(failed).toEqual({
      mode: 'llm',
      provider: 'custom',
      current: 'test-model',
      models: ['test-model'],
      source: 'config',
    });
    model!.setModels({ json: { unexpected: true } });
    expect((await request(t!.port, '/api/models')).json().source).toBe('config');
    model!.setModels(['test-model', 'other']);
    expect((await request(t!.port, '/api/models')).json()).toMatchObject({
      models: ['other', 'test-model'],
      source: 'provider',
    });
    expect((t as TestServer & { logs: string[] }).logs.join('\n')).not.toContain(KEY);
  });

  it('gives up on a provider that hangs after its time, and concurrent requests share the wait', async () => {
    await withModel();
    model!.setModels({ hang: true });
    const started = Date.now();
    const answers = await Promise.all([1, 2, 3].map(() => request(t!.port, '/api/models')));
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(LIST_TIMEOUT_MS - 100);
    expect(took).toBeLessThan(LIST_TIMEOUT_MS + 3_000);
    for (const r of answers) expect(r.json()).toMatchObject({ models: ['test-model'], source: 'config' });
    expect(modelsAsked()).toHaveLength(1);
  });

  it('offline, offers only the planner', async () => {
    t = await startTestServer();
    expect((await request(t.port, '/api/models')).json()).toEqual({
      mode: 'offline',
      provider: 'offline',
      current: 'rules',
      models: ['offline'],
      source: 'offline',
    });
  });
});

describe('PUT /api/model', () => {
  it('switches the model the next turn uses, and status says so', async () => {
    await withModel();
    model!.setModels(['test-model', 'bigger-model']);
    const put = await request(t!.port, '/api/model', { method: 'PUT', body: { model: 'bigger-model' } });
    expect(put.status).toBe(200);
    expect(put.json()).toMatchObject({
      current: 'bigger-model',
      models: ['bigger-model', 'test-model'],
      source: 'provider',
    });
    expect((await request(t!.port, '/api/status')).json().model).toBe('bigger-model');
    expect(t!.app.llm.model).toBe('bigger-model');

    model!.enqueue(textReply('Hello from the bigger one.'));
    const session = (await request(t!.port, '/api/sessions', { body: { title: 'x' } })).json().id;
    const chat = await request(t!.port, `/api/sessions/${session}/chat`, { body: { message: 'hi' } });
    expect(chat.json().reply).toBe('Hello from the bigger one.');
    const asked = model!.requests.filter((r) => r.path === '/v1/chat/completions' && r.body?.stream === true);
    expect(asked.map((r) => r.body.model)).toEqual(['bigger-model']);

    // A name the provider does not list is still taken (aliases), and put first.
    const alias = await request(t!.port, '/api/model', { method: 'PUT', body: { model: 'vendor/alias:latest' } });
    expect(alias.json()).toMatchObject({
      current: 'vendor/alias:latest',
      models: ['vendor/alias:latest', 'bigger-model', 'test-model'],
    });
  });

  it('refuses names that are empty, too long or hold control characters', async () => {
    await withModel();
    for (const name of ['', 'x'.repeat(201), 'bad\nname', 'tab\tname', ' padded ', '\u009bname']) {
      const r = await request(t!.port, '/api/model', { method: 'PUT', body: { model: name } });
      expect(r.status, JSON.stringify(name)).toBe(400);
      expect(r.json().error.code).toBe('bad_request');
    }
    expect((await request(t!.port, '/api/model', { method: 'PUT', body: {} })).status).toBe(400);
    expect((await request(t!.port, '/api/model', { method: 'PUT', body: { model: 'x'.repeat(200) } })).status).toBe(
      200,
    );
  });

  it('is a 409 offline', async () => {
    t = await startTestServer();
    const r = await request(t.port, '/api/model', { method: 'PUT', body: { model: 'gpt-4o' } });
    expect(r.status).toBe(409);
    expect(r.json().error).toEqual({
      code: 'offline',
      message: expect.stringMatching(/offline mode.*no model to switch/),
    });
    expect((await request(t.port, '/api/status')).json().model).toBe('rules');
  });
});
