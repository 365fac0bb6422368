import { describe, expect, it } from 'vitest';
import { extractPage, stripInert } from './extract.js';

describe('stripInert', () => {
  it('drops scripts, styles and comments but keeps JSON-LD and the text', () => {
    const html =
      '<head><script src="a.js"></script><SCRIPT>if (a < b) x("</div>")</SCRIPT><script type="application/ld+json">{"author":"A"}</script><style>p{}</style></head><body><!-- note --><p>Text</p></body>';
    expect(stripInert(html)).toBe(
      '<head><script type="application/ld+json">{"author":"A"}</script></head><body><p>Text</p></body>',
    );
  });

  it('leaves an unclosed comment to the parser, in linear time', () => {
    expect(stripInert('<p>a</p><!-- open')).toBe('<p>a</p><!-- open');
    const evil = '<!--'.repeat(200_000);
    const t0 = performance.now();
    stripInert(evil);
    stripInert('<script>'.repeat(200_000));
    expect(performance.now() - t0).toBeLessThan(2_000);
  });
});

describe('extractPage', () => {
  it('keeps links absolute and drops javascript: links and inline images', async () => {
    const page = await extractPage(
      '<html><head><title>T</title></head><body><article><h1>T</h1><p>' +
        'Words in a sentence that goes on. '.repeat(20) +
        '<a href="/rel">relative</a> <a href="javascript:alert(1)">bad</a> <img alt="dot" src="data:image/png;base64,AAAA"></p></article></body></html>',
      'https://example.com/dir/page',
    );
    expect(page.markdown).toContain('[relative](https://example.com/rel)');
    expect(page.markdown).not.toContain('javascript:');
    expect(page.markdown).not.toContain('data:image');
    expect(page.links).toEqual([{ text: 'relative', href: 'https://example.com/rel' }]);
  });
});
