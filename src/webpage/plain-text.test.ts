import { describe, expect, it } from 'vitest';
import { plainText } from './plain-text.js';

describe('plainText', () => {
  it('gives the title and a line per block, without scripts, styles, head or tags', () => {
    const html =
      '<html><head><title> A &amp; B </title><style>p{}</style></head><body><script>x()</script><h1>Head</h1><p>One <b>bold</b>&nbsp;word</p><ul><li>a</li><li>b&#x4e2d;&#25991;</li></ul>x<br>y</body></html>';
    expect(plainText(html)).toEqual({ title: 'A & B', text: 'Head\nOne bold word\na\nb中文\nx\ny' });
  });
  it('leaves unknown and out-of-range entities as they are, and costs linear time on a huge page', () => {
    expect(plainText('<p>&bogus; &#xD800; &#1114112;</p>').text).toBe('&bogus; &#xD800; &#1114112;');
    const t0 = performance.now();
    plainText('<div>'.repeat(200_000) + 'x' + '<p>'.repeat(200_000));
    plainText(`<p>a</p>${'<'.repeat(300_000)}`);
    plainText('<head>'.repeat(100_000));
    expect(performance.now() - t0).toBeLessThan(2_000);
    expect(plainText('<p>a</p><b c').text).toBe('a\n<b c');
  });
});
