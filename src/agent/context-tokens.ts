import { estimateTokens, messageText } from '../llm/tokens.js';
import type { ChatMessage } from '../llm/types.js';

/**
 * The cheap estimate (src/llm/tokens.ts) times this is more than any real tokenizer gives for the
 * same text, hex and code included: below the budget by that much, nothing needs exact counting.
 */
export const ESTIMATE_MARGIN = 2;
/**
 * Exact counts use OpenAI's o200k_base; DeepSeek, Qwen, GLM and Kimi have tokenizers of their own,
 * which count Chinese and code within about a tenth of it. Their budgets keep that much spare.
 */
export const EXACT_MARGIN = 1.1;
/** What each message costs beyond its text (role, separators), in the Chat Completions format. */
export const PER_MESSAGE_TOKENS = 4;
/** Longer texts are estimated even when exact counts are on: they are pruned or cut anyway, and tokenizing megabytes costs seconds. */
const EXACT_MAX_CHARS = 400_000;

export interface TokenCounter {
  /** Tokens of a text: exact (times EXACT_MARGIN) once `load` has run, the estimate before. */
  text(text: string): number;
  /** Tokens of a request message, remembered per message object. */
  message(m: ChatMessage): number;
  /** Loads the real tokenizer (about 300 ms, once); until then counts are estimates. */
  load(): Promise<void>;
  readonly exact: boolean;
}

type Encode = (text: string) => number;

/**
 * Texts are tokenized this many characters at a time. BPE merges within one run of characters
 * without a break cost the square of its length: 96,000 'x' in one piece take seconds, in pieces
 * milliseconds. Each cut can add a token, so the count errs high, never low.
 */
const ENCODE_CHUNK_CHARS = 1_000;

/** The real tokenizer, imported on first need: start-up never pays for it. */
async function loadO200k(): Promise<Encode> {
  const { countTokens } = await import('gpt-tokenizer/encoding/o200k_base');
  return (text) => {
    let n = 0;
    for (let i = 0; i < text.length; i += ENCODE_CHUNK_CHARS) n += countTokens(text.slice(i, i + ENCODE_CHUNK_CHARS));
    return n;
  };
}

export function createTokenCounter(options: { loadEncoder?: () => Promise<Encode> } = {}): TokenCounter {
  let encode: Encode | undefined;
  let loading: Promise<void> | undefined;
  // Separate caches: an estimate must not stand in for an exact count once that is on.
  const estimated = new WeakMap<ChatMessage, number>();
  const exactly = new WeakMap<ChatMessage, number>();
  const text = (t: string) =>
    encode && t.length <= EXACT_MAX_CHARS ? Math.ceil(encode(t) * EXACT_MARGIN) : estimateTokens(t);
  return {
    text,
    message(m) {
      const cache = encode ? exactly : estimated;
      let n = cache.get(m);
      if (n === undefined) {
        n = text(messageText(m)) + PER_MESSAGE_TOKENS;
        cache.set(m, n);
      }
      return n;
    },
    load() {
      loading ??= (options.loadEncoder ?? loadO200k)().then((e) => {
        encode = e;
      });
      return loading;
    },
    get exact() {
      return encode !== undefined;
    },
  };
}
