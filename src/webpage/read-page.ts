/**
 * A response to what the model reads: an HTML page as its article in Markdown, text as text, and
 * for PDFs, images and other bytes a clear word of what they are instead of their contents.
 */
import type { Response } from 'undici';
import { say, type Lang } from '../i18n.js';
import { ToolError } from '../contract/tool-error.js';
import { kindFromType, readCapped, sniffKind } from './body.js';
import { decodePage } from './decode.js';
import type { Degraded } from './extract-bounded.js';
import type { PageLink } from './extract.js';

export interface ReadPage {
  /** The URL that answered, after redirects. */
  url: string;
  title: string;
  byline?: string;
  siteName?: string;
  /** Markdown for a page, the text itself for text. */
  body: string;
  links: PageLink[];
  /** Bytes read (at most the cap). */
  bytes: number;
  charset: string;
  contentType: string;
  /** The body went on past `maxBytes` and was cut. */
  cut: boolean;
  maxBytes: number;
}

export interface ReadOptions {
  maxBytes: number;
  lang: Lang;
  /** Stops the reading of the page into Markdown too, not only its download. */
  signal?: AbortSignal;
}

export async function readPage(response: Response, url: URL, o: ReadOptions): Promise<ReadPage> {
  const contentType = response.headers.get('content-type') ?? '';
  if (response.status >= 400) {
    await response.body?.cancel().catch(() => {});
    throw new ToolError(
      say(
        o.lang,
        `${url.href} 返回了 HTTP ${response.status} ${response.statusText}。`,
        `${url.href} answered HTTP ${response.status} ${response.statusText}.`,
      ),
      { outside: true },
    );
  }
  const declared = kindFromType(contentType);
  if (declared === 'pdf' || declared === 'binary') {
    await response.body?.cancel().catch(() => {});
    throw notAPage(o.lang, url, declared, contentType, response.headers.get('content-length'));
  }
  const { bytes, cut } = await readCapped(response.body as ReadableStream<Uint8Array> | null, o.maxBytes);
  const kind = declared ?? sniffKind(bytes);
  if (kind === 'pdf' || kind === 'binary')
    throw notAPage(o.lang, url, kind, contentType || 'unknown', String(bytes.byteLength));
  const decoded = await decodePage(bytes, contentType);
  const base = {
    url: url.href,
    bytes: bytes.byteLength,
    charset: decoded.charset,
    contentType: contentType.split(';')[0]!.trim() || kind,
    cut,
    maxBytes: o.maxBytes,
  };
  if (kind === 'text') {
    const name = decodeURIComponent(url.pathname.split('/').pop() || url.host);
    return { ...base, title: name, body: decoded.text.replace(/\r\n?/g, '\n'), links: [] };
  }
  const { extractBounded } = await import('./extract-bounded.js');
  const page = await extractBounded(decoded.text, url.href, { signal: o.signal });
  return {
    ...base,
    title: page.title,
    ...(page.byline ? { byline: page.byline } : {}),
    ...(page.siteName ? { siteName: page.siteName } : {}),
    body: page.degraded ? `${degradedNote(o.lang, page.degraded)}\n\n${page.markdown}` : page.markdown,
    links: page.links,
  };
}

/** Said before a page read as plain text, so that the model knows why it has no headings or links. */
function degradedNote(lang: Lang, why: Degraded): string {
  if (why === 'time')
    return say(
      lang,
      '（这个网页太复杂，20 秒内无法整理成文章，下面是它的纯文本。）',
      '(This page is too complex to read as an article within 20 s; here is its plain text.)',
    );
  if (why === 'memory')
    return say(
      lang,
      '（这个网页太大，无法整理成文章，下面是它的纯文本。）',
      '(This page is too large to read as an article; here is its plain text.)',
    );
  return say(
    lang,
    '（这个网页无法整理成文章，下面是它的纯文本。）',
    '(This page could not be read as an article; here is its plain text.)',
  );
}

function notAPage(lang: Lang, url: URL, kind: 'pdf' | 'binary', contentType: string, length: string | null): ToolError {
  const size = length && /^\d+$/.test(length) ? say(lang, `，${length} 字节`, `, ${length} bytes`) : '';
  if (kind === 'pdf') {
    return new ToolError(
      say(
        lang,
        `${url.href} 是 PDF 文档（${contentType}${size}），web_fetch 只读取网页和文本。要读 PDF，请让用户把它下载到工作区，再用 pdf_read 读取。`,
        `${url.href} is a PDF document (${contentType}${size}); web_fetch reads web pages and text only. To read it, have the user download it into the workspace and use pdf_read.`,
      ),
      { outside: true },
    );
  }
  return new ToolError(
    say(
      lang,
      `${url.href} 不是网页或文本，而是二进制内容（${contentType}${size}），web_fetch 无法读取。`,
      `${url.href} is not a web page or text but binary content (${contentType}${size}); web_fetch cannot read it.`,
    ),
    { outside: true },
  );
}
