import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApp } from '../src/app.js';
import { createScriptedLlm } from './support/scripted-llm.js';
import { tempHome } from './support/temp-home.js';

afterEach(() => vi.restoreAllMocks());

describe('a tool call’s arguments', () => {
  it('are parsed once, end to end: store, events, repeat guard and the tool itself share one parse', async () => {
    const t = tempHome({ ZHIXING_LANG: 'en' });
    const args = '{"content":"parse me once","due":"Friday"}';
    const app = await createApp(t.config, {
      llm: createScriptedLlm([{ calls: [{ name: 'todo_add', args }] }, { text: 'Added.' }]),
    });
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const r = await app.sessions.send(app.sessions.create().id, 'add it');
      expect(r.actions[0]).toMatchObject({ ok: true, input: { content: 'parse me once', due: 'Friday' } });
      expect(parse.mock.calls.filter(([text]) => text === args)).toHaveLength(1);
    } finally {
      app.close();
      t.cleanup();
    }
  });
});
