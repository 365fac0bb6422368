import type { MemoriesRepo, StoredMemory } from '../store/memories-repo.js';
import { lexicalTerms } from './terms.js';

/** Newest matches of any term looked at per index: bounds the work for a word in every memory. */
export const LEXICAL_CANDIDATES = 100;
/** Matches of every term, looked at first: a precise question is answered from all the memories, not only recent ones. */
const PRECISE_CANDIDATES = 50;

/**
 * A session with at most this many memories is searched by reading them all: at a million memories
 * the index's session-scoped query took ~17 ms, reading a thousand rows ~2 ms, and nothing is missed.
 */
export const SESSION_SCAN_MAX = 2_000;

export interface LexicalHit extends StoredMemory {
  score: number;
}

/** An English word without a common ending, so "peanuts" is seen in "peanut" as the stemmed index found it. */
export function stemLite(term: string): string {
  if (!/^[a-z]+$/.test(term)) return term;
  const cut = /(?:ies|es|s|ed|ing|ly|ic|y)$/.exec(term);
  return cut && term.length - cut[0].length >= 3 ? term.slice(0, term.length - cut[0].length) : term;
}

/**
 * Memories holding the query's words, best first: by how much of the query they hold (in characters,
 * so a matched pair outweighs a matched letter), newer first among equals.
 */
export function lexicalSearch(
  repo: MemoriesRepo,
  query: string,
  scope: { sessionId: string; token: string } | undefined,
  limit: number,
): LexicalHit[] {
  const { terms, tokens, substrings } = lexicalTerms(query);
  if (terms.length === 0) return [];
  return rank(candidates(repo, { tokens, substrings, terms }, scope, limit), terms, limit);
}

function candidates(
  repo: MemoriesRepo,
  q: { tokens: string[]; substrings: string[]; terms: string[] },
  scope: { sessionId: string; token: string } | undefined,
  limit: number,
): StoredMemory[] {
  if (scope) {
    const own = repo.inSession(scope.sessionId, SESSION_SCAN_MAX + 1);
    if (own.length <= SESSION_SCAN_MAX) return own;
  }
  const base = { tokens: q.tokens, scope: scope?.token, enough: limit };
  // The precise pass asks the word index alone: an AND of trigram phrases for common words took ~50 ms at a million.
  const seqs = new Set(
    q.terms.length > 1 ? repo.matchLexical({ ...base, substrings: [], all: true, limit: PRECISE_CANDIDATES }) : [],
  );
  for (const s of repo.matchLexical({ ...base, substrings: q.substrings, all: false, limit: LEXICAL_CANDIDATES }))
    seqs.add(s);
  return repo.bySeq([...seqs]);
}

function rank(found: StoredMemory[], terms: string[], limit: number): LexicalHit[] {
  return found
    .map((m) => {
      const text = `${m.content} ${m.tags.join(' ')}`.toLowerCase();
      return { ...m, score: terms.filter((t) => text.includes(stemLite(t))).reduce((n, t) => n + [...t].length, 0) };
    })
    .filter((h) => h.score > 0)
    .sort((a, b) => b.score - a.score || b.seq - a.seq)
    .slice(0, limit);
}
