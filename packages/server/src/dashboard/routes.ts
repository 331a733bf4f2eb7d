import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const DASHBOARD = fileURLToPath(new URL('../../../dashboard/', import.meta.url));
const DIST = join(DASHBOARD, 'dist');
const PLACEHOLDER = join(DASHBOARD, 'placeholder.html');

/** Whether a request is a browser navigation (it wants HTML), not an API client or an asset fetch. */
const wantsHtml = (request: FastifyRequest): boolean => (request.headers.accept ?? '').includes('text/html');

/** A file under `root` named by a URL path, or undefined (never escapes the folder). */
function fileUnder(root: string, urlPath: string): string | undefined {
  let rel: string;
  try {
    rel = normalize(decodeURIComponent(urlPath)).replace(/^([/\\])+/, '');
  } catch {
    return undefined;
  }
  if (rel.includes('\0') || rel.split(sep).includes('..')) return undefined;
  const full = join(root, rel);
  return existsSync(full) && statSync(full).isFile() ? rel : undefined;
}

/**
 * Serves the dashboard (packages/dashboard/dist, built by `npm install`) at `/`: its files, and
 * index.html for any other page a browser navigates to, so deep links work (SPA fallback). Paths
 * under /v1, and requests that don't ask for HTML, keep the JSON 404. Without a build, `/`
 * answers a page saying how to build it.
 */
export function dashboardRoutes(app: FastifyInstance, opts: { dist?: string } = {}): void {
  const dist = opts.dist ?? DIST;
  if (!existsSync(join(dist, 'index.html'))) {
    const html = readFileSync(PLACEHOLDER, 'utf8');
    app.get('/', { schema: { hide: true } }, async (_request, reply) => reply.type('text/html; charset=utf-8').send(html));
    return;
  }
  app.register(fastifyStatic, { root: dist, serve: false });

  const sendIndex = (reply: FastifyReply) => reply.header('cache-control', 'no-cache').sendFile('index.html', { cacheControl: false });
  app.get('/', { schema: { hide: true } }, async (_request, reply) => sendIndex(reply));
  app.get('/*', { schema: { hide: true } }, async (request, reply) => {
    const path = request.url.split('?')[0];
    if (path === '/v1' || path.startsWith('/v1/')) return reply.callNotFound();
    const file = fileUnder(dist, path);
    // Vite names assets by content hash: they never change, so browsers may keep them for good.
    if (file && file !== 'index.html') return reply.sendFile(file, file.startsWith('assets') ? { maxAge: '365d', immutable: true } : {});
    if (!wantsHtml(request) || extname(path)) return reply.callNotFound();
    return sendIndex(reply);
  });
}
