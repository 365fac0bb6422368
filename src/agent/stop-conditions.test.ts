import { describe, expect, it } from 'vitest';
import { createToolRegistry } from '../tools/registry.js';
import { callSignature as signatureOf, createRepeatGuard, reachedMaxSteps } from './stop-conditions.js';

/** A call as the model sends it: a tool name and raw argument text. */
const call = (name: string, args: string) =>
  [name, createToolRegistry().prepare({ id: 'c', name, arguments: args }).input] as const;
const callSignature = (c: ReturnType<typeof call>) => signatureOf(...c);

describe('stop conditions', () => {
  it('treats the same arguments in another key order or spacing as the same call', () => {
    expect(callSignature(call('t', '{"a":1,"b":{"y":2,"x":[1,2]}}'))).toBe(
      callSignature(call('t', '{ "b": {"x": [1, 2], "y": 2}, "a": 1 }')),
    );
    expect(callSignature(call('t', '{"a":1}'))).not.toBe(callSignature(call('u', '{"a":1}')));
    expect(callSignature(call('t', '{"a":1}'))).not.toBe(callSignature(call('t', '{"a":2}')));
    expect(callSignature(call('t', '{broken'))).toBe('t:"{broken"');
  });

  it('flags the third identical call, not the first two, and counts each signature apart', () => {
    const guard = createRepeatGuard();
    expect([
      guard.isRepeat(...call('t', '{}')),
      guard.isRepeat(...call('u', '{}')),
      guard.isRepeat(...call('t', '{}')),
    ]).toEqual([false, false, false]);
    expect(guard.isRepeat(...call('t', '{}'))).toBe(true);
  });

  it('stops at the step limit', () => {
    expect(reachedMaxSteps(7, 8)).toBe(false);
    expect(reachedMaxSteps(8, 8)).toBe(true);
  });
});
