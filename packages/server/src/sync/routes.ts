import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { stringify } from 'safe-stable-stringify';
import { ApiError } from '../errors.ts';
import { principalOf } from '../http/auth.ts';
import { sessionTokenOf } from '../auth/request-session.ts';
import { errorResponses } from '../http/error-schema.ts';
import { checkCollection } from '../documents/names.ts';
import type { DocumentRules } from '../documents/rule-access.ts';
import { loadRules, ruleFor } from '../rules/rules.ts';
import type { Store } from '../store/store.ts';
import { answerJson, type SyncService, type SyncView } from './service.ts';

const SyncQuery = Type.Object({
  filter: Type.Optional(Type.String({ maxLength: 65536, description: 'URL-encoded JSON filter (§1, §1.1): the part of the collection to keep' })),
  limit: Type.Integer({ minimum: 1, maximum: 1000, default: 500, description: 'Changes per answer' }),
  cursor: Type.Optional(Type.String({ maxLength: 16384, description: 'The nextCursor of the previous snapshot page' })),
  checkpoint: Type.Optional(Type.String({ maxLength: 16384, description: 'Catch up from this checkpoint of an earlier answer' })),
});

const Change = Type.Object({
  op: Type.Union([Type.Literal('upsert'), Type.Literal('delete')]),
  id: Type.String(),
  version: Type.String(),
  document: Type.Optional(Type.Object({}, { additionalProperties: true })),
});

const SyncResponse = Type.Object({
  changes: Type.Array(Change),
  checkpoint: Type.Union([Type.String(), Type.Null()]),
  lastEventId: Type.Union([Type.String(), Type.Null()]),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
  reset: Type.Boolean(),
});

const hash = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 22);

/** GET /sync/:collection (API.md §3.1). */
export function syncRoutes(app: FastifyInstance, deps: { sync: SyncService; rules: DocumentRules; store: Store }): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  /** Who asks and what they may see: a public key under §10's read rule with the session's user. */
  const viewOf = async (request: FastifyRequest, collection: string, filter: string | undefined): Promise<SyncView> => {
    const p = principalOf(request);
    const base = { databaseId: p.databaseId, collection, filter };
    if (p.kind !== 'public') return { ...base, caller: 'secret', view: 'all' };
    const scopes = await deps.rules.scopes(p.databaseId, collection, 'read', sessionTokenOf(request));
    const user = await scopes.user();
    const rule = ruleFor(await loadRules(deps.store, p.databaseId), collection, 'read');
    return {
      ...base,
      read: scopes.operation,
      caller: user ? `user:${user.id}` : 'anonymous',
      // The rule as written and as resolved for this user: a change of the rule or of the `$auth` values it uses resets.
      // Keys sorted: an instance may hold the rules as sent, another as PostgreSQL's jsonb gives them back.
      view: hash(stringify([rule, scopes.operation.filter ?? null]) ?? ''),
    };
  };

  api.get(
    '/v1/sync/:collection',
    {
      config: { access: 'key' },
      schema: {
        tags: ['realtime'],
        summary: 'Snapshot or catch up a copy of a collection (offline-first replicas)',
        params: Type.Object({ collection: Type.String() }),
        querystring: SyncQuery,
        response: { 200: SyncResponse, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { collection } = request.params;
      checkCollection(collection);
      const q = request.query;
      if (q.cursor !== undefined && q.checkpoint !== undefined) {
        throw new ApiError('validation_failed', 'Send cursor (the next page of a snapshot) or checkpoint (a catch-up), not both', [
          { path: '/checkpoint', message: 'not with cursor' },
        ]);
      }
      if ((request.query as Record<string, unknown>).search !== undefined) {
        throw new ApiError('validation_failed', 'A sync takes no search', [{ path: '/search', message: 'not allowed' }]);
      }
      const view = await viewOf(request, collection, q.filter);
      const answer = await deps.sync.answer(view, q);
      return reply
        .code(200)
        .type('application/json; charset=utf-8')
        .send(answerJson(answer) as never);
    },
  );
}
