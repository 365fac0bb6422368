/**
 * Model output to HTML that is safe to show. markdown-it escapes any raw HTML the model writes,
 * and DOMPurify then checks what markdown-it made, so neither a bug there nor a crafted link can run
 * script. Links open in a new tab with no referrer and only for http(s) and mailto; remote images
 * are replaced by a button and load only when the user asks (an image URL can carry what the page
 * says back to its owner).
 */
import DOMPurify from 'dompurify';
import MarkdownIt, { type RendererRule } from 'markdown-it';
import { highlight } from './highlight';

const md = new MarkdownIt({
  html: false,
  linkify: true,
  breaks: true,
  highlight: (code, lang) => highlight(code, lang),
});

const SAFE_LINK = /^(https?:|mailto:|#)/i;
const DATA_IMAGE = /^data:image\/(png|jpe?g|gif|webp);/i;

let copyLabel = 'Copy';

// Code blocks get a bar with their language and a copy button; the click is handled by the view.
const fence: RendererRule = (tokens, idx, options) => {
  const token = tokens[idx]!;
  const lang = token.info.trim().split(/\s+/)[0] ?? '';
  const body = options.highlight?.(token.content, lang, '') || md.utils.escapeHtml(token.content);
  const label = md.utils.escapeHtml(lang || 'text');
  return `<div class="code-block"><div class="code-bar"><span>${label}</span><button type="button" class="copy-code" data-copy>${md.utils.escapeHtml(copyLabel)}</button></div><pre><code class="hljs">${body}</code></pre></div>`;
};

const image: RendererRule = (tokens, idx) => {
  const token = tokens[idx]!;
  const src = String(token.attrGet('src') ?? '');
  const alt = md.utils.escapeHtml(token.content || String(token.attrGet('alt') ?? ''));
  if (DATA_IMAGE.test(src)) return `<img src="${md.utils.escapeHtml(src)}" alt="${alt}">`;
  if (!/^https?:/i.test(src)) return alt;
  return `<button type="button" class="remote-image" data-src="${md.utils.escapeHtml(src)}" data-alt="${alt}">🖼 <span>${alt || src}</span></button>`;
};

md.renderer.rules.fence = fence;
md.renderer.rules.image = image;

let hooked = false;
function hook(): void {
  if (hooked) return;
  hooked = true;
  DOMPurify.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A') {
      const href = node.getAttribute('href') ?? '';
      if (!SAFE_LINK.test(href)) node.removeAttribute('href');
      else if (!href.startsWith('#')) {
        node.setAttribute('target', '_blank');
        node.setAttribute('rel', 'noopener noreferrer nofollow');
      }
    }
    if (node.tagName === 'IMG' && !DATA_IMAGE.test(node.getAttribute('src') ?? '')) node.removeAttribute('src');
    if (
      node.tagName === 'BUTTON' &&
      node.hasAttribute('data-src') &&
      !/^https?:/i.test(node.getAttribute('data-src') ?? '')
    )
      node.removeAttribute('data-src');
  });
}

const PURIFY = {
  ALLOWED_TAGS: [
    'a',
    'b',
    'blockquote',
    'br',
    'button',
    'code',
    'del',
    'div',
    'em',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'hr',
    'i',
    'img',
    'li',
    'ol',
    'p',
    'pre',
    's',
    'span',
    'strong',
    'sub',
    'sup',
    'table',
    'tbody',
    'td',
    'th',
    'thead',
    'tr',
    'ul',
  ],
  ALLOWED_ATTR: [
    'href',
    'title',
    'alt',
    'src',
    'class',
    'type',
    'data-copy',
    'data-src',
    'data-alt',
    'target',
    'rel',
    'start',
  ],
  ALLOW_DATA_ATTR: false,
};

/** Markdown to sanitised HTML; `copy` labels the code blocks' copy buttons. */
export function renderMarkdown(text: string, copy = 'Copy'): string {
  hook();
  copyLabel = copy;
  return DOMPurify.sanitize(md.render(text), PURIFY) as string;
}

/** Handles clicks inside rendered Markdown: copy a code block, load an image the user asked for. */
export function onMarkdownClick(event: MouseEvent, labels: { copied: string; copy: string }): void {
  const target = event.target as HTMLElement;
  const copy = target.closest<HTMLButtonElement>('button[data-copy]');
  if (copy) {
    const code = copy.closest('.code-block')?.querySelector('code')?.textContent ?? '';
    void navigator.clipboard?.writeText(code).then(
      () => {
        copy.textContent = labels.copied;
        setTimeout(() => (copy.textContent = labels.copy), 1500);
      },
      () => {},
    );
    return;
  }
  const remote = target.closest<HTMLButtonElement>('button.remote-image[data-src]');
  if (remote) {
    const img = document.createElement('img');
    img.src = remote.dataset.src!;
    img.alt = remote.dataset.alt ?? '';
    img.referrerPolicy = 'no-referrer';
    remote.replaceWith(img);
  }
}
