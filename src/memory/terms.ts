/**
 * What to look for in memories, from a question or keywords as people type them. Chinese has no
 * spaces and most of its words are two characters (过敏, 咖啡), so a run of Chinese is looked for
 * as its overlapping pairs; other text as its words.
 */

const CJK_RUN = /[\u3400-\u9fff\uf900-\ufaff]+/g;
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’_-]*/gu;
/** Pairs made only of these say nothing about what is asked: 我对什么过敏 → 过敏. */
const CJK_FILLER = new Set(
  '我你他她它的了吗呢吧啊是在有对和与跟把被给什么哪谁怎样几多少个还也都就又要会能想说过请帮一下这那些么',
);
const EN_STOP = new Set([
  'a',
  'an',
  'the',
  'i',
  'me',
  'my',
  'you',
  'your',
  'is',
  'am',
  'are',
  'was',
  'were',
  'do',
  'does',
  'did',
  'what',
  'which',
  'who',
  'whom',
  'how',
  'when',
  'where',
  'why',
  'of',
  'to',
  'in',
  'on',
  'at',
  'for',
  'and',
  'or',
  'to',
  'it',
  'that',
  'this',
  'about',
  'with',
  'be',
  'have',
  'has',
  'any',
  'remember',
  'know',
]);

export function queryTerms(query: string): string[] {
  const terms = new Set<string>();
  for (const run of query.match(CJK_RUN) ?? []) {
    const chars = [...run];
    if (chars.length === 1) {
      if (!CJK_FILLER.has(run)) terms.add(run);
      continue;
    }
    for (let i = 0; i + 1 < chars.length; i++) {
      const pair = chars[i]! + chars[i + 1]!;
      if (!(CJK_FILLER.has(chars[i]!) && CJK_FILLER.has(chars[i + 1]!))) terms.add(pair);
    }
  }
  const rest = query.replace(CJK_RUN, ' ');
  for (const word of rest.match(WORD) ?? []) {
    const w = word.toLowerCase();
    if (!EN_STOP.has(w) && (w.length > 1 || /\d/.test(w))) terms.add(w);
  }
  return [...terms];
}

/** Non-CJK words as the word index's tokenizer splits them (it also lowercases). */
const INDEX_WORD = /[\p{L}\p{N}]+/gu;

/**
 * What a memory is indexed under in the word index: each Chinese character and each overlapping pair
 * (a two-character word is one token; a one-character question still finds it), and every other word
 * lowercased. Space-separated, for FTS5's unicode61 tokenizer.
 */
export function indexTerms(text: string): string {
  const out = new Set<string>();
  for (const run of text.match(CJK_RUN) ?? []) {
    const chars = [...run];
    chars.forEach((c, i) => {
      out.add(c);
      if (i + 1 < chars.length) out.add(c + chars[i + 1]!);
    });
  }
  for (const w of text.replace(CJK_RUN, ' ').match(INDEX_WORD) ?? []) out.add(w.toLowerCase());
  return [...out].join(' ');
}

/** A query's terms sorted by how the indexes find them: whole tokens, and substrings for the trigram index. */
export function lexicalTerms(query: string): { terms: string[]; tokens: string[]; substrings: string[] } {
  const terms = queryTerms(query);
  const tokens: string[] = [];
  const substrings: string[] = [];
  for (const t of terms) {
    // A word the tokenizer would split (e-mail, it's) is found as a substring only.
    if ((t.match(INDEX_WORD) ?? []).length === 1) tokens.push(t);
    if ([...t].length >= 3) substrings.push(t);
  }
  return { terms, tokens, substrings };
}
