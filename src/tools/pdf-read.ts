import { constants } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { z } from 'zod';
import { say, type Lang } from '../i18n.js';
import { checkPath, formatBytes, notFoundMessage } from './sandbox.js';
import { defineTool, type Tool } from './tool.js';
import { ToolError } from '../contract/tool-error.js';
import type { PdfReader } from '../pdf/extract.js';
import { untrusted } from '../contract/untrusted-fence.js';
import { formatPages, PageSpecError, parsePageSpec } from '../pdf/page-spec.js';

/**
 * The whole output of one call, fence, headings and notes included: the model's context takes this
 * much of a document per call; later pages come with `pages`. Kept under the registry's own cut
 * (TOOL_OUTPUT_LIMIT) so the note saying where to read on and the closing fence always arrive.
 */
export const MAX_OUTPUT_CHARS = 28_000;
/**
 * Room kept for what surrounds the pages while they are read: the fence (its source is at most 500
 * characters), the title (200), the header's list of pages and the read-on note. Page specs are at
 * most 200 characters, so these lists stay short; the final check below trims pages if they do not.
 */
const FRAME_RESERVE_CHARS = 2_000;
/** Larger files are refused before parsing: far past any document someone asks an assistant to read. */
const MAX_PDF_BYTES = 100_000_000;
/** A PDF's header may follow some junk; pdf.js looks this far, and so does the check here. */
const HEADER_SCAN_BYTES = 1_024;
/** The longest title shown; some documents put a paragraph there. */
const MAX_TITLE_CHARS = 200;
/** Titles that editors write on their own ("Microsoft Word - draft.docx", "untitled"): the first line says more. */
const PLACEHOLDER_TITLE =
  /^(?:microsoft (?:word|powerpoint|excel) - |untitled\b|无标题|document\d*$)|\.(?:docx?|pptx?|xlsx?|odt|rtf|txt|tex|dvi|pdf)$/i;
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

export const PdfReadParams = z.object({
  path: z.string().describe('Path of the PDF, relative to the workspace, e.g. "reports/annual-2021.pdf".'),
  pages: z
    .string()
    .optional()
    .describe('Which pages to read, e.g. "1-3,5" or "10-" (numbered from 1). Leave out to read from the start.'),
});
export type PdfReadParams = z.infer<typeof PdfReadParams>;

/**
 * pdf_read. The tool keeps its own reader, whose worker (with pdf.js loaded) waits a little between
 * documents: the second PDF of a conversation does not pay for loading pdf.js again.
 */
export function createPdfReadTool(): Tool {
  let reader: PdfReader | undefined;
  return defineTool({
    name: 'pdf_read',
    annotations: { readOnly: true },
    timeoutMs: 90_000,
    description:
      'Read the text of a PDF in the workspace, page by page, in reading order: two-column layouts are read column by column ' +
      'and tables come back as Markdown tables. Gives the title and page count. ' +
      `Up to ${formatBytes(MAX_OUTPUT_CHARS)} characters per call: use pages (e.g. "1-3,5") for the rest of a long document. ` +
      'Scanned PDFs without a text layer cannot be read (no OCR), nor password-protected ones.',
    parameters: PdfReadParams,
    async execute(args, ctx) {
      const located = await checkPath(ctx, 'file.read', args.path);
      const { lang } = ctx;
      const shown = located.display;
      const bytes = await readPdfBytes(located.target, shown, lang, () => notFoundMessage(lang, located));
      ctx.progress(say(lang, `正在读取 ${shown}…`, `Reading ${shown}…`));

      const { createPdfReader, PdfError } = await import('../pdf/extract.js');
      reader ??= createPdfReader();
      const { pageMarkdown } = await import('../pdf/layout.js');
      const sections: string[] = [];
      const read: number[] = [];
      let wanted: number[] = [];
      let chars = 0;
      let used = 0;
      let cutShort: number | undefined;
      let empty = 0;
      let firstLine = '';
      let info;
      try {
        info = await reader.read({
          data: bytes,
          signal: ctx.signal,
          choosePages: (i) => (wanted = parsePageSpec(args.pages, i.pageCount, lang)),
          onPage: (n, page) => {
            let text = pageMarkdown(page);
            const blank = text === '';
            if (blank) {
              text = say(
                lang,
                '（本页没有文字层：可能是扫描的图片。）',
                '(No text layer on this page: perhaps a scanned image.)',
              );
            } else if (!firstLine) {
              // The first line with words: not a page number or a table row.
              firstLine =
                text
                  .split('\n')
                  .find((l) => !l.startsWith('|') && (l.match(/\p{L}/gu)?.length ?? 0) >= 2)
                  ?.trim() ?? '';
            }
            // Whole pages only, headings counted, so "read" in the header and the read-on note are exact;
            // only a first page too long on its own is cut, and says so.
            const heading = `## ${say(lang, `第 ${n} 页`, `Page ${n}`)}\n\n`;
            const gap = sections.length > 0 ? 2 : 0;
            const room = MAX_OUTPUT_CHARS - FRAME_RESERVE_CHARS - used - gap - heading.length;
            if (text.length > room) {
              if (sections.length > 0) return false;
              text = `${text.slice(0, Math.max(0, room - 2))}\n…`;
              cutShort = n;
            }
            sections.push(`${heading}${text}`);
            used += gap + heading.length + text.length;
            chars += text.length;
            read.push(n);
            if (blank) empty++;
            return cutShort === undefined;
          },
        });
      } catch (err) {
        if (err instanceof PageSpecError) throw new ToolError(err.message);
        if (err instanceof PdfError) throw new ToolError(failureMessage(lang, shown, err.reason, err.message));
        throw err;
      }

      const pageCount = info.pageCount;
      const title = (info.title && !PLACEHOLDER_TITLE.test(info.title) ? info.title : firstLine)
        .replace(/\s+/g, ' ')
        .slice(0, MAX_TITLE_CHARS);
      const metadata = { path: shown, title, pageCount, pages: formatPages(read), chars };
      const card = {
        title: `${shown} · ${say(lang, `${pageCount} 页`, `${pageCount} page${pageCount === 1 ? '' : 's'}`)}`,
        metadata,
      };
      if (read.length > 0 && empty === read.length) {
        return {
          output: say(
            lang,
            `${shown}（共 ${pageCount} 页）所读的页（${formatPages(read)}）没有文字层：它多半是扫描件，页面只是图片。这里没有文字识别（OCR），所以读不出其中的文字。`,
            `${shown} (${pageCount} page${pageCount === 1 ? '' : 's'}) has no text layer on the pages read (${formatPages(read)}): it is most likely scanned, its pages only images. OCR is not available here, so its text cannot be read.`,
          ),
          ...card,
        };
      }
      let output = assemble(lang, shown, title, pageCount, sections, read, wanted, cutShort);
      // The reserve covers the frame in practice; should it not, whole pages go until the output fits.
      while (output.length > MAX_OUTPUT_CHARS && sections.length > 1) {
        const dropped = sections.pop()!;
        read.pop();
        chars -= dropped.length - dropped.indexOf('\n\n') - 2;
        output = assemble(lang, shown, title, pageCount, sections, read, wanted, cutShort);
      }
      metadata.pages = formatPages(read);
      metadata.chars = chars;
      return { output, ...card };
    },
  });
}

/** The fenced pages with their header, and after the fence, which pages are left and how to read them. */
function assemble(
  lang: Lang,
  shown: string,
  title: string,
  pageCount: number,
  sections: string[],
  read: number[],
  wanted: number[],
  cutShort: number | undefined,
): string {
  const header = [
    title ? `# ${title}` : '',
    say(
      lang,
      `共 ${pageCount} 页，本次读了：${formatPages(read)}`,
      `${pageCount} page${pageCount === 1 ? '' : 's'}; read: ${formatPages(read)}`,
    ),
  ]
    .filter(Boolean)
    .join('\n');
  let output = untrusted(shown, `${header}\n\n${sections.join('\n\n')}`, 'PDF document');
  const limit = formatBytes(MAX_OUTPUT_CHARS);
  if (cutShort !== undefined) {
    output +=
      '\n' +
      say(
        lang,
        `（第 ${cutShort} 页本身超过了每次 ${limit} 个字符的上限，只给出了开头部分。）`,
        `(Page ${cutShort} alone is over the ${limit}-character limit per call; only its beginning is given.)`,
      );
  }
  const done = new Set(read);
  const rest = wanted.filter((n) => !done.has(n));
  if (rest.length > 0) {
    const spec = formatPages(rest).replace(/ /g, '');
    output +=
      '\n' +
      say(
        lang,
        `（已达到每次 ${limit} 个字符的上限，第 ${formatPages(rest)} 页未读。要继续，请用 pages: "${spec}" 再调用 pdf_read。）`,
        `(Stopped at the ${limit}-character limit; pages ${formatPages(rest)} were not read. To go on, call pdf_read with pages: "${spec}".)`,
      );
  }
  return output;
}

/** The file's bytes, after the checks that need no parser: a regular file, not empty, not huge, a PDF header. */
async function readPdfBytes(
  target: string,
  shown: string,
  lang: Lang,
  notFound: () => Promise<string>,
): Promise<Uint8Array> {
  let bytes: Buffer;
  try {
    const info = await stat(target);
    if (info.isDirectory())
      throw new ToolError(say(lang, `${shown} 是一个文件夹，不是 PDF 文件。`, `${shown} is a folder, not a PDF file.`));
    if (!info.isFile())
      throw new ToolError(
        say(lang, `${shown} 不是普通文件，无法读取。`, `${shown} is not a regular file and cannot be read.`),
      );
    if (info.size > MAX_PDF_BYTES) {
      throw new ToolError(
        say(
          lang,
          `${shown} 有 ${formatBytes(info.size)} 字节，超过了 ${formatBytes(MAX_PDF_BYTES)} 字节的上限，未读取。`,
          `${shown} is ${formatBytes(info.size)} bytes, over the ${formatBytes(MAX_PDF_BYTES)}-byte limit; it was not read.`,
        ),
      );
    }
    const handle = await open(target, OPEN_FLAGS);
    try {
      bytes = await handle.readFile();
    } finally {
      await handle.close();
    }
  } catch (err) {
    if (err instanceof ToolError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP')
      throw new ToolError(await notFound(), { outside: true });
    throw new ToolError(say(lang, `无法读取 ${shown}（${code}）。`, `Cannot read ${shown} (${code}).`));
  }
  if (bytes.length === 0)
    throw new ToolError(say(lang, `${shown} 是空文件，不是 PDF。`, `${shown} is empty, not a PDF.`));
  if (!bytes.subarray(0, HEADER_SCAN_BYTES).toString('latin1').includes('%PDF-')) {
    throw new ToolError(
      say(
        lang,
        `${shown} 不是 PDF 文件（开头没有 %PDF- 标记）。文本文件请用 file_read。`,
        `${shown} is not a PDF file (it does not start with the %PDF- marker). For a text file use file_read.`,
      ),
    );
  }
  return bytes;
}

function failureMessage(lang: Lang, shown: string, reason: string, detail: string): string {
  switch (reason) {
    case 'password':
      return say(
        lang,
        `${shown} 有密码保护（已加密），无法读取。这里不能输入密码；如需阅读，请用户提供一份未加密的副本。`,
        `${shown} is password-protected (encrypted), so it cannot be read. No password can be entered here; an unprotected copy would be needed.`,
      );
    case 'invalid':
      return say(
        lang,
        `${shown} 已损坏或不完整（可能只下载了一部分），无法作为 PDF 读取。`,
        `${shown} is damaged or incomplete (perhaps only partly downloaded) and cannot be read as a PDF.`,
      );
    case 'timeout':
      return say(
        lang,
        `读取 ${shown} 超时，已停止。可以试着只读几页（pages，例如 "1-3"）。`,
        `Reading ${shown} took too long and was stopped. Try reading fewer pages (pages, e.g. "1-3").`,
      );
    case 'memory':
      return say(
        lang,
        `${shown} 需要的内存超过了上限，已停止读取。可以试着只读几页（pages，例如 "1-3"）。`,
        `${shown} needed more memory than allowed, so reading it was stopped. Try reading fewer pages (pages, e.g. "1-3").`,
      );
    case 'aborted':
      return say(lang, `读取 ${shown} 被中止了。`, `Reading ${shown} was stopped.`);
    default:
      return say(lang, `无法读取 ${shown}：${detail}`, `Cannot read ${shown}: ${detail}`);
  }
}
