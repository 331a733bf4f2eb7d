import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ErrorResponse } from '../http/error-schema.ts';
import { limitFailedAttempts, userAccount, withinMailLimit } from './limits.ts';
import { SignInOrMfaResponse } from './mfa/schemas.ts';
import { databaseOf, errors, key, tags } from './route-common.ts';
import { SignInBody, SignUpBody, SignedUpResponse } from './schemas.ts';
import type { AuthRouteDeps } from './routes.ts';
import { normalizeEmail } from '../users/users.ts';

/**
 * Signing up and in with an e-mail and a password. The password check goes through the
 * per-account limit of §2.1; changing and resetting it are in session-routes.ts and
 * email-link-routes.ts.
 */
export function passwordRoutes(app: FastifyInstance, deps: AuthRouteDeps): void {
  // Request types come from the route schemas.
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const { auth, links, limiter } = deps;

  api.post(
    '/v1/auth/sign-up',
    {
      config: key,
      schema: {
        tags,
        summary: 'Create an account with a password and sign in (session null when the database requires a verified e-mail first)',
        body: SignUpBody,
        response: { 201: SignedUpResponse, 409: ErrorResponse, ...errors },
      },
    },
    async (request, reply) => {
      const databaseId = databaseOf(request);
      const { email, password, name, redirectUrl } = request.body;
      const { signedUp, verification } = await auth.signUp(databaseId, email, password, name ?? undefined, redirectUrl);
      // The link a sign-up mails counts in the per-e-mail limit too (deleting and signing up again
      // must not mail an address without end).
      const to = signedUp.user.email;
      if (verification && (await withinMailLimit(limiter, 'verify-email', databaseId, to))) links.requestVerification(databaseId, to, verification);
      return reply.code(201).send(signedUp);
    },
  );

  api.post(
    '/v1/auth/sign-in',
    {
      config: key,
      schema: {
        tags,
        summary: 'Sign in with e-mail and password (with a second factor: mfa.token for POST /auth/mfa/challenge, and no session yet)',
        body: SignInBody,
        response: { 200: SignInOrMfaResponse, ...errors },
      },
    },
    async (request) => {
      const databaseId = databaseOf(request);
      const email = normalizeEmail(request.body.email);
      return limitFailedAttempts(limiter, { account: userAccount(databaseId, email), ip: request.ip }, () =>
        auth.signIn(databaseId, email, request.body.password),
      );
    },
  );
}
