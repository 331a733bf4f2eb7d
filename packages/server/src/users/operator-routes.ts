import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Store } from '../store/store.ts';
import { errorResponses } from '../http/error-schema.ts';
import { systemClock } from '../infra/clock.ts';
import { UserSchema } from '../auth/schemas.ts';
import { UserAdmin } from './user-admin.ts';
import { signOutUser, userActivity } from './activity.ts';

const UserParams = Type.Object({ id: Type.String(), userId: Type.String() });

/**
 * The dashboard's extras on one end user (operator only). Listing, changing and deleting users go
 * through §2.1's /auth/users routes, with the operator token and X-Database-Id.
 */
export function operatorUserRoutes(app: FastifyInstance, deps: { store: Store }): void {
  // Request types come from the route schemas.
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const { store } = deps;
  const users = new UserAdmin({ store, clock: systemClock });
  const tags = ['admin'];
  const config = { access: 'operator' as const };
  const errors = errorResponses(400, 401, 403, 404);

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
    async (request) => {
      const { id, userId } = request.params;
      const user = await users.get(id, userId);
      return { user, ...(await userActivity(store, id, userId)) };
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
    async (request) => {
      const { id, userId } = request.params;
      await users.get(id, userId); // 404 for a user of another database
      return { endedSessions: await signOutUser(store, id, userId) };
    },
  );
}
