/**
 * Reciprocal rank fusion: each list gives an item 1 / (K + rank). It needs no common scale between a
 * word match count and a cosine, and an item high in both lists beats one at the top of only one.
 */
const RRF_K = 60;

export function fuseRanks<T>(lists: T[][], key: (item: T) => string): Array<{ item: T; score: number }> {
  const scores = new Map<string, { item: T; score: number }>();
  for (const list of lists) {
    list.forEach((item, rank) => {
      const k = key(item);
      const entry = scores.get(k) ?? { item, score: 0 };
      entry.score += 1 / (RRF_K + rank + 1);
      scores.set(k, entry);
    });
  }
  return [...scores.values()].sort((a, b) => b.score - a.score);
}

/** Characters pairs of a text, for telling near-duplicates apart from memories that merely share words. */
function shingles(text: string): Set<string> {
  const chars = [...text.toLowerCase().replace(/[\s\p{P}]+/gu, '')];
  const out = new Set<string>();
  for (let i = 0; i + 1 < chars.length; i++) out.add(chars[i]! + chars[i + 1]!);
  if (chars.length === 1) out.add(chars[0]!);
  return out;
}

/** Jaccard similarity of character pairs above which two memories say the same thing. */
export const NEAR_DUPLICATE = 0.8;

export function nearDuplicate(a: string, b: string): boolean {
  const x = shingles(a);
  const y = shingles(b);
  if (x.size === 0 || y.size === 0) return x.size === y.size;
  let both = 0;
  for (const s of x) if (y.has(s)) both++;
  return both / (x.size + y.size - both) >= NEAR_DUPLICATE;
}
