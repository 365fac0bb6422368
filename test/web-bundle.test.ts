import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

/** The web app as built (test/global-setup.ts builds it before the suite). */
const WEB = join(import.meta.dirname, '..', 'dist', 'web');
const BUDGET_BYTES = 250 * 1024;

/** Every script the first page load fetches: the entry, what it preloads, and what those import statically. */
function firstLoadScripts(): string[] {
  const html = readFileSync(join(WEB, 'index.html'), 'utf8');
  const queue = [...html.matchAll(/<(?:script[^>]+src|link[^>]+rel="modulepreload"[^>]+href)="\/([^"]+\.m?js)"/g)].map(
    (m) => m[1]!,
  );
  const seen = new Set<string>();
  while (queue.length) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(join(WEB, file), 'utf8');
    // Static imports between chunks (`import … from "./x.js"`), not dynamic `import("./x.js")`.
    for (const m of code.matchAll(/(?:^|[;}\n])\s*import\s*(?:[\w*{}\s,$]+from\s*)?["']\.\/([^"']+\.m?js)["']/g))
      queue.push(`assets/${m[1]}`);
  }
  return [...seen];
}

describe('the web app build', () => {
  it('loads under 250 KB of JavaScript, gzipped, on first load; PDF preview loads only when used', () => {
    const files = firstLoadScripts();
    expect(files.length).toBeGreaterThan(0);
    const total = files.reduce((sum, f) => sum + gzipSync(readFileSync(join(WEB, f)), { level: 9 }).length, 0);
    expect(total, `first load: ${files.join(', ')} = ${total} bytes gzipped`).toBeLessThan(BUDGET_BYTES);
    expect(files.some((f) => /pdf/i.test(f))).toBe(false);
  });

  it('runs under the strict CSP: no inline script in the page', () => {
    const html = readFileSync(join(WEB, 'index.html'), 'utf8');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/\son\w+=/i);
  });
});
