/** A search service answers in a second or two; past this it is down or overloaded. */
export const SEARCH_TIMEOUT_MS = 15_000;
/** A page of results is tens of kilobytes; more is not a search answer. */
export const MAX_RESPONSE_BYTES = 2 * 1024 * 1024;
export const DEFAULT_COUNT = 8;
export const MAX_COUNT = 20;
