import { fileURLToPath } from 'node:url';
import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// The web app is built into dist/web, which `zhixing serve` serves. In development, `vite --config
// web/vite.config.ts` proxies /api to a running server on 4317; the proxy drops Origin so the
// server's same-origin guard sees a request of its own.
export default defineConfig({
  root: here('.'),
  base: '/',
  plugins: [vue()],
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
