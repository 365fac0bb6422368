import { describe, expect, it } from 'vitest';
import { LlmError } from './llm-error.js';
import { createStreamAssembler, createToolCallAssembler, type ChunkLike } from './stream-assembler.js';
import type { LlmEvent } from './types.js';

function run(chunks: ChunkLike[]): LlmEvent[] {
  const assembler = createStreamAssembler();
  return [...chunks.flatMap((chunk) => assembler.push(chunk)), ...assembler.end()];
}

const delta = (d: object, finish: string | null = null): ChunkLike => ({
  choices: [{ index: 0, delta: d, finish_reason: finish }],
});

describe('createToolCallAssembler', () => {
  it('keeps the first id when later deltas carry "id": "" (DashScope)', () => {
    const tools = createToolCallAssembler();
    tools.add({ index: 0, id: 'call_abc', type: 'function', function: { name: 'weather', arguments: '' } });
    tools.add({ index: 0, id: '', type: 'function', function: { arguments: '{"city": "Bei' } });
    tools.add({ index: 0, id: '', type: 'function', function: { arguments: 'jing"}' } });
    tools.add({ index: 0, id: '', type: 'function', function: { arguments: '' } });
    expect(tools.take()).toEqual([{ id: 'call_abc', name: 'weather', arguments: '{"city": "Beijing"}' }]);
  });

  it('accepts a first call at index 1 and a whole call in one delta', () => {
    const tools = createToolCallAssembler();
    tools.add({ index: 1, id: 'toolu_1', function: { name: 'file_read', arguments: '{"path":"a.txt"}' } });
    expect(tools.take()).toEqual([{ id: 'toolu_1', name: 'file_read', arguments: '{"path":"a.txt"}' }]);
    expect(tools.take()).toEqual([]);
  });

  it('sets the name once, turns empty arguments into "{}" and names calls that came without an id', () => {
    const tools = createToolCallAssembler();
    tools.add({ index: 0, function: { name: 'current_time', arguments: '' } });
    tools.add({ index: 0, function: { name: 'ignored', arguments: '  ' } });
    tools.add({ index: 1, function: { name: 'todo_list' } });
    expect(tools.take()).toEqual([
      { id: 'call_1', name: 'current_time', arguments: '{}' },
      { id: 'call_2', name: 'todo_list', arguments: '{}' },
    ]);
  });

  it('orders calls by index, whatever order their deltas came in', () => {
    const tools = createToolCallAssembler();
    tools.add({ index: 1, id: 'b', function: { name: 'second', arguments: '{"n":' } });
    tools.add({ index: 0, id: 'a', function: { name: 'first', arguments: '{}' } });
    tools.add({ index: 1, function: { arguments: '2}' } });
    expect(tools.take().map((c) => [c.id, c.name, c.arguments])).toEqual([
      ['a', 'first', '{}'],
      ['b', 'second', '{"n":2}'],
    ]);
  });

  it('copes with gateways that omit index, and with arguments sent as an object', () => {
    const tools = createToolCallAssembler();
    tools.add({ id: 'x1', function: { name: 'calculator', arguments: '{"expression":' } });
    tools.add({ function: { arguments: '"1+1"}' } });
    tools.add({ id: 'x2', function: { name: 'weather', arguments: { city: '上海' } } });
    expect(tools.take()).toEqual([
      { id: 'x1', name: 'calculator', arguments: '{"expression":"1+1"}' },
      { id: 'x2', name: 'weather', arguments: '{"city":"上海"}' },
    ]);
  });
});

describe('createStreamAssembler', () => {
  it('keeps reasoning (reasoning_content or reasoning) apart from the text', () => {
    const events = run([
      delta({ role: 'assistant', content: null, reasoning_content: '' }),
      delta({ content: null, reasoning_content: 'Think' }),
      delta({ content: '', reasoning: ' more' }),
      delta({ content: '你好', reasoning_content: null }),
      delta({ content: '' }, 'stop'),
    ]);
    expect(events).toEqual([
      { type: 'reasoning', delta: 'Think' },
      { type: 'reasoning', delta: ' more' },
      { type: 'text', delta: '你好' },
      { type: 'finish', reason: 'stop' },
    ]);
  });

  it('emits tool calls when finish_reason arrives, then usage from a choices: [] chunk, then finish', () => {
    const assembler = createStreamAssembler();
    expect(
      assembler.push(delta({ tool_calls: [{ index: 0, id: 'c1', function: { name: 'todo_list', arguments: '{}' } }] })),
    ).toEqual([]);
    expect(assembler.push(delta({}, 'tool_calls'))).toEqual([
      { type: 'tool_call', call: { id: 'c1', name: 'todo_list', arguments: '{}' } },
    ]);
    expect(assembler.push({ choices: [], usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 } })).toEqual(
      [],
    );
    expect(assembler.end()).toEqual([
      { type: 'usage', usage: { promptTokens: 5, completionTokens: 2, totalTokens: 7 } },
      { type: 'finish', reason: 'tool_calls' },
    ]);
  });

  it('reads Groq usage under x_groq and fills a missing total', () => {
    const events = run([
      {
        choices: [{ index: 0, delta: {}, finish_reason: 'stop' }],
        x_groq: { usage: { prompt_tokens: 3, completion_tokens: 4 } },
      },
    ]);
    expect(events).toContainEqual({ type: 'usage', usage: { promptTokens: 3, completionTokens: 4, totalTokens: 7 } });
  });

  it('flushes calls when the stream ends without finish_reason, and reports tool_calls rather than stop', () => {
    const events = run([
      delta({
        tool_calls: [{ index: 0, id: 'c1', function: { name: 'calculator', arguments: '{"expression":"2*3"}' } }],
      }),
    ]);
    expect(events).toEqual([
      { type: 'tool_call', call: { id: 'c1', name: 'calculator', arguments: '{"expression":"2*3"}' } },
      { type: 'finish', reason: 'tool_calls' },
    ]);
    expect(run([delta({ tool_calls: [{ index: 0, id: 'c', function: { name: 'x' } }] }, 'stop')]).at(-1)).toEqual({
      type: 'finish',
      reason: 'tool_calls',
    });
  });

  it('ignores choices other than the first and counts chunks', () => {
    const assembler = createStreamAssembler();
    assembler.push({ choices: [{ index: 1, delta: { content: 'other' } }] });
    assembler.push({ choices: null, usage: null });
    expect(assembler.chunks).toBe(2);
    expect(assembler.end()).toEqual([{ type: 'finish', reason: 'stop' }]);
  });

  it('skips chunks that are not objects, and choices or deltas in the wrong shape', () => {
    const assembler = createStreamAssembler();
    for (const odd of [null, 42, 'text', true, [1, 2]]) expect(assembler.push(odd)).toEqual([]);
    expect(assembler.push({ choices: [null, { index: 0, delta: 'x' }] })).toEqual([]);
    expect(assembler.push({ choices: 'abc' })).toEqual([]);
    expect(assembler.push(delta({ content: 'ok' }, 'stop'))).toEqual([{ type: 'text', delta: 'ok' }]);
    expect(assembler.end()).toEqual([{ type: 'finish', reason: 'stop' }]);
  });

  it('throws bad_response for a malformed tool call instead of guessing', () => {
    const cases: Array<[unknown, string]> = [
      ['notarray', 'tool_calls is not a list'],
      [{ index: 0 }, 'tool_calls is not a list'],
      [[null], 'a tool_calls entry is not an object'],
      [[{ index: 0, function: 'weather' }], 'function is not an object'],
    ];
    for (const [toolCalls, why] of cases) {
      const assembler = createStreamAssembler();
      let thrown: unknown;
      try {
        assembler.push(delta({ content: 'x', tool_calls: toolCalls }));
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(LlmError);
      expect(thrown).toMatchObject({
        code: 'bad_response',
        message: `The model sent a malformed tool call (${why}). Try again, or try another model.`,
      });
    }
  });

  it('stops a step whose tool calls grow without bound: too many calls, or too much argument text', () => {
    const many = createToolCallAssembler();
    expect(() => {
      for (let i = 0; i < 5_000; i++)
        many.add({ index: i, id: `c${i}`, function: { name: 'todo_add', arguments: '{}' } });
    }).toThrow(/over 1,000 tool calls in one step/);
    const long = createToolCallAssembler();
    const piece = 'x'.repeat(1_000_000);
    let sent = 0;
    expect(() => {
      for (; sent < 100; sent++) long.add({ index: 0, function: { name: 'file_write', arguments: piece } });
    }).toThrow(
      expect.objectContaining({
        code: 'bad_response',
        message: expect.stringContaining('over 16,000,000 characters of tool-call arguments'),
      }),
    );
    expect(sent).toBe(16);
  });
});
