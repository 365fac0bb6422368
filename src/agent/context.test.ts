import { describe, expect, it } from 'vitest';
import type { Message, Part } from '../contract/message.js';
import { estimateTokens } from '../llm/tokens.js';
import { buildContext } from './context.js';

let n = 0;
const msg = (role: 'user' | 'assistant', parts: Array<Omit<Part, 'id'>>): Message => ({
  id: `m${++n}`,
  sessionId: 's',
  turnId: 't',
  role,
  createdAt: 0,
  parts: parts.map((p) => ({ ...p, id: `p${++n}` }) as Part),
});
const text = (t: string) => ({ type: 'text' as const, text: t });
const tool = (callId: string, state: 'completed' | 'running', output: string | null) => ({
  type: 'tool' as const,
  callId,
  tool: 'calculator',
  input: { expression: '1+1' },
  output,
  state,
  ms: 1,
});

describe('buildContext', () => {
  it('puts tool results right after the call that asked for them, and fills in interrupted calls', () => {
    const history = [
      msg('user', [text('1+1?')]),
      msg('assistant', [text('Computing.'), tool('a', 'completed', '2'), tool('b', 'running', null)]),
    ];
    expect(buildContext({ systemPrompt: 'sys', history })).toEqual([
      { role: 'system', content: 'sys' },
      { role: 'user', content: '1+1?' },
      {
        role: 'assistant',
        content: 'Computing.',
        tool_calls: [
          { id: 'a', name: 'calculator', arguments: '{"expression":"1+1"}' },
          { id: 'b', name: 'calculator', arguments: '{"expression":"1+1"}' },
        ],
      },
      { role: 'tool', tool_call_id: 'a', content: '2' },
      { role: 'tool', tool_call_id: 'b', content: expect.stringMatching(/^Error: interrupted/) },
    ]);
  });

  it('keeps the newest exchanges that fit the budget and never cuts between a call and its result', () => {
    const history: Message[] = [];
    for (let i = 0; i < 50; i++) {
      history.push(msg('user', [text(`question ${i} ${'x'.repeat(400)}`)]));
      history.push(msg('assistant', [tool(`c${i}`, 'completed', 'y'.repeat(400))]));
      history.push(msg('assistant', [text(`answer ${i}`)]));
    }
    const out = buildContext({ systemPrompt: 'sys', history, budgetTokens: 2_000 });
    expect(out.length).toBeLessThan(history.length);
    expect(out[1]).toMatchObject({ role: 'user' });
    expect(out.at(-1)).toEqual({ role: 'assistant', content: 'answer 49' });
    out.forEach((m, i) => {
      if (m.role === 'tool')
        expect(out[i - 1]).toMatchObject({ role: 'assistant', tool_calls: [{ id: m.tool_call_id }] });
    });
  });

  it('always sends the newest exchange even when it alone is over budget', () => {
    const out = buildContext({
      systemPrompt: 's',
      history: [msg('user', [text('z'.repeat(10_000))])],
      budgetTokens: 10,
    });
    expect(out).toHaveLength(2);
  });

  it('counts Chinese characters as about a token each', () => {
    expect(estimateTokens('你好世界')).toBeGreaterThanOrEqual(4);
    expect(estimateTokens('a'.repeat(400))).toBeLessThan(120);
  });
});
