/**
 * A second opinion for short East Asian pages. chardet needs a fair amount of text: a GBK page of a
 * dozen characters comes back as ISO-8859-1 (`ÄãºÃ`). These bytes are read in each CJK encoding, and
 * one is kept only when the reading is clean (no invalid sequences) and is made of what that
 * language's text is made of. The order matters: EUC-KR and Shift_JIS bytes also read as clean
 * Chinese characters in GBK, while GBK bytes seldom read as Korean that is nearly all hangul, or as
 * Japanese full of kana.
 */

const REPLACEMENT = '\uFFFD';
/** Share of non-ASCII characters that must be CJK (ideographs, kana, hangul, CJK punctuation, full-width forms). */
const MOSTLY_CJK = 0.9;
/** Japanese prose is rarely under a fifth kana; GBK bytes read as Shift_JIS give half-width kana instead. */
const KANA_SHARE = 0.2;
/** Korean text is nearly all hangul; Chinese read as EUC-KR mixes hangul with hanja. */
const HANGUL_SHARE = 0.85;
/** Chinese GBK text is nearly all inside GB2312 (both bytes ≥ 0xA1); Big5 bytes often are not. */
export const GB2312_SHARE = 0.8;
/**
 * Latin-1 text read as Big5 or GBK gives single ideographs wedged inside Latin words (`Grüße` →
 * `Gr晧e`): an accented letter and the ASCII letter after it make a valid pair. Real CJK text runs in
 * characters of its own; past this share of wedged characters a reading is taken for misread Latin.
 */
const WEDGED_SHARE = 0.2;
/** Big5 proper (not the HKSCS extension iconv also reads): lead 0xA1–0xF9, trail 0x40–0x7E or 0xA1–0xFE. */
const BIG5_SHARE = 0.95;

type Decode = (charset: string) => Promise<string | undefined>;

export async function guessCjk(bytes: Uint8Array, decode: Decode): Promise<string | undefined> {
  const readings = new Map<string, Shares>();
  for (const charset of ['shift_jis', 'euc-kr', 'gb18030', 'big5']) {
    // A character cut at the end of the sample is not a fault of the encoding.
    const text = (await decode(charset))?.replace(/\uFFFD$/, '');
    if (text !== undefined && !text.includes(REPLACEMENT)) readings.set(charset, shares(text));
  }
  const ok = (c: string) => {
    const s = readings.get(c);
    return s !== undefined && s.total > 0 && s.cjk / s.total >= MOSTLY_CJK && s.wedged / s.total < WEDGED_SHARE
      ? s
      : undefined;
  };
  const sjis = ok('shift_jis');
  if (sjis && sjis.kana / sjis.total >= KANA_SHARE) return 'shift_jis';
  const kr = ok('euc-kr');
  if (kr && kr.hangul / kr.total >= HANGUL_SHARE) return 'euc-kr';
  if (ok('gb18030') && gb2312Share(bytes) >= GB2312_SHARE) return 'gb18030';
  if (ok('big5') && big5Share(bytes) >= BIG5_SHARE) return 'big5';
  return undefined;
}

interface Shares {
  total: number;
  cjk: number;
  kana: number;
  hangul: number;
  /** Non-ASCII characters with an ASCII letter on both sides. */
  wedged: number;
}

function shares(text: string): Shares {
  const s: Shares = { total: 0, cjk: 0, kana: 0, hangul: 0, wedged: 0 };
  const chars = [...text];
  const letter = (ch: string | undefined) => ch !== undefined && /^[A-Za-z]$/.test(ch);
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!.codePointAt(0)!;
    if (c < 0x80) continue;
    s.total++;
    if (letter(chars[i - 1]) && letter(chars[i + 1])) s.wedged++;
    const kana = c >= 0x3040 && c <= 0x30ff;
    const hangul = c >= 0xac00 && c <= 0xd7a3;
    const han =
      (c >= 0x4e00 && c <= 0x9fff) ||
      (c >= 0x3400 && c <= 0x4dbf) ||
      (c >= 0xf900 && c <= 0xfaff) ||
      (c >= 0x20000 && c <= 0x2ffff);
    const punct = (c >= 0x3000 && c <= 0x303f) || (c >= 0xff01 && c <= 0xff60) || (c >= 0xffe0 && c <= 0xffe6);
    if (kana) s.kana++;
    if (hangul) s.hangul++;
    if (kana || hangul || han || punct) s.cjk++;
  }
  return s;
}

/**
 * Of the byte pairs a double-byte reading makes (a byte ≥ 0x80 and the one after it), the share
 * `inside` accepts.
 */
function pairShare(bytes: Uint8Array, inside: (lead: number, trail: number) => boolean): number {
  let pairs = 0;
  let kept = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b < 0x80) continue;
    const t = bytes[i + 1];
    if (t === undefined) break;
    pairs++;
    if (inside(b, t)) kept++;
    i++;
  }
  return pairs === 0 ? 0 : kept / pairs;
}

/** Of the byte pairs a GBK reading makes, the share inside GB2312 (lead 0xA1–0xF7, trail 0xA1–0xFE). */
export const gb2312Share = (bytes: Uint8Array): number =>
  pairShare(bytes, (b, t) => b >= 0xa1 && b <= 0xf7 && t >= 0xa1 && t <= 0xfe);

/** Of the byte pairs a Big5 reading makes, the share inside Big5 proper (not the HKSCS extension). */
const big5Share = (bytes: Uint8Array): number =>
  pairShare(bytes, (b, t) => b >= 0xa1 && b <= 0xf9 && ((t >= 0x40 && t <= 0x7e) || (t >= 0xa1 && t <= 0xfe)));
