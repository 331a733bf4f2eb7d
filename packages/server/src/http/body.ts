import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.ts';
import { parseJsonBody } from '../json/parse.ts';

const JSON_TYPES = ['application/json', 'application/merge-patch+json'];

/**
 * JSON bodies (§0): `application/json` (any parameters) and, for PATCH, `application/merge-patch+json`.
 * Any other content type, or none, on a request with a body → 415; bad JSON → 400 `invalid_json`.
 */
export function installBodyParsing(app: FastifyInstance, opts: { maxDepth: number }): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(JSON_TYPES, { parseAs: 'string' }, (request, body, done) => {
    try {
      // An empty body with a JSON content type is no body on a route that takes none (clients
      // send the header on a bodyless POST such as sign-out); elsewhere it is not JSON.
      const bodyless = (body as string).trim() === '' && !request.routeOptions.schema?.body;
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
    if (hasBody && !request.headers['content-type']) {
      return done(new ApiError('unsupported_media_type', 'Send a JSON body with Content-Type: application/json'));
    }
    done(null, payload);
  });
}
