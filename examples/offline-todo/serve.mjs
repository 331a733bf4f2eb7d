// Serves the offline to-do page, the built SDK and its dependencies, and passes /v1 through to svc, so
// the page and the API share an origin. Usage (from the repository root, after `npm run build`):
//   SVC_URL=http://localhost:8700 node examples/offline-todo/serve.mjs
// then open http://localhost:8080/?key=<a public key of a database whose rules let it use "todos">.
import http from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const SVC_URL = process.env.SVC_URL ?? 'http://localhost:8700';
const PORT = Number(process.env.PORT ?? 8080);
const ROOTS = {
  '/sdk/': here('../../packages/client/dist/'),
  '/filter/': here('../../packages/filter/dist/'),
  '/idb/': here('../../node_modules/idb/build/'),
  '/': here('./'),
};
const TYPES = { '.js': 'text/javascript', '.mjs': 'text/javascript', '.html': 'text/html', '.map': 'application/json' };

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  if (url.pathname.startsWith('/v1/')) {
    const upstream = http.request(SVC_URL + req.url, { method: req.method, headers: { ...req.headers, host: new URL(SVC_URL).host } }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    return req.pipe(upstream);
  }
  const prefix = Object.keys(ROOTS).find((p) => url.pathname.startsWith(p));
  const rest = url.pathname.slice(prefix.length) || 'index.html';
  const file = normalize(join(ROOTS[prefix], rest));
  if (!file.startsWith(ROOTS[prefix]) || !existsSync(file) || file.endsWith('serve.mjs')) return res.writeHead(404).end();
  res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
});
server.listen(PORT, () => console.log(`offline to-do on http://localhost:${PORT}/ (API: ${SVC_URL})`));
