import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.ts';
import { resolveKey, type KeyPrincipal } from '../keys/keys.ts';
import { OPERATOR_TOKEN_PREFIX } from '../keys/key-format.ts';
import { resolveOperator, type Operator } from '../admin/operators.ts';
import type { LastUsedTracker } from '../keys/last-used.ts';
import type { Store } from '../store/store.ts';
import type { InvalidatedCache } from '../infra/invalidation/cache.ts';

/**
 * Who may call a route, declared in its `config.access`:
 * - `open`: anyone (rate-limited by IP);
 * - `key`: either API key, or an operator token with `X-Database-Id`;
 * - `secret`: a secret key (a public key gets 403 `read_only_key`), or an operator token with `X-Database-Id`;
 * - `operator`: an operator session token.
 */
export type Access = 'open' | 'key' | 'secret' | 'operator';

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
    /** Why authentication failed, thrown once the rate limiter has counted the request. */
    authFailure?: ApiError;
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
  lastUsed: LastUsedTracker;
  keys?: InvalidatedCache<KeyPrincipal>;
  operators?: InvalidatedCache<Operator>;
}

async function authenticate(request: FastifyRequest, deps: AuthHookDeps, access: Access): Promise<void> {
  const { store, lastUsed } = deps;
  const token = bearer(request);
  if (token === undefined) throw new ApiError('missing_api_key', 'Send your API key as Authorization: Bearer <key>');
  if (token.startsWith(OPERATOR_TOKEN_PREFIX)) {
    const operator = await resolveOperator(store, token, deps.operators);
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
    return;
  }
  const key: KeyPrincipal | undefined = await resolveKey(store, token, deps.keys);
  if (!key) throw new ApiError('invalid_api_key', 'The API key is unknown or revoked');
  lastUsed.touch(key.keyId);
  request.principal = { databaseId: key.databaseId, kind: key.kind, keyId: key.keyId };
  if (access === 'operator') throw new ApiError('forbidden', 'This route needs an operator session, not an API key');
}

/** Resolves the caller of every request; failures are recorded, and thrown by `enforceAccess`. */
export function installAuth(app: FastifyInstance, deps: AuthHookDeps): void {
  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config?.access ?? 'open';
    if (access === 'open') return;
    try {
      await authenticate(request, deps, access);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      request.principal = undefined;
      request.authFailure = e;
    }
  });
}

/** Throws the recorded authentication failure, then the public-key rule of `secret` routes. */
export function installAccessCheck(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.authFailure) return done(request.authFailure);
    if (request.routeOptions.config?.access === 'secret' && request.principal?.kind === 'public') {
      return done(new ApiError('read_only_key', 'A public key is read-only; use a secret key to write'));
    }
    done();
  });
}

/** The principal of a data route (set by the auth hook). */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new ApiError('missing_api_key', 'Send your API key as Authorization: Bearer <key>');
  return request.principal;
}
