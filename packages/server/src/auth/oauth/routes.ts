import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ErrorResponse } from '../../http/error-schema.ts';
import { errors, tags } from '../route-common.ts';
import { OAuthCallbackQuery, OAuthStartQuery, ProviderParams, Redirect } from '../schemas.ts';
import { appleFormPost } from './apple-form-post.ts';
import type { BrowserStep, OAuthFlow } from './flow.ts';

/** Sends the browser on without leaking the URL (it may carry a session token) to the next page. */
const redirect = (reply: FastifyReply, step: BrowserStep) => {
  if (step.cookie) reply.header('Set-Cookie', step.cookie);
  return reply.header('Referrer-Policy', 'no-referrer').header('Cache-Control', 'no-store').redirect(step.location, 302);
};

/**
 * Signing in with an OAuth provider or the OpenID Connect one (`oidc`, oidc.ts): both go through
 * the same two routes. They are browser navigations, so they carry the public key in the query
 * rather than a header.
 */
export function oauthRoutes(app: FastifyInstance, deps: { oauth: OAuthFlow }): void {
  // Request types come from the route schemas.
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const { oauth } = deps;

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
