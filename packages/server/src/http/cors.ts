import type { FastifyInstance } from 'fastify';

/**
 * Browsers call the API from their own origins with a public key in a header (no cookies), so any
 * origin may: the key, not the origin, is the credential. Every answer carries the same two
 * headers, and any OPTIONS request is a preflight answered 204 before authentication (a
 * preflight carries no credentials).
 *
 * Hand-written rather than @fastify/cors, which answered exactly this (origin '*',
 * strictPreflight off) but rebuilt its options object, joined the header lists and made a
 * closure on every request: with one fixed policy the headers are constants.
 */
// API.md §0 (third version): what scripts may read, and the request headers they may send.
const EXPOSED_HEADERS =
  'ETag, Idempotent-Replayed, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Content-Range, Content-Disposition';

const PREFLIGHT = {
  'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE',
  'access-control-allow-headers': 'Authorization, Content-Type, X-Session-Token, X-Database-Id, If-Match, If-None-Match, Idempotency-Key, Range',
  'access-control-max-age': '600',
};

/** Install after the HTTP layer's own refusals and before authentication (a preflight is answered first). */
export function installCors(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('access-control-allow-origin', '*').header('access-control-expose-headers', EXPOSED_HEADERS);
    if (request.raw.method !== 'OPTIONS') return done();
    // Safari waits for a body on a 204 without Content-Length: 0.
    reply.headers(PREFLIGHT).code(204).header('content-length', '0').send();
  });
  // Routes every OPTIONS request, so a preflight of any path is not a 404 (the hook answers it).
  app.options('*', { schema: { hide: true } }, (_request, reply) => {
    reply.send();
  });
}
