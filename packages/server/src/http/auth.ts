import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.ts';
import { resolveKey, type KeyPrincipal } from '../keys/keys.ts';
import { OPERATOR_TOKEN_PREFIX } from '../keys/key-format.ts';
import { operatorClock, resolveOperator, type Operator } from '../keys/operator-sessions.ts';
import type { LastUsedTracker } from '../keys/last-used.ts';
import type { Store } from '../store/store.ts';
import type { InvalidatedCache } from '../infra/invalidation/cache.ts';
import type { Clock } from '../infra/clock.ts';

/**
 * Who may call a route, declared in its `config.access`:
 * - `open`: anyone (rate-limited by IP);
 * - `key`: either API key, or an operator token with `X-Database-Id`;
 * - `secret`: a secret key (a public key gets 403 `read_only_key`), or an operator token with `X-Database-Id`;
 * - `operator`: an operator session token;
 * - `download`: `key` when an Authorization header is sent; without one, open and not counted
 *   here: the route counts it against its own per-IP limit (files, §12: RATE_LIMIT_FILES_PER_IP).
 */
export type Access = 'open' | 'key' | 'secret' | 'operator' | 'download';

/** The caller of a data route: a database and the rights of the credential used. */
export interface Principal {
  databaseId: string;
  kind: 'secret' | 'public';
  keyId?: string;
  operatorId?: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
    operator?: Operator;
    operatorToken?: string;
  }
  interface FastifyContextConfig {
    access?: Access;
  }
}

function bearer(request: FastifyRequest): string | undefined {
  const h = request.headers.authorization;
  if (!h) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
  return m ? m[1] : '';
}

/** What the auth hook looks credentials up in: the store, through caches of live keys and operator sessions. */
export interface AuthHookDeps {
  store: Store;
  clock: Clock;
  lastUsed: LastUsedTracker;
  keys?: InvalidatedCache<KeyPrincipal>;
  operators?: InvalidatedCache<Operator>;
}

const missingKey = () => new ApiError('missing_api_key', 'Send your API key as Authorization: Bearer <key>');

/**
 * An Authorization header that is not `Bearer <one credential>`: 401 `invalid_api_key` (a malformed key,
 * API.md's code), whose message says what is wrong with the header rather than "unknown or revoked".
 */
function notBearer(request: FastifyRequest): ApiError {
  const h = String(request.headers.authorization).trim();
  const scheme = /^(\S+)\s/.exec(h)?.[1];
  const why = /^svc_|^[A-Za-z0-9_]{32,}$/.test(h)
    ? 'it holds the key without the "Bearer " prefix'
    : scheme && scheme.toLowerCase() !== 'bearer'
      ? `it uses the ${scheme.slice(0, 20)} scheme, which svc does not take`
      : 'it does not hold exactly one credential after "Bearer "';
  return new ApiError('invalid_api_key', `The Authorization header must read "Bearer <key>": ${why}`);
}

async function authenticateOperator(request: FastifyRequest, deps: AuthHookDeps, token: string, access: Access): Promise<void> {
  const { store } = deps;
  const operator = await resolveOperator(store, operatorClock, token, deps.operators);
  if (!operator) throw new ApiError('invalid_session', 'The operator session is unknown or expired; sign in again');
  request.operator = operator;
  request.operatorToken = token;
  if (access === 'operator') return;
  const databaseId = request.headers['x-database-id'];
  if (typeof databaseId !== 'string' || !databaseId) {
    throw new ApiError('forbidden', 'An operator token acts on data routes only with an X-Database-Id header');
  }
  const exists = await store.get('SELECT id FROM databases WHERE id = ?', [databaseId]);
  if (!exists) throw new ApiError('not_found', `Database '${databaseId}' not found`);
  request.principal = { databaseId, kind: 'secret', operatorId: operator.id };
}

/**
 * Resolves the credential of a request that needs one. Not an async function: an API key (nearly
 * every request) costs the one promise of its lookup, with no async frames around it.
 */
function authenticate(request: FastifyRequest, deps: AuthHookDeps, access: Access): Promise<void> {
  const token = bearer(request);
  if (token === undefined) return Promise.reject(missingKey());
  if (token === '') return Promise.reject(notBearer(request));
  if (token.startsWith(OPERATOR_TOKEN_PREFIX)) return authenticateOperator(request, deps, token, access);
  return resolveKey(deps.store, deps.clock, token, deps.keys).then((key) => {
    if (!key) throw new ApiError('invalid_api_key', 'The API key is unknown or revoked');
    deps.lastUsed.touch(key.keyId);
    request.principal = { databaseId: key.databaseId, kind: key.kind, keyId: key.keyId };
    if (access === 'operator') throw new ApiError('forbidden', 'This route needs an operator session, not an API key');
  });
}

/** The refusal of a request once it was counted: its authentication failure, else the public-key rule of `secret` routes. */
function refusal(request: FastifyRequest, access: Access, failure: ApiError | undefined): ApiError | undefined {
  if (failure) return failure;
  if (access === 'secret' && request.principal?.kind === 'public') {
    return new ApiError('read_only_key', 'A public key is read-only; use a secret key to write');
  }
  return undefined;
}

/** The rate limiter's step (http/rate-limit.ts): counts a request, sets its headers, and answers an error past the limit. */
export type CountRequest = (request: FastifyRequest, reply: FastifyReply, done: (e?: Error) => void) => void;

/**
 * The checks every request passes, in this order, as ONE callback hook: resolve its caller (a
 * failure is recorded, not thrown yet), count it against its rate limit (so a request with a bad
 * key is counted against its IP), then throw the recorded failure or the public-key rule. One
 * hook instead of three (one of them async) keeps the per-request cost of every route down
 * (docs/performance-notes.md).
 */
export function installRequestChecks(app: FastifyInstance, deps: AuthHookDeps, countRequest: CountRequest): void {
  // Fixed request shape: these are set on most requests, and adding them later would change the
  // object's hidden class mid-request (slower, megamorphic property access everywhere after).
  app.decorateRequest('principal', undefined);
  app.decorateRequest('operator', undefined);
  app.decorateRequest('operatorToken', undefined);
  app.addHook('onRequest', (request, reply, done) => {
    let access = request.routeOptions.config?.access ?? 'open';
    if (access === 'download') {
      if (request.headers.authorization === undefined) return done();
      access = 'key';
    }
    let failure: ApiError | undefined;
    const counted = (e?: Error) => done(e ?? refusal(request, access, failure));
    if (access === 'open') return countRequest(request, reply, counted);
    authenticate(request, deps, access).then(
      () => countRequest(request, reply, counted),
      (e: unknown) => {
        if (!(e instanceof ApiError)) return done(e as Error);
        request.principal = undefined;
        failure = e;
        countRequest(request, reply, counted);
      },
    );
  });
}

/** The principal of a data route (set by the auth hook). */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw missingKey();
  return request.principal;
}
