import type { MemoriesRepo, StoredMemory } from '../store/memories-repo.js';
import { lexicalTerms } from './terms.js';

/** Newest matches of any term looked at per index: bounds the work for a word in every memory. */
export const LEXICAL_CANDIDATES = 200;
/** Matches of every term, looked at first: a precise question is answered from all the memories, not only recent ones. */
const PRECISE_CANDIDATES = 100;

export interface LexicalHit extends StoredMemory {
  score: number;
}

/**
 * Memories holding the query's words, best first: by how much of the query they hold (in characters,
 * so a matched pair outweighs a matched letter), newer first among equals.
 */
export function lexicalSearch(repo: MemoriesRepo, query: string, scope: string | undefined, limit: number): LexicalHit[] {
  const { terms, tokens, prefixes, substrings } = lexicalTerms(query);
  if (terms.length === 0) return [];
  const base = { tokens, prefixes, substrings, scope };
  const seqs = new Set(repo.matchLexical({ ...base, all: true, limit: PRECISE_CANDIDATES }));
  if (terms.length > 1) for (const s of repo.matchLexical({ ...base, all: false, limit: LEXICAL_CANDIDATES })) seqs.add(s);
  return repo
    .bySeq([...seqs])
    .map((m) => {
      const text = `${m.content} ${m.tags.join(' ')}`.toLowerCase();
      return { ...m, score: terms.filter((t) => text.includes(t)).reduce((n, t) => n + [...t].length, 0) };
    })
    .filter((h) => h.score > 0)
    .sort((a, b) => b.score - a.score || b.seq - a.seq)
    .slice(0, limit);
}
