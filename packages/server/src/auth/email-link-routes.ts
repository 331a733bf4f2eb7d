import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ApiError } from '../errors.ts';
import type { LinkTarget } from './email-links.ts';
import { limitFailedAttempts, userAccount, withinMailLimit, type MailLimited } from './limits.ts';
import { SignInOrMfaResponse } from './mfa/schemas.ts';
import { sentSessionToken } from './request-session.ts';
import { databaseOf, errors, key, keyInvalidates, tags } from './route-common.ts';
import type { AuthRouteDeps } from './routes.ts';
import {
  AcceptedResponse,
  ConfirmEmailBody,
  ForgotPasswordBody,
  MagicLinkBody,
  NoContent,
  ResetPasswordBody,
  SessionHeaders,
  UserResponse,
  VerifyEmailBody,
  VerifyMagicLinkBody,
} from './schemas.ts';
import { normalizeEmail, validEmail } from '../users/users.ts';

/**
 * What goes through a link mailed to the user (email-links.ts): password reset, magic links (sign
 * in, or sign up, by e-mail alone) and e-mail verification. Asking for a link answers the same
 * whether or not the account exists.
 */
export function emailLinkRoutes(app: FastifyInstance, deps: AuthRouteDeps): void {
  // Request types come from the route schemas.
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const { links, limiter, current } = deps;
  /**
   * forgot-password and magic-link: a disallowed redirect URL is a 400 first; then 202 `{}` whatever
   * happens (API.md §2), with the mail sent in the background unless the e-mail is past its limit.
   */
  const requestLink = async (
    request: FastifyRequest,
    body: { email: string; redirectUrl?: string },
    reply: FastifyReply,
    route: MailLimited,
    send: (databaseId: string, email: string, target: LinkTarget) => void,
  ) => {
    const databaseId = databaseOf(request);
    const email = validEmail(body.email);
    const target = await links.target(databaseId, body.redirectUrl);
    if (await withinMailLimit(limiter, route, databaseId, email)) send(databaseId, email, target);
    else request.log.info(`${route}: per-e-mail limit reached, no mail sent`);
    return reply.code(202).send({});
  };

  api.post(
    '/v1/auth/forgot-password',
    {
      config: key,
      schema: {
        tags,
        summary: 'Mail a password-reset link (valid 1 hour) if the account exists',
        body: ForgotPasswordBody,
        response: { 202: AcceptedResponse, ...errors },
      },
    },
    async (request, reply) => requestLink(request, request.body, reply, 'forgot-password', (db, email, target) => links.requestReset(db, email, target)),
  );

  api.post(
    '/v1/auth/reset-password',
    {
      config: keyInvalidates,
      schema: {
        tags,
        summary: 'Set a new password with the token of a reset link; ends every session',
        body: ResetPasswordBody,
        response: { 204: NoContent, ...errors },
      },
    },
    async (request, reply) => {
      const { email, token, newPassword } = request.body;
      await links.resetPassword(databaseOf(request), normalizeEmail(email), token, newPassword);
      return reply.code(204).send();
    },
  );

  api.post(
    '/v1/auth/magic-link',
    {
      config: key,
      schema: { tags, summary: 'Mail a sign-in link (valid 15 minutes)', body: MagicLinkBody, response: { 202: AcceptedResponse, ...errors } },
    },
    async (request, reply) => requestLink(request, request.body, reply, 'magic-link', (db, email, target) => links.requestMagicLink(db, email, target)),
  );

  api.post(
    '/v1/auth/magic-link/verify',
    {
      config: keyInvalidates,
      schema: {
        tags,
        summary: 'Sign in with the token of a magic link (creates the account if needed)',
        body: VerifyMagicLinkBody,
        response: { 200: SignInOrMfaResponse, ...errors },
      },
    },
    async (request) => links.verifyMagicLink(databaseOf(request), normalizeEmail(request.body.email), request.body.token),
  );

  api.post(
    '/v1/auth/verify-email',
    {
      config: key,
      schema: {
        tags,
        summary: 'Mail an e-mail-verification link (valid 24 hours): to the signed-in user, or to `email` if its account is unverified',
        headers: SessionHeaders,
        body: VerifyEmailBody,
        response: { 202: AcceptedResponse, ...errors },
      },
    },
    async (request, reply) => {
      const { redirectUrl } = request.body;
      let email = request.body.email;
      if (sentSessionToken(request)) email = (await current(request)).user.email;
      else if (email === undefined) {
        throw new ApiError('validation_failed', 'Send X-Session-Token, or the email to verify', [
          { path: '/email', message: 'is required without X-Session-Token' },
        ]);
      }
      return requestLink(request, { email, redirectUrl }, reply, 'verify-email', (db, to, target) => links.requestVerification(db, to, target));
    },
  );

  api.post(
    '/v1/auth/verify-email/confirm',
    {
      config: keyInvalidates,
      schema: {
        tags,
        summary:
          "Mark the account's e-mail verified with the token of a verification link (sessions stay as they are); an account with a password also sends it",
        body: ConfirmEmailBody,
        response: { 200: UserResponse, ...errors },
      },
    },
    async (request) => {
      const databaseId = databaseOf(request);
      const email = normalizeEmail(request.body.email);
      // A wrong password counts under the account's limit, as at sign-in: the link's holder may not guess it.
      const user = await limitFailedAttempts(limiter, { account: userAccount(databaseId, email), ip: request.ip }, () =>
        links.confirmEmail(databaseId, email, request.body.token, request.body.password),
      );
      return { user };
    },
  );
}
