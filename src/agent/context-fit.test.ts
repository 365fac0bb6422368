import { describe, expect, it } from 'vitest';
import { estimateTokens, messageText } from '../llm/tokens.js';
import type { ChatMessage } from '../llm/types.js';
import { fitRequest } from './context-fit.js';
import type { Entry } from './context-units.js';

const count = (m: ChatMessage) => estimateTokens(messageText(m)) + 4;
const AT = Date.UTC(2026, 11, 1, 6, 40);
const system: ChatMessage = { role: 'system', content: 'sys' };

/** An exchange: a question, one call of `tool` with an output of `chars` characters, an answer. */
function exchange(i: number, chars: number, tool = 'file_read'): Entry[] {
  return [
    { msg: { role: 'user', content: `question ${i}` }, at: AT },
    { msg: { role: 'assistant', content: null, tool_calls: [{ id: `c${i}`, name: tool, arguments: '{}' }] }, at: AT },
    { msg: { role: 'tool', tool_call_id: `c${i}`, content: `${i}`.padEnd(chars, 'x') }, at: AT, tool },
    { msg: { role: 'assistant', content: `answer ${i}` }, at: AT },
  ];
}
const current: Entry[] = [{ msg: { role: 'user', content: 'now' }, at: AT }];

describe('fitRequest', () => {
  it('sends everything as it is when it fits', () => {
    const out = fitRequest({ system, history: [exchange(1, 100)], current, budget: 10_000, count });
    expect(out).toMatchObject({ pruned: 0, dropped: 0, cut: 0 });
    expect(out.messages).toHaveLength(6);
  });

  it("prunes old exchanges' large outputs before dropping any exchange, and keeps the newest ones whole", () => {
    const history = [exchange(1, 8_000), exchange(2, 8_000), exchange(3, 8_000)];
    const out = fitRequest({ system, history, current, budget: 2_600, count });
    expect(out.dropped).toBe(0);
    expect(out.pruned).toBe(2);
    const tools = out.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(tools[0]).toBe(
      '[output pruned: 8,000 characters from file_read at 2026-12-01 06:40 UTC, to fit the context; the stored result is unchanged]',
    );
    expect(tools[2]).toHaveLength(8_000);
    expect(out.tokens).toBeLessThanOrEqual(2_600);
    // The input is not changed: the next step starts from the stored outputs again.
    expect((history[0]![2]!.msg as { content: string }).content).toHaveLength(8_000);
  });

  it('then drops whole exchanges, oldest first, never a call without its result', () => {
    const history = Array.from({ length: 20 }, (_, i) => exchange(i, 400));
    const out = fitRequest({ system, history, current, budget: 600, count });
    expect(out.dropped).toBeGreaterThan(0);
    expect(out.messages[1]).toMatchObject({ role: 'user' });
    expect(out.messages.at(-1)).toEqual({ role: 'user', content: 'now' });
    expect(out.tokens).toBeLessThanOrEqual(600);
  });

  it("fits one huge turn: the oldest steps' outputs pruned first, the user's message cut only as a last resort", () => {
    const steps = [1, 2, 3].flatMap((i) => exchange(i, 6_000).slice(1, 3));
    const turn = [{ msg: { role: 'user', content: 'read three files' } as ChatMessage, at: AT }, ...steps];
    const out = fitRequest({ system, history: [], current: turn, budget: 2_000, count });
    const tools = out.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(tools[0]).toMatch(/^\[output pruned: 6,000 characters from file_read/);
    expect(tools[1]).toMatch(/^\[output pruned/);
    expect(tools[2]).toHaveLength(6_000);
    expect(out.cut).toBe(0);

    const huge = fitRequest({
      system,
      history: [],
      current: [{ msg: { role: 'user', content: 'y'.repeat(100_000) }, at: AT }],
      budget: 1_000,
      count,
    });
    expect(huge.cut).toBeGreaterThan(0);
    expect(huge.tokens).toBeLessThanOrEqual(1_000);
    expect(huge.messages[1]!.content).toMatch(/\[cut to fit the context: [\d,]+ more characters not shown\]$/);
  });
});

describe("the user's own words", () => {
  it('are never cut away when the system message leaves no room: the question goes whole up to 2,000 characters', () => {
    const big: ChatMessage = { role: 'system', content: 'x'.repeat(4_000) };
    const question = `帮我算一下 3*1000+${'1+'.repeat(80)}1`;
    const out = fitRequest({
      system: big,
      history: [],
      current: [{ msg: { role: 'user', content: question }, at: AT }],
      budget: 1_000,
      count,
    });
    expect(out.messages.at(-1)!.content).toBe(question);
    const long = 'y'.repeat(50_000);
    const cut = fitRequest({
      system,
      history: [],
      current: [{ msg: { role: 'user', content: long }, at: AT }],
      budget: 1_000,
      count,
    });
    expect((cut.messages.at(-1)!.content as string).startsWith('y'.repeat(2_000))).toBe(true);
    expect(cut.messages.at(-1)!.content).toMatch(/cut to fit the context/);
  });
});
