import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const DASHBOARD = fileURLToPath(new URL('../../../dashboard/', import.meta.url));
const DIST = join(DASHBOARD, 'dist');
const PLACEHOLDER = join(DASHBOARD, 'placeholder.html');

/**
 * The Content-Security-Policy of the built dashboard: a Vite build loads only its own script and
 * style files (no inline code), talks to the API on its own origin and opens the realtime WebSocket
 * at PUBLIC_URL (which may name another host than the one the browser used). Nothing may frame
 * it (clickjacking of an operator session).
 */
function dashboardPolicy(publicUrl: string | undefined): string {
  const connect = ["'self'"];
  if (publicUrl) {
    const u = new URL(publicUrl);
    connect.push(u.origin, `${u.protocol === 'https:' ? 'wss' : 'ws'}://${u.host}`);
  }
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    `connect-src ${connect.join(' ')}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The placeholder page has one inline style and no script. */
const PLACEHOLDER_POLICY = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** API.md §7: the headers of every dashboard answer: no framing, no MIME sniffing, a CSP. */
function securityHeaders(policy: string): Record<string, string> {
  return { 'content-security-policy': policy, 'x-frame-options': 'DENY', 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' };
}

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
 * answers a page saying how to build it. Every dashboard answer carries the §7 security headers.
 */
export function dashboardRoutes(app: FastifyInstance, opts: { dist?: string; publicUrl?: string } = {}): void {
  const dist = opts.dist ?? DIST;
  if (!existsSync(join(dist, 'index.html'))) {
    const html = readFileSync(PLACEHOLDER, 'utf8');
    const headers = securityHeaders(PLACEHOLDER_POLICY);
    app.get('/', { schema: { hide: true } }, async (_request, reply) => reply.headers(headers).type('text/html; charset=utf-8').send(html));
    return;
  }
  app.register(fastifyStatic, { root: dist, serve: false });

  const headers = securityHeaders(dashboardPolicy(opts.publicUrl));
  const sendIndex = (reply: FastifyReply) => reply.headers(headers).header('cache-control', 'no-cache').sendFile('index.html', { cacheControl: false });
  app.get('/', { schema: { hide: true } }, async (_request, reply) => sendIndex(reply));
  app.get('/*', { schema: { hide: true } }, async (request, reply) => {
    const path = request.url.split('?')[0];
    if (path === '/v1' || path.startsWith('/v1/')) return reply.callNotFound();
    const file = fileUnder(dist, path);
    // Vite names assets by content hash: they never change, so browsers may keep them for good.
    if (file && file !== 'index.html') return reply.headers(headers).sendFile(file, file.startsWith('assets') ? { maxAge: '365d', immutable: true } : {});
    if (!wantsHtml(request) || extname(path)) return reply.callNotFound();
    return sendIndex(reply);
  });
}
