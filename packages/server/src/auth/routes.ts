import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ApiError } from '../errors.ts';
import { principalOf } from '../http/auth.ts';
import { ErrorResponse } from '../http/error-schema.ts';
import type { Limiter } from '../infra/limiter/limiter.ts';
import type { EmailLinks, LinkTarget } from './email-links.ts';
import { limitFailedAttempts, userAccount, withinMailLimit, type MailLimited } from './limits.ts';
import type { BrowserStep, OAuthFlow } from './oauth/flow.ts';
import { appleFormPost } from './oauth/apple-form-post.ts';
import {
  AcceptedResponse,
  ChangePasswordBody,
  ConfirmEmailBody,
  DeleteMeBody,
  ForgotPasswordBody,
  MagicLinkBody,
  NoContent,
  OAuthCallbackQuery,
  OAuthStartQuery,
  PatchMeBody,
  ProviderParams,
  Redirect,
  ResetPasswordBody,
  SessionHeaders,
  SignInBody,
  SignUpBody,
  SignedInResponse,
  SignedUpResponse,
  UserResponse,
  VerifyEmailBody,
  VerifyMagicLinkBody,
} from './schemas.ts';
import type { AuthService } from './service.ts';
import { SignInOrMfaResponse } from './mfa/schemas.ts';
import { normalizeEmail, toUser, validEmail } from '../users/users.ts';

/** The services the routes call (built once by `createAuth`). */
export interface AuthRouteDeps {
  auth: AuthService;
  links: EmailLinks;
  oauth: OAuthFlow;
  limiter: Limiter;
}

const databaseOf = (request: FastifyRequest): string => principalOf(request).databaseId;
const sessionToken = (request: FastifyRequest): string | undefined => {
  const h = request.headers['x-session-token'];
  return typeof h === 'string' ? h.trim() : undefined;
};

/** Sends the browser on without leaking the URL (it may carry a session token) to the next page. */
const redirect = (reply: FastifyReply, step: BrowserStep) => {
  if (step.cookie) reply.header('Set-Cookie', step.cookie);
  return reply.header('Referrer-Policy', 'no-referrer').header('Cache-Control', 'no-store').redirect(step.location, 302);
};

/**
 * §2 end-user accounts: sign-up and sign-in with a password, sessions, password reset, magic
 * links and e-mail verification by e-mail, account deletion, and sign-in with OAuth providers.
 * Either key may call every route (a browser signs users up with its public key); the OAuth
 * routes are browser navigations and carry the public key in the query. Password checks go
 * through the per-account limit of §2.1.
 */
export function authRoutes(app: FastifyInstance, deps: AuthRouteDeps): void {
  // Request types come from the route schemas.
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const { auth, links, oauth, limiter } = deps;
  const tags = ['auth'];
  const key = { access: 'key' as const };
  // Routes that end sessions or change users answer once every instance's caches know (infra/invalidation).
  const keyInvalidates = { ...key, invalidates: true };
  const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 429: ErrorResponse };
  const current = (request: FastifyRequest) => auth.current(databaseOf(request), sessionToken(request));
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
      if (sessionToken(request) !== undefined) email = (await current(request)).user.email;
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

  api.get(
    '/v1/auth/oauth/:provider',
    {
      config: { access: 'open' },
      schema: {
        tags,
        summary:
          'Start signing in with an OAuth provider (docs/oauth.md) or the OpenID Connect provider (a browser navigation; the public key goes in the query)',
        security: [],
        params: ProviderParams,
        querystring: OAuthStartQuery,
        response: { 302: Redirect, ...errors },
      },
    },
    async (request, reply) => redirect(reply, await oauth.start(request.params.provider, request.query.key, request.query.redirectUrl)),
  );

  api.get(
    '/v1/auth/oauth/:provider/callback',
    {
      config: { access: 'open', invalidates: true },
      schema: {
        tags,
        summary: "The provider's redirect back: on to redirectUrl?token= or ?error=",
        security: [],
        params: ProviderParams,
        querystring: OAuthCallbackQuery,
        response: { 302: Redirect, 400: ErrorResponse, 429: ErrorResponse },
      },
    },
    async (request, reply) => {
      reply.header('Referrer-Policy', 'no-referrer'); // on the 400 answer too: the URL carries the provider's code
      return redirect(reply, await oauth.callback(request.params.provider, request.query, request.headers.cookie));
    },
  );
  app.register(appleFormPost);
}
