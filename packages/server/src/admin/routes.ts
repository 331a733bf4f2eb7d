import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Store } from '../store/store.ts';
import type { Clock } from '../infra/clock.ts';
import { ErrorResponse, errorResponses, NoContent } from '../http/error-schema.ts';
import type { Limiter } from '../infra/limiter/limiter.ts';
import { limitFailedAttempts, operatorAccount } from '../auth/limits.ts';
import { normalizeEmail } from '../users/users.ts';
import { createOperator } from './operators.ts';
import { operatorClock, signOutOperator } from '../keys/operator-sessions.ts';
import type { OperatorMfa } from './operator-mfa.ts';
import { createDatabase, deleteDatabase, getDatabase, listDatabases, updateDatabase } from '../databases/databases.ts';
import { createKey, listKeys, revokeKey } from '../keys/keys.ts';
import {
  CreateDatabaseBody,
  CreateKeyBody,
  CreateOperatorBody,
  DatabaseSchema,
  IdParams,
  KeyParams,
  KeySchema,
  NewKeySchema,
  OperatorSchema,
  PatchDatabaseBody,
  SignInBody,
  SignInResponse,
} from './schemas.ts';

/**
 * §6 management API: operators, databases, keys. Every route but sign-in needs an operator token;
 * sign-in is under the per-account limit of §2.1 (10 failures per operator and client IP per 15 minutes).
 */
export function adminRoutes(app: FastifyInstance, deps: { store: Store; clock: Clock; publicUrl: string; limiter: Limiter; mfa: OperatorMfa }): void {
  // Request types come from the route schemas.
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const { store, clock } = deps;
  const tags = ['admin'];
  const operator = { access: 'operator' as const };
  const errors = errorResponses(400, 401, 403, 404);

  api.post(
    '/v1/admin/sign-in',
    {
      config: { access: 'open' },
      schema: { tags, summary: 'Operator sign-in', body: SignInBody, response: { 200: SignInResponse, 429: ErrorResponse, ...errors } },
    },
    async (request) => {
      const { email, password } = request.body;
      return limitFailedAttempts(deps.limiter, { account: operatorAccount(normalizeEmail(email)), ip: request.ip }, () => deps.mfa.signIn(email, password));
    },
  );

  api.post(
    '/v1/admin/sign-out',
    {
      config: { ...operator, invalidates: true },
      schema: { tags, summary: 'End this operator session', response: { 204: NoContent, ...errors } },
    },
    async (request, reply) => {
      await signOutOperator(store, request.operatorToken!);
      return reply.code(204).send();
    },
  );

  api.get(
    '/v1/admin/me',
    {
      config: operator,
      schema: {
        tags,
        summary: 'The signed-in operator, and the address users reach (PUBLIC_URL: OAuth callbacks are built from it)',
        response: { 200: Type.Object({ operator: OperatorSchema, publicUrl: Type.String() }), ...errors },
      },
    },
    async (request) => ({ operator: request.operator!, publicUrl: deps.publicUrl }),
  );

  api.post(
    '/v1/admin/operators',
    {
      config: operator,
      schema: {
        tags,
        summary: 'Create another operator',
        body: CreateOperatorBody,
        response: { 201: Type.Object({ operator: OperatorSchema }), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await deps.mfa.requireCode(request.operator!, request.body.code); // API.md §2.2: with a factor, the caller's code
      return reply.code(201).send({ operator: await createOperator(store, request.body.email, request.body.password, operatorClock) });
    },
  );

  api.post(
    '/v1/admin/databases',
    {
      config: operator,
      schema: {
        tags,
        summary: 'Create a database, its first secret key (shown once) and its first public key',
        body: CreateDatabaseBody,
        response: { 201: Type.Object({ database: DatabaseSchema, key: NewKeySchema, publicKey: NewKeySchema }), ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await createDatabase(store, request.body.name, clock)),
  );

  api.get(
    '/v1/admin/databases',
    {
      config: operator,
      schema: { tags, summary: 'List databases', response: { 200: Type.Object({ databases: Type.Array(DatabaseSchema) }), ...errors } },
    },
    async () => ({ databases: await listDatabases(store) }),
  );

  api.get(
    '/v1/admin/databases/:id',
    {
      config: operator,
      schema: { tags, summary: 'Get a database', params: IdParams, response: { 200: Type.Object({ database: DatabaseSchema }), ...errors } },
    },
    async (request) => ({ database: await getDatabase(store, request.params.id) }),
  );

  api.patch(
    '/v1/admin/databases/:id',
    {
      // Settings (rules among them) are cached per instance on PostgreSQL: answer once every instance dropped them.
      config: { ...operator, invalidates: true },
      schema: {
        tags,
        summary: 'Rename a database or merge its settings',
        params: IdParams,
        body: PatchDatabaseBody,
        response: { 200: Type.Object({ database: DatabaseSchema }), ...errors },
      },
    },
    async (request) => ({ database: await updateDatabase(store, clock, request.params.id, request.body) }),
  );

  api.delete(
    '/v1/admin/databases/:id',
    {
      config: { ...operator, invalidates: true },
      schema: { tags, summary: 'Delete a database and everything in it', params: IdParams, response: { 204: NoContent, ...errors } },
    },
    async (request, reply) => {
      await deleteDatabase(store, request.params.id);
      return reply.code(204).send();
    },
  );

  api.post(
    '/v1/admin/databases/:id/keys',
    {
      config: operator,
      schema: {
        tags,
        summary: 'Create an API key (a secret key is shown once)',
        params: IdParams,
        body: CreateKeyBody,
        response: { 201: NewKeySchema, ...errors },
      },
    },
    async (request, reply) => {
      await getDatabase(store, request.params.id);
      return reply.code(201).send(await createKey(store, clock, request.params.id, request.body.kind, request.body.name ?? null));
    },
  );

  api.get(
    '/v1/admin/databases/:id/keys',
    {
      config: operator,
      schema: {
        tags,
        summary: 'List API keys (hints; public keys whole)',
        params: IdParams,
        response: { 200: Type.Object({ keys: Type.Array(KeySchema) }), ...errors },
      },
    },
    async (request) => {
      await getDatabase(store, request.params.id);
      return { keys: await listKeys(store, request.params.id) };
    },
  );

  api.delete(
    '/v1/admin/databases/:id/keys/:keyId',
    {
      config: { ...operator, invalidates: true },
      schema: { tags, summary: 'Revoke an API key at once', params: KeyParams, response: { 204: NoContent, ...errors } },
    },
    async (request, reply) => {
      await revokeKey(store, clock, request.params.id, request.params.keyId);
      return reply.code(204).send();
    },
  );
}
