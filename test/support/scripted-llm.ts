import type { Llm, LlmEvent, LlmRequest } from '../../src/llm/types.js';
import type { Usage } from '../../src/contract/usage.js';

export interface ScriptedStep {
  text?: string;
  /** `args` may be an object or raw (possibly broken) JSON text. */
  calls?: Array<{ id?: string; name: string; args: unknown }>;
  usage?: Usage;
  /** Thrown after the text, as a provider failure would be. */
  error?: Error;
  /** Waits this long (honouring the abort signal) before finishing the step. */
  delayMs?: number;
  /** Waits for this (honouring the abort signal) before finishing the step: a test holds the step. */
  until?: Promise<unknown>;
  /** Told once the step has said its text and starts waiting: the moment a test can act mid-step. */
  onWait?: () => void;
}

/** A model that plays back scripted steps and records every request it received. */
export function createScriptedLlm(steps: Array<ScriptedStep | ((req: LlmRequest) => ScriptedStep)>) {
  const requests: LlmRequest[] = [];
  let next = 0;
  let callCounter = 0;
  const llm: Llm & { requests: LlmRequest[] } = {
    mode: 'llm',
    provider: 'scripted',
    model: 'scripted-1',
    requests,
    async *stream(req): AsyncIterable<LlmEvent> {
      requests.push({ ...req, messages: structuredClone(req.messages) });
      const entry = steps[next++] ?? { text: '(script ended)' };
      const step = typeof entry === 'function' ? entry(req) : entry;
      if (step.text) {
        // Two deltas, so consumers see a real stream.
        const mid = Math.ceil(step.text.length / 2);
        yield { type: 'text', delta: step.text.slice(0, mid) };
        if (step.text.length > mid) yield { type: 'text', delta: step.text.slice(mid) };
      }
      if (step.delayMs || step.until) {
        await new Promise<void>((resolve, reject) => {
          const t = step.delayMs ? setTimeout(resolve, step.delayMs) : undefined;
          void step.until?.then(() => resolve());
          const aborted = () => {
            clearTimeout(t);
            reject(Object.assign(new Error('aborted'), { name: 'AbortError' }));
          };
          req.signal?.addEventListener('abort', aborted, { once: true });
          step.onWait?.();
        });
      }
      if (step.error) throw step.error;
      for (const c of step.calls ?? []) {
        yield {
          type: 'tool_call',
          call: {
            id: c.id ?? `call_${++callCounter}`,
            name: c.name,
            arguments: typeof c.args === 'string' ? c.args : JSON.stringify(c.args),
          },
        };
      }
      if (step.usage) yield { type: 'usage', usage: step.usage };
      yield { type: 'finish', reason: step.calls?.length ? 'tool_calls' : 'stop' };
    },
  };
  return llm;
}

/** A promise a test resolves when it chooses: `until` for a scripted step. */
export function gate(): { until: Promise<void>; open(): void } {
  let open!: () => void;
  const until = new Promise<void>((resolve) => (open = resolve));
  return { until, open };
}
