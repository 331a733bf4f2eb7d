import type { FastifyRequest } from 'fastify';
import { principalOf } from '../http/auth.ts';
import type { Current, Sessions } from './sessions.ts';

/**
 * The header an end user's session token travels in (API.md §2), lower-cased as Node gives headers.
 * This file is the one place a request's session token is read: auth's routes, rules (documents,
 * sync, files) and realtime's token route all call `sessionTokenOf`, so they agree on what a token is.
 */
export const SESSION_TOKEN_HEADER = 'x-session-token';

/** The header's first value, trimmed; '' when sent empty, undefined when absent. */
function sentValue(request: FastifyRequest): string | undefined {
  const h = request.headers[SESSION_TOKEN_HEADER];
  return (Array.isArray(h) ? h[0] : h)?.trim();
}

/** The session token a request carries, or undefined: no header, or an empty one (which counts as none). */
export function sessionTokenOf(request: FastifyRequest): string | undefined {
  return sentValue(request) || undefined;
}

/**
 * Whether the request sent the header at all, even empty. POST /auth/verify-email then mails the
 * session's user, so an empty or dead token is a 401 there rather than a fall back to `email`.
 */
export function sentSessionToken(request: FastifyRequest): boolean {
  return sentValue(request) !== undefined;
}

/**
 * The live session of a request's token in the database of its key, else 401 `invalid_session`:
 * what every route that needs a signed-in user (auth's, second factors', realtime's token with a
 * session) resolves, through the one `Sessions` of the app and its cache.
 */
export function currentSession(sessions: Sessions, request: FastifyRequest): Promise<Current> {
  return sessions.resolve(principalOf(request).databaseId, sessionTokenOf(request));
}
