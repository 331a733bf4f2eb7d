import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ErrorResponse } from '../http/error-schema.ts';
import { limitFailedAttempts, userAccount } from './limits.ts';
import { databaseOf, errors, key, keyInvalidates, tags } from './route-common.ts';
import type { AuthRouteDeps } from './routes.ts';
import { ChangePasswordBody, DeleteMeBody, NoContent, PatchMeBody, SessionHeaders, SignedInResponse, UserResponse } from './schemas.ts';
import { toUser } from '../users/users.ts';

/**
 * What a signed-in user does with the session in X-Session-Token (request-session.ts): sign out,
 * read, change or delete the account, extend the session, change the password.
 */
export function sessionRoutes(app: FastifyInstance, deps: AuthRouteDeps): void {
  // Request types come from the route schemas.
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const { auth, limiter, current } = deps;

  api.post(
    '/v1/auth/sign-out',
    {
      config: keyInvalidates,
      schema: { tags, summary: 'End the session in X-Session-Token', headers: SessionHeaders, response: { 204: NoContent, ...errors } },
    },
    async (request, reply) => {
      await auth.signOut(await current(request));
      return reply.code(204).send();
    },
  );

  api.get(
    '/v1/auth/me',
    {
      config: key,
      schema: { tags, summary: 'The signed-in user', headers: SessionHeaders, response: { 200: UserResponse, ...errors } },
    },
    async (request) => ({ user: toUser((await current(request)).user) }),
  );

  api.patch(
    '/v1/auth/me',
    {
      config: keyInvalidates,
      schema: {
        tags,
        summary: "Change the signed-in user's name or avatar",
        headers: SessionHeaders,
        body: PatchMeBody,
        response: { 200: UserResponse, ...errors },
      },
    },
    async (request) => ({ user: await auth.updateProfile(await current(request), request.body) }),
  );

  api.delete(
    '/v1/auth/me',
    {
      config: keyInvalidates,
      // No body at all is an empty one (a password-less account has nothing to send).
      preValidation: (request, _reply, done) => {
        request.body ??= {};
        done();
      },
      schema: {
        tags,
        summary: 'Delete the signed-in account with its sessions and identities (its documents stay)',
        headers: SessionHeaders,
        body: DeleteMeBody,
        response: { 204: NoContent, 404: ErrorResponse, ...errors },
      },
    },
    async (request, reply) => {
      const me = await current(request);
      const databaseId = databaseOf(request);
      await limitFailedAttempts(limiter, { account: userAccount(databaseId, me.user.email), ip: request.ip }, () =>
        auth.deleteAccount(me, databaseId, request.body.password),
      );
      return reply.code(204).send();
    },
  );

  api.post(
    '/v1/auth/refresh',
    {
      config: key,
      schema: {
        tags,
        summary: 'Extend the session to now + its lifetime (same token)',
        headers: SessionHeaders,
        response: { 200: SignedInResponse, ...errors },
      },
    },
    async (request) => auth.refresh(await current(request)),
  );

  api.post(
    '/v1/auth/change-password',
    {
      config: keyInvalidates,
      schema: {
        tags,
        summary: 'Change the password; ends every other session',
        headers: SessionHeaders,
        body: ChangePasswordBody,
        response: { 204: NoContent, ...errors },
      },
    },
    async (request, reply) => {
      const me = await current(request);
      const { currentPassword, newPassword } = request.body;
      await limitFailedAttempts(limiter, { account: userAccount(databaseOf(request), me.user.email), ip: request.ip }, () =>
        auth.changePassword(me, currentPassword, newPassword),
      );
      return reply.code(204).send();
    },
  );
}
