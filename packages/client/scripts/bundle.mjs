// The SDK as one ES module for browsers with no build step: every server serves it at /sdk/svc.js
// (packages/server/src/sdk), so a plain HTML page can `import { createClient } from
// 'http://localhost:8700/sdk/svc.js'`. esbuild is already in the tree (tsx and Vite use it); the
// map carries the sources, so the browser's debugger shows the TypeScript.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));

await build({
  entryPoints: [here('../src/index.ts')],
  outfile: here('../dist/browser/svc.js'),
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  // Node 20's fallback (src/websocket.ts); esbuild would otherwise follow the constant specifier
  // into ws's browser stub. A browser has its own WebSocket and never reaches that import.
  external: ['ws'],
  minify: true,
  // Error and class names stay readable in a console (SvcError, not `t`).
  keepNames: true,
  sourcemap: 'linked',
  sourcesContent: true,
  legalComments: 'none',
  logLevel: 'warning',
});
