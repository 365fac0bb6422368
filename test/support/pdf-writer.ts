/**
 * Writes small, valid PDFs for tests: pages of text lines in Helvetica (Latin-1 only), optionally
 * at given positions, a page with only an image (what a scanner makes), or an encrypted document
 * whose password nobody knows. Real files that pdf.js parses, not byte strings that look like one.
 */
import { writeFileSync } from 'node:fs';

/** A line at a position (PDF points from the bottom left), for layouts such as columns and tables. */
export interface PlacedText {
  text: string;
  x: number;
  y: number;
  size?: number;
}

export interface PdfPage {
  /** Plain lines, top to bottom from the top margin; or placed text. */
  lines?: string[];
  placed?: PlacedText[];
  /** Draw a grey image over the page instead of (or beside) text. */
  image?: boolean;
}

export interface PdfOptions {
  title?: string;
  /** Adds an /Encrypt dictionary (RC4, 40-bit) with an unknown user password: readers must ask for it. */
  encrypted?: boolean;
  width?: number;
  height?: number;
}

const LINE_SIZE = 12;
const LEADING = 16;
const MARGIN = 72;

/** `(text)` with the characters PDF strings reserve escaped. */
const pdfString = (s: string): string => `(${s.replace(/[\\()]/g, (c) => `\\${c}`).replace(/[\r\n]/g, ' ')})`;

/** The PDF's bytes. Pages may be given as arrays of lines for the plain case. */
export function makePdf(pages: Array<PdfPage | string[]>, options: PdfOptions = {}): Buffer {
  const width = options.width ?? 612;
  const height = options.height ?? 792;
  const objects: string[] = [];
  const add = (body: string): number => objects.push(body);
  const catalog = add('');
  const pagesObj = add('');
  const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const image = add(
    '<< /Type /XObject /Subtype /Image /Width 2 /Height 2 /ColorSpace /DeviceGray /BitsPerComponent 8 /Length 4 >>\nstream\n\x80\x40\x40\x80\nendstream',
  );
  const kids: number[] = [];
  for (const raw of pages) {
    const page: PdfPage = Array.isArray(raw) ? { lines: raw } : raw;
    const ops: string[] = [];
    if (page.image) ops.push(`q ${width - 2 * MARGIN} 0 0 ${height - 2 * MARGIN} ${MARGIN} ${MARGIN} cm /Im1 Do Q`);
    (page.lines ?? []).forEach((line, i) => {
      ops.push(`BT /F1 ${LINE_SIZE} Tf ${MARGIN} ${height - MARGIN - i * LEADING} Td ${pdfString(line)} Tj ET`);
    });
    for (const p of page.placed ?? [])
      ops.push(`BT /F1 ${p.size ?? LINE_SIZE} Tf ${p.x} ${p.y} Td ${pdfString(p.text)} Tj ET`);
    const content = ops.join('\n');
    const stream = add(`<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`);
    kids.push(
      add(
        `<< /Type /Page /Parent ${pagesObj} 0 R /MediaBox [0 0 ${width} ${height}] /Contents ${stream} 0 R /Resources << /Font << /F1 ${font} 0 R >> /XObject << /Im1 ${image} 0 R >> >> >>`,
      ),
    );
  }
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pagesObj} 0 R >>`;
  objects[pagesObj - 1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;
  const info = options.title ? add(`<< /Title ${pdfString(options.title)} /Producer (zhixing tests) >>`) : undefined;
  // O and U that match no password: the standard security handler then needs one the reader cannot give.
  const encrypt = options.encrypted
    ? add(`<< /Filter /Standard /V 1 /R 2 /Length 40 /P -44 /O <${'7a'.repeat(32)}> /U <${'3c'.repeat(32)}> >>`)
    : undefined;

  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  const id = '<00112233445566778899aabbccddeeff>';
  out += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R${info ? ` /Info ${info} 0 R` : ''}${encrypt ? ` /Encrypt ${encrypt} 0 R` : ''} /ID [${id} ${id}] >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** Writes a one-page (or more, with `\f` between pages) text PDF from lines: what an e2e case needs. */
export function writeTextPdf(file: string, lines: string[], options: PdfOptions = {}): void {
  const pages: string[][] = [[]];
  for (const line of lines) {
    if (line === '\f') pages.push([]);
    else pages.at(-1)!.push(line);
  }
  writeFileSync(file, makePdf(pages, options));
}
