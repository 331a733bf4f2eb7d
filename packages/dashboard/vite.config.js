import { defineConfig } from 'vite';

// Preact through Vite's own JSX transform (oxc): no Babel, no framework plugin to install.
export default defineConfig({
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  publicDir: false,
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', reportCompressedSize: false },
  // `npm run dev`: the API of a svc running on the default port, WebSocket included.
  server: { proxy: { '/v1': { target: 'http://localhost:8700', ws: true } } },
});
