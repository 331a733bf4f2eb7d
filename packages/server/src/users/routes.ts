import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type TSchema } from '@sinclair/typebox';
import { principalOf } from '../http/auth.ts';
import { errorResponses, NoContent } from '../http/error-schema.ts';
import { UserResponse, UserSchema } from '../auth/schemas.ts';
import type { UserAdmin } from './user-admin.ts';

// Null first: a string branch first would let a null through as "" where types are coerced.
const Nullable = <T extends TSchema>(t: T) => Type.Union([Type.Null(), t]);

const UserIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 128, description: 'The user id' }) });

const listQuery = (maxPageSize: number) =>
  Type.Object(
    {
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: maxPageSize, default: 20 })),
      offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
      email: Type.Optional(Type.String({ maxLength: 320, description: 'Keeps the users whose e-mail starts with this (case-insensitive)' })),
    },
    { additionalProperties: false },
  );

/** A user with `mfa` (API.md §2.2): whether sign-in asks a second step. */
const AdminUserSchema = Type.Composite([UserSchema, Type.Object({ mfa: Type.Boolean({ description: 'Whether the user has a verified second factor' }) })]);
const UserList = Type.Object({ users: Type.Array(AdminUserSchema), total: Type.Integer({ description: 'Users matching `email`, all pages' }) });

const PatchUserBody = Type.Object(
  {
    name: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
    // Its length is checked with its scheme (users.ts checkAvatar), so a data: URL hears one message: "an http(s) URL".
    avatar: Type.Optional(Nullable(Type.String({ description: 'An http(s) URL of at most 2048 characters' }))),
    emailVerified: Type.Optional(Type.Boolean()),
    appMetadata: Type.Optional(
      Type.Object({}, { additionalProperties: true, description: 'Replaces the stored object whole; at most 16 KiB as JSON (else 413)' }),
    ),
    disabled: Type.Optional(Type.Boolean({ description: 'true ends every session and realtime socket of the user and refuses sign-in' })),
  },
  { additionalProperties: false },
);

/**
 * API.md §2.1: the app's backend manages its users under /auth/users, with its secret key (a public
 * key gets 403 `read_only_key`) or an operator token with X-Database-Id, as the dashboard does.
 */
export function userAdminRoutes(app: FastifyInstance, deps: { users: UserAdmin; maxPageSize: number }): void {
  // Request types come from the route schemas.
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const { users } = deps;
  const tags = ['auth'];
  const secret = { access: 'secret' as const };
  // Routes that end sessions or change users answer once every instance's caches know (infra/invalidation).
  const secretInvalidates = { ...secret, invalidates: true };
  const errors = errorResponses(400, 401, 403, 404, 429);
  const databaseId = (request: FastifyRequest) => principalOf(request).databaseId;

  api.get(
    '/v1/auth/users',
    {
      config: secret,
      schema: {
        tags,
        summary: "List the database's users, oldest first; `email` keeps those whose e-mail starts with it (secret key)",
        querystring: listQuery(deps.maxPageSize),
        response: { 200: UserList, ...errors },
      },
    },
    async (request) => {
      const { limit = 20, offset = 0, email } = request.query;
      return users.list(databaseId(request), { limit, offset, email });
    },
  );

  api.get(
    '/v1/auth/users/:id',
    {
      config: secret,
      schema: { tags, summary: 'One user, with mfa (secret key)', params: UserIdParams, response: { 200: Type.Object({ user: AdminUserSchema }), ...errors } },
    },
    async (request) => ({ user: await users.get(databaseId(request), request.params.id) }),
  );

  api.patch(
    '/v1/auth/users/:id',
    {
      config: secretInvalidates,
      schema: {
        tags,
        summary: 'Change a user: name, avatar, emailVerified, appMetadata (replaced whole), disabled (secret key)',
        params: UserIdParams,
        body: PatchUserBody,
        response: { 200: UserResponse, ...errors, ...errorResponses(413) },
      },
    },
    async (request) => ({ user: await users.update(databaseId(request), request.params.id, request.body) }),
  );

  api.delete(
    '/v1/auth/users/:id',
    {
      config: secretInvalidates,
      schema: {
        tags,
        summary: 'Delete a user with its sessions, realtime tokens and identities; its documents stay (secret key)',
        params: UserIdParams,
        response: { 204: NoContent, ...errors },
      },
    },
    async (request, reply) => {
      await users.delete(databaseId(request), request.params.id);
      return reply.code(204).send();
    },
  );
}
