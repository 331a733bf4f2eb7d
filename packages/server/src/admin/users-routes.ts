import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Store } from '../store/store.ts';
import { errorResponses, NoContent } from '../http/error-schema.ts';
import { getDatabase } from '../databases/databases.ts';
import { deleteUser, getUser, listUsers, signOutUser } from './users.ts';
import { IdParams } from './schemas.ts';

const UserSchema = Type.Object({
  id: Type.String(),
  email: Type.String(),
  name: Type.Union([Type.String(), Type.Null()]),
  avatar: Type.Union([Type.String(), Type.Null()]),
  emailVerified: Type.Boolean(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
const UserParams = Type.Object({ id: Type.String(), userId: Type.String() });
const ListQuery = Type.Object(
  {
    search: Type.Optional(Type.String({ maxLength: 320 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 20 })),
    offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
  },
  { additionalProperties: false },
);

/** End-user management for the dashboard's Users page (operator only). */
export function userAdminRoutes(app: FastifyInstance, deps: { store: Store }): void {
  // Request types come from the route schemas.
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const { store } = deps;
  const tags = ['admin'];
  const config = { access: 'operator' as const };
  const errors = errorResponses(400, 401, 403, 404);

  api.get(
    '/v1/admin/databases/:id/users',
    {
      config,
      schema: {
        tags,
        summary: "List a database's end users, newest first; `search` matches part of the e-mail",
        params: IdParams,
        querystring: ListQuery,
        response: { 200: Type.Object({ users: Type.Array(UserSchema), total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer() }), ...errors },
      },
    },
    async (request) => {
      await getDatabase(store, request.params.id);
      const { search, limit = 20, offset = 0 } = request.query;
      return listUsers(store, request.params.id, { search, limit, offset });
    },
  );

  api.get(
    '/v1/admin/databases/:id/users/:userId',
    {
      config,
      schema: {
        tags,
        summary: 'One end user with its live session count and linked providers',
        params: UserParams,
        response: { 200: Type.Object({ user: UserSchema, activeSessions: Type.Integer(), providers: Type.Array(Type.String()) }), ...errors },
      },
    },
    async (request) => getUser(store, request.params.id, request.params.userId),
  );

  api.delete(
    '/v1/admin/databases/:id/users/:userId',
    {
      config: { ...config, invalidates: true },
      schema: { tags, summary: 'Delete an end user, its sessions and identities', params: UserParams, response: { 204: NoContent, ...errors } },
    },
    async (request, reply) => {
      await deleteUser(store, request.params.id, request.params.userId);
      return reply.code(204).send();
    },
  );

  api.post(
    '/v1/admin/databases/:id/users/:userId/sign-out',
    {
      config: { ...config, invalidates: true },
      schema: {
        tags,
        summary: 'End every session of an end user (sign out everywhere)',
        params: UserParams,
        response: { 200: Type.Object({ endedSessions: Type.Integer() }), ...errors },
      },
    },
    async (request) => ({ endedSessions: await signOutUser(store, request.params.id, request.params.userId) }),
  );
}
