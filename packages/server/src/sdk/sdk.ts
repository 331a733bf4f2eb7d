import type { FastifyInstance } from 'fastify';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { notFound } from '../errors.ts';
import type { Feature } from '../feature.ts';

/**
 * The SDK as one ES module (packages/client/dist/browser, built by `npm install` with the
 * client's scripts/bundle.mjs), so a page with no build step can
 * `import { createClient } from 'http://localhost:8700/sdk/svc.js'`. Cross-origin pages may load it:
 * module scripts are fetched with CORS, and every answer carries `Access-Control-Allow-Origin: *`
 * (http/cors.ts).
 */
const BUNDLE = fileURLToPath(new URL('../../../client/dist/browser/', import.meta.url));
/** The SDK's version (packages/client/package.json): `/sdk/svc@<version>.js` never changes, so it is cached for good. */
const VERSION = (JSON.parse(readFileSync(fileURLToPath(new URL('../../../client/package.json', import.meta.url)), 'utf8')) as { version: string }).version;

/** One file, read once at start, with the strong ETag of its bytes. */
interface Asset {
  body: Buffer;
  etag: string;
  type: string;
}

function load(dir: string, name: string, type: string): Asset | undefined {
  const path = dir + name;
  if (!existsSync(path)) return undefined;
  const body = readFileSync(path);
  return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`, type };
}

/** Whether an If-None-Match header names this ETag (or is `*`). */
const matches = (header: string | undefined, etag: string): boolean => header?.split(',').some((t) => ['*', etag, `W/${etag}`].includes(t.trim())) ?? false;

export function createSdk(deps: { dir?: string } = {}): Feature {
  const dir = deps.dir ?? BUNDLE;
  const files = new Map<string, Asset | undefined>([
    ['svc.js', load(dir, 'svc.js', 'text/javascript; charset=utf-8')],
    ['svc.js.map', load(dir, 'svc.js.map', 'application/json; charset=utf-8')],
  ]);
  return {
    routes(app: FastifyInstance) {
      const routes: Array<[string, Asset | undefined, string]> = [
        // Cacheable, and checked again on each use: a server upgraded under a page serves the new SDK
        // at once, and an unchanged one costs a 304.
        ...[...files].map(([name, asset]): [string, Asset | undefined, string] => [`/sdk/${name}`, asset, 'public, no-cache']),
        // The versioned URL: a page that pins it is never served another SDK, so browsers keep it.
        [`/sdk/svc@${VERSION}.js`, files.get('svc.js'), 'public, max-age=31536000, immutable'],
      ];
      for (const [path, asset, cacheControl] of routes) {
        app.get(path, { schema: { hide: true } }, async (request, reply) => {
          if (!asset) throw notFound('The SDK bundle is not built: run `npm run build -w @svc/client` (it writes packages/client/dist/browser/)');
          reply.header('etag', asset.etag).header('cache-control', cacheControl).header('x-content-type-options', 'nosniff');
          if (matches(request.headers['if-none-match'], asset.etag)) return reply.code(304).send();
          return reply.type(asset.type).send(asset.body);
        });
      }
    },
  };
}
