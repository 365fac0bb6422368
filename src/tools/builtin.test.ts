import { describe, expect, it } from 'vitest';
import type { Config } from '../config/config.js';
import { createStore } from '../store/store.js';
import { builtinTools } from './builtin.js';

describe('the built-in tools', () => {
  it('say what they do to the world', () => {
    const store = createStore(':memory:');
    const config = {
      geocodingUrl: 'http://127.0.0.1:9/geo',
      weatherUrl: 'http://127.0.0.1:9/forecast',
      home: '/nowhere',
      dbPath: '/nowhere/zhixing.db',
      shell: { network: true, env: {} },
      web: { allowPrivateNetwork: false },
    } as unknown as Config;
    const sandbox = async () => ({ kind: 'none' as const, ok: false });
    const annotations = Object.fromEntries(
      builtinTools({ config, store, sandbox, skills: { list: async () => [], get: async () => undefined } }).map(
        (t) => [t.name, t.annotations],
      ),
    );
    store.close();
    expect(annotations).toEqual({
      calculator: { readOnly: true },
      current_time: { readOnly: true },
      todo_add: { destructive: false },
      todo_list: { readOnly: true },
      todo_done: { destructive: false, idempotent: true },
      todo_delete: { destructive: true },
      file_read: { readOnly: true },
      file_write: { destructive: true, idempotent: true },
      file_list: { readOnly: true },
      pdf_read: { readOnly: true },
      weather: { readOnly: true, openWorld: true },
      shell: { destructive: true, openWorld: true },
      skill: { readOnly: true },
      web_search: { readOnly: true, openWorld: true },
      web_fetch: { readOnly: true, openWorld: true },
    });
  });
});
