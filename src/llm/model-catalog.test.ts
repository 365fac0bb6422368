import { describe, expect, it } from 'vitest';
import { createModelCatalog, LIST_TIMEOUT_MS } from './model-catalog.js';
import type { Llm } from './types.js';

/** A provider that lists two models and remembers how long it was given each time. */
function listing(): Llm & { given: number[] } {
  const given: number[] = [];
  return {
    mode: 'llm',
    provider: 'test',
    model: 'a',
    given,
    stream: () => {
      throw new Error('not used');
    },
    listModels: async ({ timeoutMs }) => (given.push(timeoutMs), ['a', 'b']),
  } as Llm & { given: number[] };
}

describe('createModelCatalog', () => {
  it('gives the provider 5 s to list its models, or the time it is told', async () => {
    expect(LIST_TIMEOUT_MS).toBe(5_000);
    const llm = listing();
    expect((await createModelCatalog(llm).list()).models).toEqual(['a', 'b']);
    expect(llm.given).toEqual([5_000]);
    await createModelCatalog(llm, { listTimeoutMs: 1_000 }).list();
    expect(llm.given).toEqual([5_000, 1_000]);
  });
});
