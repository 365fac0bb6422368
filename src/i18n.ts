import { UserError } from './contract/user-error.js';

/** The language user-facing text is written in: chosen per turn from ZHIXING_LANG or the user's own words. */
export type Lang = 'zh' | 'en';

/** Pick the text for a language; both are always written. */
export const say = (lang: Lang, zh: string, en: string): string => (lang === 'zh' ? zh : en);

// Han ideographs (basic, extension A, compatibility) and kana: any of them means a CJK speaker,
// and Chinese is the CJK language we answer in.
const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/;

/** Chinese when the text contains any CJK character, else English. */
export function detectLang(text: string): Lang {
  return CJK.test(text) ? 'zh' : 'en';
}

// Letters of a script written left to right with spaces (Latin, Greek, Cyrillic): an English speaker, for us.
const LETTER = /[A-Za-z\u00c0-\u024f\u0370-\u03ff\u0400-\u04ff]/;

/**
 * The language someone wrote in: Chinese with any CJK character, English with letters, and
 * otherwise (digits, symbols, an empty line) `previous`, the language they used before.
 */
export function languageOf(text: string, previous: Lang): Lang {
  if (CJK.test(text)) return 'zh';
  return LETTER.test(text) ? 'en' : previous;
}

/**
 * What a person reads of an error, in their language: a UserError's own sentence, else its message
 * (an error no module meant for a person, shown as it is rather than hidden).
 */
export function errorText(err: unknown, lang: Lang): string {
  if (err instanceof UserError) return lang === 'zh' ? err.zh : err.message;
  return err instanceof Error ? err.message : String(err);
}
