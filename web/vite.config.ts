import { cpSync, readFile, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import vue from '@vitejs/plugin-vue';
import { defineConfig, type Plugin } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * pdf.js's character maps and standard fonts, served at /assets/pdfjs-<version>/ (web/src/lib/pdf.ts
 * asks there): a PDF whose fonts are not embedded (Chinese ones often are not) cannot draw its text
 * without them. Fetched only by such a PDF. The version in the path keeps the assets' long caching right.
 */
function pdfjsData(): Plugin {
  const packageJson = createRequire(import.meta.url).resolve('pdfjs-dist/package.json');
  const from = dirname(packageJson);
  const at = `assets/pdfjs-${(JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string }).version}`;
  const dirs = ['cmaps', 'standard_fonts'];
  return {
    name: 'zhixing-pdfjs-data',
    configureServer(server) {
      server.middlewares.use(`/${at}`, (req, res, next) => {
        const file = normalize(join(from, (req.url ?? '').split('?')[0]!));
        if (!dirs.some((d) => file.startsWith(join(from, d) + sep))) return next();
        readFile(file, (err, body) => (err ? next() : res.end(body)));
      });
    },
    writeBundle(options) {
      for (const d of dirs) cpSync(join(from, d), join(options.dir!, at, d), { recursive: true });
    },
  };
}

// The web app is built into dist/web, which `zhixing serve` serves. In development, `vite --config
// web/vite.config.ts` proxies /api to a running server on 4317; the proxy drops Origin so the
// server's same-origin guard sees a request of its own.
export default defineConfig({
  root: here('.'),
  base: '/',
  plugins: [vue(), pdfjsData()],
  build: {
    outDir: here('../dist/web'),
    emptyOutDir: true,
    target: 'es2022',
    // The first load stays small: PDF preview and the less common code languages load on demand.
    chunkSizeWarningLimit: 600,
    reportCompressedSize: false,
  },
  server: {
    proxy: {
      '/api': {
        target: 'http://127.0.0.1:4317',
        changeOrigin: true,
        configure: (proxy) => proxy.on('proxyReq', (req) => req.removeHeader('origin')),
      },
    },
  },
});
