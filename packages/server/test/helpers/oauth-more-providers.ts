import type { IncomingMessage } from 'node:http';
import { OAuth2Server } from 'oauth2-mock-server';
import type { Claims } from './oauth-providers.ts';

/** What one token request sent: its Authorization header and its form. */
export interface TokenRequest {
  authorization: string | undefined;
  form: Record<string, string>;
}

/**
 * Apple, Microsoft, Discord, GitLab, Facebook and X, all played by one oauth2-mock-server (a real
 * authorization server: authorize → code → token, PKCE checked when a verifier is sent). Every
 * provider's authorize and token URLs point at it; their profile endpoints point at its
 * /userinfo, which answers `userinfo` (in the shape of the provider under test). `idClaims` are
 * written over the ID token's (Apple and Microsoft read the person from it); `tokenRequests` and
 * `authorizeQueries` keep what svc sent. Microsoft's URLs carry `{tenant}` in their query, so a
 * test sees the tenant svc put in.
 */
export async function startFakeProviders() {
  const server = new OAuth2Server();
  await server.issuer.keys.generate('RS256');
  await server.start(0, '127.0.0.1');
  const url = server.issuer.url!.replace(/\/$/, '');
  const state = {
    userinfo: {} as Claims,
    idClaims: {} as Claims,
    authorizeQueries: [] as URLSearchParams[],
    tokenRequests: [] as TokenRequest[],
  };
  server.service.on('beforeAuthorizeRedirect', (_redirect: { url: URL }, req: IncomingMessage) => {
    state.authorizeQueries.push(new URL(req.url ?? '', url).searchParams);
  });
  server.service.on('beforeTokenSigning', (token: { payload: Claims }) => {
    if ('scope' in token.payload) return; // the access token; the ID token has no scope
    Object.assign(token.payload, state.idClaims);
  });
  server.service.on('beforeResponse', (_res: unknown, req: IncomingMessage & { body: Record<string, string> }) => {
    state.tokenRequests.push({ authorization: req.headers.authorization, form: { ...req.body } });
  });
  server.service.on('beforeUserinfo', (res: { body: unknown }) => {
    res.body = state.userinfo;
  });
  const endpoints = (name: string, profile?: string) => ({
    [`OAUTH_${name}_AUTHORIZE_URL`]: `${url}/authorize`,
    [`OAUTH_${name}_TOKEN_URL`]: `${url}/token`,
    ...(profile ? { [`OAUTH_${name}_${profile}_URL`]: `${url}/userinfo` } : {}),
  });
  return {
    state,
    env: {
      ...endpoints('APPLE'),
      OAUTH_MICROSOFT_AUTHORIZE_URL: `${url}/authorize?tenant={tenant}`,
      OAUTH_MICROSOFT_TOKEN_URL: `${url}/token?tenant={tenant}`,
      ...endpoints('DISCORD', 'USER'),
      ...endpoints('GITLAB', 'USERINFO'),
      ...endpoints('FACEBOOK', 'USER'),
      ...endpoints('X', 'USER'),
    },
    authorizeUrl: `${url}/authorize`,
    close: () => server.stop(),
  };
}
