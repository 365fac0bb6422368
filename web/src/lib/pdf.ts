/**
 * PDF preview with pdf.js, loaded only when a PDF is opened (it is larger than the rest of the app).
 * The first pages are drawn onto canvases; the text stays in the file.
 */
import { AnnotationMode, getDocument, GlobalWorkerOptions, version } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

GlobalWorkerOptions.workerSrc = workerUrl;

/** The document, with font code never evaluated and the CMaps and standard fonts from our own assets. */
function openPdf(bytes: ArrayBuffer) {
  return getDocument({
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    // Copied there by web/vite.config.ts: for fonts the PDF names but does not hold.
    cMapUrl: `/assets/pdfjs-${version}/cmaps/`,
    cMapPacked: true,
    standardFontDataUrl: `/assets/pdfjs-${version}/standard_fonts/`,
  }).promise;
}

export async function renderPdf(bytes: ArrayBuffer, into: HTMLElement, maxPages: number): Promise<number> {
  const doc = await openPdf(bytes);
  const count = Math.min(doc.numPages, maxPages);
  const width = Math.max(into.clientWidth, 300);
  for (let n = 1; n <= count; n++) {
    const page = await doc.getPage(n);
    const base = page.getViewport({ scale: 1 });
    const scale = (width / base.width) * (window.devicePixelRatio || 1);
    const viewport = page.getViewport({ scale });
    const canvas = document.createElement('canvas');
    canvas.width = Math.floor(viewport.width);
    canvas.height = Math.floor(viewport.height);
    canvas.className = 'pdf-page';
    canvas.setAttribute('aria-label', `Page ${n}`);
    into.appendChild(canvas);
    // Forms show as filled in; other annotations (link targets, alt text) are not drawn over the page.
    await page.render({ canvas, viewport, annotationMode: AnnotationMode.ENABLE_FORMS }).promise;
  }
  into.dataset.pages = String(doc.numPages);
  return doc.numPages;
}

/**
 * Small pictures of the given pages (1-based), each `width` CSS pixels wide: what a pdf_read card shows
 * of the pages it read. Pages the document does not have are skipped.
 */
export async function renderThumbnails(
  bytes: ArrayBuffer,
  pages: number[],
  into: HTMLElement,
  width: number,
): Promise<number> {
  const doc = await openPdf(bytes);
  try {
    for (const n of pages.filter((p) => p >= 1 && p <= doc.numPages)) {
      const page = await doc.getPage(n);
      const base = page.getViewport({ scale: 1 });
      const viewport = page.getViewport({ scale: (width / base.width) * (window.devicePixelRatio || 1) });
      const canvas = document.createElement('canvas');
      canvas.width = Math.floor(viewport.width);
      canvas.height = Math.floor(viewport.height);
      canvas.style.width = `${width}px`;
      canvas.className = 'pdf-thumb';
      canvas.dataset.page = String(n);
      into.appendChild(canvas);
      await page.render({ canvas, viewport, annotationMode: AnnotationMode.ENABLE_FORMS }).promise;
    }
    return doc.numPages;
  } finally {
    await doc.destroy();
  }
}
