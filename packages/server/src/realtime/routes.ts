import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Store } from '../store/store.ts';
import type { Clock } from '../infra/clock.ts';
import { principalOf } from '../http/auth.ts';
import { ErrorResponse } from '../http/error-schema.ts';
import { hashSecret } from '../keys/key-format.ts';
import type { Sessions } from '../auth/sessions.ts';
import { currentSession, sessionTokenOf } from '../auth/request-session.ts';
import { checkCollections, createRealtimeToken, type TokenSource } from './tokens.ts';

export interface TokenRouteDeps {
  store: Store;
  clock: Clock;
  publicUrl: string;
  maxCollections: number;
  /** The app's end-user sessions (auth's, with their cache): a public-key token asked for with X-Session-Token belongs to that user (§10). */
  sessions: Sessions;
}

// A collection (64 characters) or a bucket as `files/<bucket>` (§12).
const TokenBody = Type.Object({ collections: Type.Array(Type.String({ maxLength: 70 }), { maxItems: 1000 }) });
const TokenResponse = Type.Object({
  token: Type.String(),
  expiresAt: Type.String({ format: 'date-time' }),
  url: Type.String({ description: 'ws(s)://HOST/v1/realtime?token=…; add &after=<event id> to resume' }),
});

/** §3: POST /v1/realtime/token. The WebSocket itself is not a route: see upgrade.ts. */
export function realtimeTokenRoute(app: FastifyInstance, deps: TokenRouteDeps): void {
  // Request types come from the route schemas.
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  api.post(
    '/v1/realtime/token',
    {
      config: { access: 'key' },
      schema: {
        tags: ['realtime'],
        summary: 'A token for the realtime WebSocket (1 hour, up to 100 sockets at once; they close with 4401 when its key or session ends)',
        description:
          'With a public key and an X-Session-Token the token belongs to that user: its sockets receive only the events ' +
          "the collections' read rules let the user see, and close when the session ends. With a public key alone it belongs to nobody. " +
          'A secret key or an operator is not subject to rules (a session token is then ignored).',
        body: TokenBody,
        response: { 201: TokenResponse, 400: ErrorResponse, 401: ErrorResponse },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const collections = checkCollections(request.body.collections, deps.maxCollections);
      // What the token is granted through, so its sockets end with it.
      const source: TokenSource = principal.keyId
        ? { keyId: principal.keyId, userSessionHash: await userSession(request) }
        : { operatorSessionHash: request.operatorToken === undefined ? undefined : hashSecret(request.operatorToken) };
      const { token, expiresAt } = await createRealtimeToken(deps.store, deps.clock, { databaseId: principal.databaseId, collections }, source);
      const url = `${deps.publicUrl.replace(/^http/, 'ws')}/v1/realtime?token=${token}`;
      return reply.code(201).send({ token, expiresAt, url });
    },
  );

  /**
   * The stored hash of the user session a public-key token is asked for with (401 `invalid_session`
   * when it is not live), or undefined: no session (an empty header counts as none), or a secret
   * key, which rules do not apply to.
   */
  async function userSession(request: FastifyRequest): Promise<string | undefined> {
    if (principalOf(request).kind !== 'public' || sessionTokenOf(request) === undefined) return undefined;
    return (await currentSession(deps.sessions, request)).tokenHash;
  }
}
