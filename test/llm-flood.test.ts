import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { startOpenAiServer, textReply, type OpenAiServer } from './support/openai-server.js';
import { tempHome } from './support/temp-home.js';

const MB = 1024 * 1024;

let server: OpenAiServer;
beforeAll(async () => {
  server = await startOpenAiServer();
});
afterAll(() => server.close());

describe('a model service that floods the answer, through the agent loop', () => {
  it('fails the turn with bad_response, closes the connection, and the next turn works', async () => {
    const t = tempHome({
      ZHIXING_BASE_URL: server.url,
      ZHIXING_API_KEY: 'sk-test-flood-0000',
      ZHIXING_MODEL: 'm',
      ZHIXING_LANG: 'en',
    });
    const app = await createApp(t.config);
    try {
      const head =
        'data: {"id":"c","object":"chat.completion.chunk","created":0,"model":"m","choices":[{"index":0,"delta":{"content":"';
      server.enqueue({ flood: { head, repeat: 'x'.repeat(64 * 1024), totalBytes: 100 * MB } });
      const session = app.sessions.create();
      const started = Date.now();
      const r = await app.sessions.send(session.id, 'hello');
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(r.error).toEqual({
        code: 'bad_response',
        message: 'The model service sent an event larger than 24 MB; it was stopped. Try again, or try another model.',
      });
      expect(await server.floods[0]!.ended).toBe('hungUp');
      expect(server.floods[0]!.sent).toBeLessThan(40 * MB);

      server.enqueue(textReply('Back to normal.'));
      expect((await app.sessions.send(session.id, 'again')).reply).toBe('Back to normal.');
    } finally {
      app.close();
      t.cleanup();
    }
  }, 30_000);
});
