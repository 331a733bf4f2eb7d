import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.ts';
import { parseJsonBody } from '../json/parse.ts';

const JSON_TYPES = ['application/json', 'application/merge-patch+json'];

/** The bytes of each parsed JSON body, as text (an Idempotency-Key's fingerprint hashes them: idempotency/http.ts). */
const rawBodies = new WeakMap<object, string>();
/** The JSON body of a request as it arrived; '' when it had none. */
export const rawJsonBody = (request: object): string => rawBodies.get(request) ?? '';
declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route reads its body itself, as a stream of any type (files/, §12). */
    streamedBody?: boolean;
  }
}

/**
 * Routes whose bodies are a few fields (credentials, a URL, a list of names): they take
 * `smallBodyBytes`, not the 16 MiB a bulk insert needs, so an anonymous caller (sign-in takes a
 * public key, setup and operator sign-in none) cannot make the server read and parse megabytes.
 */
const SMALL_BODY_ROUTES = [/^\/v1\/auth\//, /^\/v1\/realtime\/token$/, /^\/v1\/webhooks(\/|$)/, /^\/v1\/admin\/(sign-in|setup|operators)$/];

/** Gives every small-body route (SMALL_BODY_ROUTES) registered after it the smaller limit, unless the route sets its own. */
function installSmallBodyLimits(app: FastifyInstance, smallBodyBytes: number): void {
  app.addHook('onRoute', (route) => {
    if (route.bodyLimit === undefined && SMALL_BODY_ROUTES.some((re) => re.test(route.url))) route.bodyLimit = smallBodyBytes;
  });
}

/**
 * JSON bodies (§0): `application/json` (any parameters) and, for PATCH, `application/merge-patch+json`.
 * Any other content type, or none, on a request with a body → 415; bad JSON → 400 `invalid_json`;
 * nesting deeper than `maxDepth` → 400 before parsing; over the route's body limit → 413. Install
 * it before the routes: the small body limits are set as routes are added.
 */
export function installBodyParsing(app: FastifyInstance, opts: { maxDepth: number; smallBodyBytes: number }): void {
  installSmallBodyLimits(app, opts.smallBodyBytes);
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(JSON_TYPES, { parseAs: 'string' }, (request, body, done) => {
    try {
      // An empty body with a JSON content type is no body on a route that takes none (clients
      // send the header on a bodyless POST such as sign-out); elsewhere it is not JSON.
      const bodyless = (body as string).trim() === '' && !request.routeOptions.schema?.body;
      rawBodies.set(request, body as string);
      done(null, bodyless ? undefined : parseJsonBody(body as string, opts.maxDepth));
    } catch (e) {
      done(e as Error, undefined);
    }
  });
  // Anything else with a body: refuse before reading it.
  app.addContentTypeParser('*', (_req, _payload, done) => {
    done(new ApiError('unsupported_media_type', 'Send a JSON body with Content-Type: application/json'), undefined);
  });
  app.addHook('preParsing', (request, _reply, payload, done) => {
    const hasBody = Number(request.headers['content-length'] ?? 0) > 0 || request.headers['transfer-encoding'] !== undefined;
    // A route that reads its body as a stream (file uploads, §12) takes any type, or none.
    if (hasBody && !request.headers['content-type'] && !request.routeOptions.config?.streamedBody) {
      return done(new ApiError('unsupported_media_type', 'Send a JSON body with Content-Type: application/json'));
    }
    done(null, payload);
  });
}
