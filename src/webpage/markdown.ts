/**
 * HTML (a DOM element) to Markdown with turndown and the GFM plugin: ATX headings, fenced code,
 * tables as pipe tables, links kept as Markdown links. Images keep their alt text and address;
 * inline `data:` images and `javascript:` links, which are bytes and code rather than content, do not.
 */
import type TurndownService from 'turndown';

/** An `![alt](src)` longer than this is an inline image's bytes, not an address worth reading. */
const MAX_IMAGE_SRC_CHARS = 2_000;

/** One service per conversion: no state is shared between calls, and building it is cheap next to converting a page. */
async function createService(): Promise<TurndownService> {
  const [{ default: Turndown }, { gfm }] = await Promise.all([
    import('turndown'),
    import('@joplin/turndown-plugin-gfm'),
  ]);
  const service = new Turndown({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '*',
  });
  service.use(gfm);
  service.remove(['script', 'style', 'noscript', 'template'] as never);
  service.addRule('images', {
    filter: 'img',
    replacement(_content, node) {
      const el = node as unknown as { getAttribute(n: string): string | null };
      const alt = (el.getAttribute('alt') ?? '').replace(/\s+/g, ' ').trim();
      const src = el.getAttribute('src') ?? '';
      if (!src || src.startsWith('data:') || src.length > MAX_IMAGE_SRC_CHARS || !/^https?:/i.test(src))
        return alt ? `[${alt}]` : '';
      return `![${alt.replace(/[[\]]/g, '')}](${src.replace(/[()\s]/g, (c) => encodeURIComponent(c))})`;
    },
  });
  service.addRule('unsafeLinks', {
    filter: (node) =>
      node.nodeName === 'A' &&
      /^\s*(javascript|data|vbscript):/i.test(
        (node as unknown as { getAttribute(n: string): string | null }).getAttribute('href') ?? '',
      ),
    replacement: (content) => content,
  });
  return service;
}

/** Markdown of a DOM element (jsdom's, or any DOM turndown can walk). */
export async function toMarkdown(root: unknown): Promise<string> {
  const service = await createService();
  return service
    .turndown(root as TurndownService.Node)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
