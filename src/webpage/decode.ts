/**
 * Bytes of a web page to text. The charset comes from the Content-Type header, else from the page's
 * own `<meta charset>` / `http-equiv`, else from detection over the legacy CJK encodings
 * (GBK/GB18030, Big5, Shift_JIS, EUC-KR). Bytes that are valid UTF-8 (and not plain ASCII) are read
 * as UTF-8 whatever a declaration claims: a GBK text is practically never valid UTF-8, while pages
 * that declare gb2312 and send UTF-8 are common (the mismatch Chinese users see as mojibake). The
 * other way round too: a page that claims UTF-8 but is not valid UTF-8 goes to detection, and one whose
 * declared legacy charset reads with invalid sequences gives way to a charset that reads it cleanly.
 *
 * iconv-lite and chardet are loaded only when a page needs them.
 */

/** How far into the page a `<meta>` declaration is looked for (browsers use 1 KB; real pages put it later). */
const META_SCAN_BYTES = 16_384;
/** How much of the page the detector reads: enough for a verdict, cheap on a 5 MB page. */
const DETECT_BYTES = 65_536;
/** Encodings the detector may choose: the legacy ones that still serve East Asian pages, and Latin. */
const DETECTABLE = new Set([
  'gb18030',
  'big5',
  'shift_jis',
  'euc-jp',
  'euc-kr',
  'iso-2022-jp',
  'windows-1252',
  'iso-8859-1',
]);

export type CharsetSource = 'bom' | 'header' | 'meta' | 'utf-8' | 'detected' | 'default';

export interface Decoded {
  text: string;
  /** The encoding the bytes were read as, in lower case (`utf-8`, `gb18030`, …). */
  charset: string;
  /** Where that came from. `utf-8`: the bytes were valid UTF-8, whatever was declared. */
  source: CharsetSource;
  /** The charset the header or the page named, when another one was used. */
  declared?: string;
}

/** `charset=` from a Content-Type value, if any. */
export function headerCharset(contentType: string | null | undefined): string | undefined {
  const m = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? '');
  return m?.[1]?.toLowerCase();
}

/** The charset a `<meta charset>` or `<meta http-equiv="content-type" content="…; charset=…">` names near the top. */
export function metaCharset(bytes: Uint8Array): string | undefined {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, META_SCAN_BYTES)).toString(
    'latin1',
  );
  for (const tag of head.matchAll(/<meta\b[^>]*>/gi)) {
    const t = tag[0];
    const direct = /\bcharset\s*=\s*["']?\s*([\w.:-]+)/i.exec(t);
    if (direct && (/\scharset\s*=/i.test(t) || /http-equiv\s*=\s*["']?content-type/i.test(t)))
      return direct[1]!.toLowerCase();
  }
  return undefined;
}

/** WHATWG labels to what iconv-lite decodes; supersets where the label is a subset in practice. */
export function canonicalCharset(label: string): string {
  const l = label.trim().toLowerCase().replace(/^x-/, '');
  if (['utf8', 'utf-8', 'unicode-1-1-utf-8'].includes(l)) return 'utf-8';
  // Pages labelled GB2312 or GBK routinely use characters only GBK/GB18030 have; GB18030 reads them all.
  if (['gb2312', 'gbk', 'gb18030', 'gb_2312-80', 'chinese', 'csgb2312', 'euc-cn', 'cp936', 'windows-936'].includes(l))
    return 'gb18030';
  if (['big5', 'big5-hkscs', 'cn-big5', 'csbig5'].includes(l)) return 'big5';
  if (['shift_jis', 'shift-jis', 'sjis', 'ms_kanji', 'windows-31j', 'cp932', 'csshiftjis'].includes(l))
    return 'shift_jis';
  if (['euc-kr', 'ks_c_5601-1987', 'windows-949', 'cp949', 'cseuckr'].includes(l)) return 'euc-kr';
  // Browsers read Latin-1 labels as windows-1252, and so do the pages that use them.
  if (['iso-8859-1', 'latin1', 'l1', 'us-ascii', 'ascii', 'cp1252', 'windows-1252'].includes(l)) return 'windows-1252';
  return l;
}

/** Whether the bytes hold non-ASCII and are all valid UTF-8 (a sequence cut at the very end is allowed). */
export function isUtf8(bytes: Uint8Array): boolean {
  let ascii = true;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i]! >= 0x80) {
      ascii = false;
      break;
    }
  }
  if (ascii) return false;
  try {
    // `stream` keeps a multi-byte character cut by the size cap from counting against the page.
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true });
    return true;
  } catch {
    return false;
  }
}

async function decodeAs(bytes: Uint8Array, charset: string): Promise<string | undefined> {
  if (charset === 'utf-8') return new TextDecoder('utf-8').decode(bytes);
  const iconv = (await import('iconv-lite')).default;
  if (!iconv.encodingExists(charset)) return undefined;
  return iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), charset);
}

/**
 * chardet's verdict, checked: a Latin guess (or a CJK one that reads with invalid sequences) gives
 * way to a CJK encoding the bytes read cleanly in, since chardet mistakes short CJK pages for Latin.
 */
async function detect(bytes: Uint8Array): Promise<string | undefined> {
  const chardet = (await import('chardet')).default;
  const sample = bytes.subarray(0, DETECT_BYTES);
  let picked: string | undefined;
  for (const match of chardet.analyse(sample)) {
    const name = canonicalCharset(match.name);
    if (DETECTABLE.has(name) || DETECTABLE.has(match.name.toLowerCase())) {
      picked = name;
      break;
    }
  }
  if (picked && CJK.has(picked) && isClean(await decodeAs(sample, picked))) return picked;
  const { guessCjk } = await import('./cjk-guess.js');
  return (await guessCjk(sample, (charset) => decodeAs(sample, charset))) ?? picked;
}

const CJK = new Set(['gb18030', 'big5', 'shift_jis', 'euc-jp', 'euc-kr', 'iso-2022-jp']);

/** No replacement character, save one for a character cut at the very end. */
function isClean(text: string | undefined): boolean {
  return text !== undefined && !text.replace(/\uFFFD$/, '').includes('\uFFFD');
}

/**
 * GBK reads Big5 bytes without a single invalid sequence, as rare characters: a page labelled GBK
 * whose characters mostly lie outside GB2312 (where nearly all Chinese text is) is worth detecting.
 */
async function offGb2312(bytes: Uint8Array, charset: string): Promise<boolean> {
  if (charset !== 'gb18030') return false;
  const { gb2312Share, GB2312_SHARE } = await import('./cjk-guess.js');
  return gb2312Share(bytes.subarray(0, DETECT_BYTES)) < GB2312_SHARE;
}

/** Whether any byte is outside ASCII. */
function hasHighBytes(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes[i]! >= 0x80) return true;
  return false;
}

/** Decodes a page's bytes, choosing the charset as the module comment says. */
export async function decodePage(bytes: Uint8Array, contentType?: string | null): Promise<Decoded> {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    return { text: new TextDecoder('utf-8').decode(bytes.subarray(3)), charset: 'utf-8', source: 'bom' };
  if (bytes[0] === 0xff && bytes[1] === 0xfe)
    return { text: new TextDecoder('utf-16le').decode(bytes.subarray(2)), charset: 'utf-16le', source: 'bom' };
  if (bytes[0] === 0xfe && bytes[1] === 0xff)
    return { text: new TextDecoder('utf-16be').decode(bytes.subarray(2)), charset: 'utf-16be', source: 'bom' };

  const fromHeader = headerCharset(contentType);
  const fromMeta = fromHeader ? undefined : metaCharset(bytes);
  const declared = fromHeader ?? fromMeta;
  const utf8 = isUtf8(bytes);
  if (declared) {
    const charset = canonicalCharset(declared);
    if (charset !== 'utf-8' && utf8)
      return { text: new TextDecoder('utf-8').decode(bytes), charset: 'utf-8', source: 'utf-8', declared };
    // A page that claims UTF-8 and is not (a GBK page under a template's <meta charset="utf-8">) is detected.
    const falseUtf8 = charset === 'utf-8' && !utf8 && hasHighBytes(bytes);
    const text = falseUtf8 ? undefined : await decodeAs(bytes, charset);
    if (text !== undefined && charset !== 'utf-8' && (!isClean(text) || (await offGb2312(bytes, charset)))) {
      // The declared legacy charset does not fit the bytes: another that reads them cleanly wins.
      const other = await detect(bytes);
      const better = other && other !== charset ? await decodeAs(bytes, other) : undefined;
      if (better !== undefined && isClean(better))
        return { text: better, charset: other!, source: 'detected', declared };
    }
    if (text !== undefined) return { text, charset, source: fromHeader ? 'header' : 'meta' };
  }
  if (utf8)
    return {
      text: new TextDecoder('utf-8').decode(bytes),
      charset: 'utf-8',
      source: 'utf-8',
      ...(declared ? { declared } : {}),
    };
  const guessed = await detect(bytes);
  if (guessed) {
    const text = await decodeAs(bytes, guessed);
    if (text !== undefined) return { text, charset: guessed, source: 'detected', ...(declared ? { declared } : {}) };
  }
  // Plain ASCII, or bytes nothing recognises: UTF-8 with replacement characters shows what it can.
  return {
    text: new TextDecoder('utf-8').decode(bytes),
    charset: 'utf-8',
    source: 'default',
    ...(declared ? { declared } : {}),
  };
}
