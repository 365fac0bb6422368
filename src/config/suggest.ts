/**
 * "Did you mean …?" for a setting name the program does not know: `modle` → `model`,
 * `base_url` → `baseUrl`, `ZHIXING_MODEL` in config.json → `model`.
 */

/** Names are compared without case, separators or the ZHIXING_ prefix: `API_KEY` and `apiKey` are one name. */
const normalise = (name: string) =>
  name
    .toLowerCase()
    .replace(/^zhixing_/, '')
    .replace(/[-_.\s]/g, '');

/** The most edits (insert, delete, replace, swap two neighbours) a typo may take, by the name's length. */
const maxEdits = (length: number) => (length <= 4 ? 1 : 2);
/** A shorter name that appears inside a known one (`key` in `apiKey`) is a guess only from this length on. */
const MIN_PART_CHARS = 3;

/** Optimal string alignment distance: Levenshtein with adjacent swaps counted as one edit. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/** The known name `name` most likely meant, or undefined when none is close enough to guess. */
export function closestName(name: string, known: readonly string[]): string | undefined {
  const word = normalise(name);
  if (!word) return undefined;
  const exact = known.find((k) => normalise(k) === word);
  if (exact) return exact;
  let best: { name: string; distance: number } | undefined;
  let tie = false;
  for (const k of known) {
    const distance = editDistance(word, normalise(k));
    if (distance > maxEdits(word.length)) continue;
    if (!best || distance < best.distance) [best, tie] = [{ name: k, distance }, false];
    else if (distance === best.distance) tie = true;
  }
  if (best && !tie) return best.name;
  if (best) return undefined;
  // A part of a name: only when exactly one known name holds it.
  const holders = word.length >= MIN_PART_CHARS ? known.filter((k) => normalise(k).includes(word)) : [];
  return holders.length === 1 ? holders[0] : undefined;
}
