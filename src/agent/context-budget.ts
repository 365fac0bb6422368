import { CHARS_PER_TOKEN } from '../llm/tokens.js';

/** Kept free for the model's reply: a fifth of the window, between these. */
const MIN_REPLY_TOKENS = 1_024;
const MAX_REPLY_TOKENS = 8_192;
/** The smallest history budget a request gets, however large the tools' schemas: the user's message must go. */
const MIN_HISTORY_TOKENS = 1_000;
/** Past this share of the budget, older messages are summarised... */
export const COMPACT_AT = 0.8;
/** ...keeping the newest messages that fill this share whole. */
export const KEEP_AFTER_COMPACTION = 0.35;
/** Long-term memories get at most this share of the window, and at most RECALL_MAX_TOKENS. */
const RECALL_SHARE = 0.1;
const RECALL_MAX_TOKENS = 1_500;
/** The user's standing instructions and the summary each get at most this share of the budget, so the user's message always has room. */
const PREFERENCES_SHARE = 0.1;
const SUMMARY_SHARE = 0.25;

export interface Budget {
  /** Tokens for the system message and the history together. */
  tokens: number;
  /** Tokens kept for the reply. */
  reply: number;
  /** Characters of stored history worth reading: no more could fit, whatever the text. */
  readChars: number;
  /** Tokens recalled memories may take. */
  recall: number;
  /** Tokens the standing instructions may take. */
  preferences: number;
  /** Tokens the summary of older messages may take. */
  summary: number;
}

/**
 * What a request may hold: the model's window less the room for its reply and the tools' schemas,
 * which are sent with every request too.
 */
export function requestBudget(window: number, toolsTokens: number): Budget {
  const reply = Math.min(MAX_REPLY_TOKENS, Math.max(MIN_REPLY_TOKENS, Math.floor(window / 5)));
  const tokens = Math.max(MIN_HISTORY_TOKENS, window - reply - toolsTokens);
  return {
    tokens,
    reply,
    readChars: tokens * CHARS_PER_TOKEN,
    recall: Math.min(RECALL_MAX_TOKENS, Math.floor(window * RECALL_SHARE)),
    preferences: Math.floor(tokens * PREFERENCES_SHARE),
    summary: Math.floor(tokens * SUMMARY_SHARE),
  };
}
