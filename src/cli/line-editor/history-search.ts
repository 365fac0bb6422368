/**
 * Ctrl-R: reverse incremental search through earlier entries. Pure: the editor keeps the state and
 * draws it. Matching ignores case (for scripts that have it) and works on any text, Chinese included.
 */

export interface SearchState {
  readonly query: string;
  /** Index in the entries of the match shown; -1 when none was found yet. */
  readonly index: number;
  /** The query has no match at or before where the search stands. */
  readonly failed: boolean;
}

const matches = (entry: string, query: string) => entry.toLowerCase().includes(query.toLowerCase());

/** The newest entry at or before `from` that contains `query`, skipping entries equal to `skip`. */
function find(entries: readonly string[], query: string, from: number, skip?: string): number {
  for (let i = Math.min(from, entries.length - 1); i >= 0; i--) {
    if (entries[i] !== skip && matches(entries[i]!, query)) return i;
  }
  return -1;
}

export const startSearch = (): SearchState => ({ query: '', index: -1, failed: false });

/** The query grew (a key typed): the match shown still counts if it contains it, else an older one. */
export function extendQuery(entries: readonly string[], s: SearchState, more: string): SearchState {
  const query = s.query + more;
  const index = find(entries, query, s.index < 0 ? entries.length - 1 : s.index);
  return index < 0 ? { ...s, query, failed: true } : { query, index, failed: false };
}

/** The query shrank (Backspace): searched afresh from the newest entry. */
export function setQuery(entries: readonly string[], query: string): SearchState {
  if (!query) return startSearch();
  const index = find(entries, query, entries.length - 1);
  return { query, index, failed: index < 0 };
}

/** Ctrl-R again: the next older match with different text. */
export function olderMatch(entries: readonly string[], s: SearchState): SearchState {
  if (!s.query || s.index < 0) return s;
  const index = find(entries, s.query, s.index - 1, entries[s.index]);
  return index < 0 ? { ...s, failed: true } : { ...s, index, failed: false };
}

/** The match shown, and where in it the query starts (where the cursor goes). */
export function shownMatch(entries: readonly string[], s: SearchState): { text: string; at: number } {
  if (s.index < 0) return { text: '', at: 0 };
  const text = entries[s.index]!;
  const lower = text.toLowerCase();
  // Lower-casing can change a string's length (İ): then offsets in it are not offsets in the text.
  const at = lower.length === text.length ? lower.indexOf(s.query.toLowerCase()) : -1;
  return { text, at: at < 0 ? text.length : at };
}
