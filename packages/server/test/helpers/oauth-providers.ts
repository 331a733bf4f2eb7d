import { createHash, generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OAuth2Server } from 'oauth2-mock-server';

/** What the fake Google says about the user at /userinfo. */
export interface GoogleUser {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  picture?: string;
}

/**
 * Google played by oauth2-mock-server: a real authorization server (authorize → code → token with
 * PKCE verification) whose /userinfo answers with `user`. `deny` makes /authorize send the user
 * back with error=access_denied; `authorizeQueries` keeps what the service sent to /authorize.
 */
export async function startFakeGoogle() {
  const server = new OAuth2Server();
  await server.issuer.keys.generate('RS256');
  await server.start(0, '127.0.0.1');
  const url = server.issuer.url!.replace(/\/$/, '');
  const state = { user: { sub: 'google-1' } as GoogleUser, deny: false, authorizeQueries: [] as URLSearchParams[] };
  server.service.on('beforeAuthorizeRedirect', (redirect: { url: URL }, req: IncomingMessage) => {
    state.authorizeQueries.push(new URL(req.url ?? '', url).searchParams);
    if (state.deny) {
      redirect.url.searchParams.delete('code');
      redirect.url.searchParams.set('error', 'access_denied');
    }
  });
  server.service.on('beforeUserinfo', (res: { body: unknown; statusCode: number }) => {
    res.body = state.user;
  });
  return {
    state,
    env: {
      OAUTH_GOOGLE_AUTHORIZE_URL: `${url}/authorize`,
      OAUTH_GOOGLE_TOKEN_URL: `${url}/token`,
      OAUTH_GOOGLE_USERINFO_URL: `${url}/userinfo`,
    },
    close: () => server.stop(),
  };
}

/** What the fake GitHub says at /user and /user/emails. */
export interface GitHubUser {
  id: number;
  login: string;
  name?: string | null;
  avatar_url?: string;
  emails: Array<{ email: string; primary: boolean; verified: boolean }>;
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let s = '';
    req.on('data', (c: Buffer) => {
      s += c.toString();
    });
    req.on('end', () => resolve(s));
  });

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
};

/**
 * GitHub's OAuth and user API, played by a small node:http server: /login/oauth/authorize sends the
 * browser back with a code, /login/oauth/access_token checks the client credentials and the PKCE
 * verifier (and, like GitHub, answers 200 with `error` when they are wrong), /api/user and
 * /api/user/emails answer for the access token.
 */
export async function startFakeGitHub(client: { id: string; secret: string }) {
  const codes = new Map<string, { challenge: string; redirectUri: string }>();
  const tokens = new Set<string>();
  const state = { user: { id: 1, login: 'octo', emails: [] } as GitHubUser, tokenRequests: 0 };
  const server = createServer(async (req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    if (req.method === 'GET' && u.pathname === '/login/oauth/authorize') {
      const code = randomUUID();
      const redirectUri = u.searchParams.get('redirect_uri') ?? '';
      codes.set(code, { challenge: u.searchParams.get('code_challenge') ?? '', redirectUri });
      const back = new URL(redirectUri);
      back.searchParams.set('code', code);
      back.searchParams.set('state', u.searchParams.get('state') ?? '');
      res.writeHead(302, { location: back.toString() }).end();
      return;
    }
    if (req.method === 'POST' && u.pathname === '/login/oauth/access_token') {
      state.tokenRequests += 1;
      const body = new URLSearchParams(await readBody(req));
      const basic = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString();
      const [id, secret] = basic.includes(':') ? basic.split(':') : [body.get('client_id'), body.get('client_secret')];
      const entry = codes.get(body.get('code') ?? '');
      codes.delete(body.get('code') ?? '');
      const verifier = body.get('code_verifier') ?? '';
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      if (id !== client.id || secret !== client.secret) return json(res, 200, { error: 'incorrect_client_credentials' });
      if (!entry || entry.challenge !== challenge || entry.redirectUri !== body.get('redirect_uri')) return json(res, 200, { error: 'bad_verification_code' });
      const token = `gho_${randomUUID()}`;
      tokens.add(token);
      return json(res, 200, { access_token: token, token_type: 'bearer', scope: 'read:user,user:email' });
    }
    const bearer = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    if (!tokens.has(bearer)) return json(res, 401, { message: 'Bad credentials' });
    if (u.pathname === '/api/user') {
      const { emails: _e, ...user } = state.user;
      return json(res, 200, { ...user, email: state.user.emails[0]?.email ?? null });
    }
    if (u.pathname === '/api/user/emails') return json(res, 200, state.user.emails);
    json(res, 404, { message: 'Not Found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    state,
    env: {
      OAUTH_GITHUB_AUTHORIZE_URL: `${base}/login/oauth/authorize`,
      OAUTH_GITHUB_TOKEN_URL: `${base}/login/oauth/access_token`,
      OAUTH_GITHUB_API_URL: `${base}/api`,
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Claims of an ID token or a userinfo answer. */
export type Claims = Record<string, unknown>;

/**
 * An OpenID Connect provider played by oauth2-mock-server: discovery, JWKS, authorize (with PKCE
 * and the nonce carried into the ID token) and token endpoints. `claims` are written over the ID
 * token's (undefined removes one); `foreignSignature` re-signs the ID token with a key the JWKS
 * does not hold (same `kid`); `userinfo` is what /userinfo answers. It names itself
 * `http://localhost:<port>` (the issuer URL to configure) and does not form-decode Basic client
 * credentials (RFC 6749 §2.3.1): give clients ids and secrets of letters and digits.
 */
export async function startFakeOidc() {
  const server = new OAuth2Server();
  await server.issuer.keys.generate('RS256');
  await server.start(0, '127.0.0.1');
  const issuer = server.issuer.url!;
  const state = {
    claims: {} as Claims,
    userinfo: { sub: 'nobody' } as Claims,
    foreignSignature: false,
    authorizeQueries: [] as URLSearchParams[],
    tokenAuthorizations: [] as Array<string | undefined>,
  };
  const foreign = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  server.service.on('beforeAuthorizeRedirect', (_redirect: { url: URL }, req: IncomingMessage) => {
    state.authorizeQueries.push(new URL(req.url ?? '', issuer).searchParams);
  });
  server.service.on('beforeTokenSigning', (token: { payload: Claims }) => {
    if ('scope' in token.payload) return; // the access token; the ID token has no scope
    for (const [k, v] of Object.entries(state.claims)) {
      if (v === undefined) delete token.payload[k];
      else token.payload[k] = v;
    }
  });
  server.service.on('beforeResponse', (res: { body: Record<string, unknown> }, req: IncomingMessage) => {
    state.tokenAuthorizations.push(req.headers.authorization);
    if (state.foreignSignature && typeof res.body.id_token === 'string') {
      const [header, payload] = res.body.id_token.split('.');
      const signature = sign('sha256', Buffer.from(`${header}.${payload}`), foreign).toString('base64url');
      res.body.id_token = `${header}.${payload}.${signature}`;
    }
  });
  server.service.on('beforeUserinfo', (res: { body: unknown }) => {
    res.body = state.userinfo;
  });
  return { issuer, state, close: () => server.stop() };
}
