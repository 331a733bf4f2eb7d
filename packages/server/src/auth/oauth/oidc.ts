/**
 * The generic OpenID Connect provider of a database (API.md §2.1, `settings.oauth.oidc`), through
 * openid-client (panva's certified client on oauth4webapi): nothing here parses or checks a JWT by
 * hand.
 *
 * - Discovery: `<issuer>/.well-known/openid-configuration`; the document's `issuer` must be the
 *   configured one exactly. One client configuration per (issuer, client id, secret) is kept for
 *   an hour, at most 100 of them; a failed discovery is not kept.
 * - The ID token is checked whole: its signature by a key of the issuer's JWKS (kept 5 minutes,
 *   fetched again for an unknown `kid`), `iss`, `aud` (and `azp`), `exp`/`iat`, and `nonce`.
 * - The `nonce` is bound to the state like the PKCE verifier: it is derived from the verifier
 *   stored with the state (a SHA-256 of it, domain-separated from the PKCE challenge), so only the
 *   holder of that state row knows it, and it is used up with the state.
 * - A person is (issuer, `sub`) (OIDC Core §5.7): identities are kept with the issuer configured
 *   when they were linked, so changing the issuer never hands an account to whoever holds the
 *   same `sub` at the new one.
 * - The e-mail, `email_verified`, `name` and `picture` come from the ID token's claims; when the
 *   ID token carries no `email` (some providers keep it for userinfo), from the userinfo endpoint,
 *   whose `sub` must be the ID token's.
 * - An `http:` issuer is allowed (local development, a private network) and only then are plain
 *   HTTP requests allowed; there is no private-address guard as for webhooks: the issuer is set by
 *   an operator, not by an app's users.
 */

import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import * as client from 'openid-client';
import type { OidcSettings } from '../../databases/settings.ts';
import { tokenHash } from '../tokens.ts';
import { httpUrl, str, type OAuthProfile } from './provider.ts';

/** A configured provider: every field set. */
export type OidcClientSettings = { [K in 'issuer' | 'clientId' | 'clientSecret']: string } & { name: string | null };

/** The configured provider, or undefined when any of issuer, clientId and clientSecret is missing. */
export function oidcSettings(conf: OidcSettings | undefined): OidcClientSettings | undefined {
  if (!conf?.issuer || !conf.clientId || !conf.clientSecret) return undefined;
  return { issuer: conf.issuer, clientId: conf.clientId, clientSecret: conf.clientSecret, name: conf.name ?? null };
}

/** The `nonce` of a flow, from its PKCE verifier (see the file comment). */
export const nonceOf = (codeVerifier: string): string => createHash('sha256').update(`svc oidc nonce\0${codeVerifier}`).digest('base64url');

const SCOPE = 'openid email profile';
const TIMEOUT_SECONDS = 10;

/** What the callback received, as openid-client reads it (the issuer's `iss` included, RFC 9207). */
export interface OidcCallback {
  code: string;
  state: string;
  iss?: string;
}

export class OidcClients {
  private readonly configs = new LRUCache<string, Promise<client.Configuration>>({ max: 100, ttl: 60 * 60_000 });

  /** The client configuration of `conf`, discovered once per hour (throws when discovery fails). */
  async configuration(conf: OidcClientSettings): Promise<client.Configuration> {
    const key = `${conf.issuer}\n${conf.clientId}\n${tokenHash(conf.clientSecret)}`;
    let config = this.configs.get(key);
    if (!config) {
      config = this.discover(conf);
      this.configs.set(key, config);
      config.catch(() => {
        if (this.configs.peek(key) === config) this.configs.delete(key);
      });
    }
    return config;
  }

  private async discover(conf: OidcClientSettings): Promise<client.Configuration> {
    const insecure = new URL(conf.issuer).protocol === 'http:';
    const found = await client.discovery(new URL(conf.issuer), conf.clientId, undefined, client.None(), {
      timeout: TIMEOUT_SECONDS,
      // openid-client marks allowInsecureRequests deprecated only to make it stand out: http: issuers alone.
      execute: insecure ? [client.allowInsecureRequests] : [],
    });
    const metadata = found.serverMetadata();
    // client_secret_post where the issuer offers it (no room for the form-encoding differences of
    // Basic credentials among servers), else client_secret_basic, the default of the specification.
    const methods = metadata.token_endpoint_auth_methods_supported;
    const auth = methods?.includes('client_secret_post') ? client.ClientSecretPost(conf.clientSecret) : client.ClientSecretBasic(conf.clientSecret);
    const config = new client.Configuration(metadata, conf.clientId, conf.clientSecret, auth);
    config.timeout = TIMEOUT_SECONDS;
    if (insecure) client.allowInsecureRequests(config);
    client.enableNonRepudiationChecks(config); // the ID token's signature by the issuer's JWKS
    return config;
  }

  /** The issuer's authorization URL for a flow with this state and PKCE verifier. */
  async authorizationUrl(config: client.Configuration, redirectUri: string, state: string, codeVerifier: string): Promise<string> {
    return client
      .buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: SCOPE,
        state,
        nonce: nonceOf(codeVerifier),
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
      })
      .toString();
  }

  /**
   * Trades the code, validates the ID token, and reads the person from its claims (or userinfo).
   * The identity is (`issuer`, `sub`), `issuer` as configured (the ID token's `iss` was checked
   * against it): a `sub` alone names nobody once the database trusts another issuer.
   */
  async profile(config: client.Configuration, issuer: string, redirectUri: string, cb: OidcCallback, codeVerifier: string): Promise<OAuthProfile> {
    const current = new URL(redirectUri);
    current.searchParams.set('code', cb.code);
    current.searchParams.set('state', cb.state);
    if (cb.iss !== undefined) current.searchParams.set('iss', cb.iss);
    const tokens = await client
      .authorizationCodeGrant(config, current, {
        pkceCodeVerifier: codeVerifier,
        expectedState: cb.state,
        expectedNonce: nonceOf(codeVerifier),
        idTokenExpected: true,
      })
      .catch((e: unknown) => {
        throw withCause(e);
      });
    const claims = tokens.claims();
    if (!claims) throw new Error('the token answer has no ID token');
    let info: Record<string, unknown> = claims;
    if (str(claims.email) === null && config.serverMetadata().userinfo_endpoint) {
      info = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
    }
    return {
      issuer,
      id: claims.sub,
      email: str(info.email),
      emailVerified: info.email_verified === true || info.email_verified === 'true',
      name: str(info.name) ?? str(info.preferred_username) ?? str(claims.name),
      avatar: httpUrl(info.picture),
    };
  }
}

/**
 * openid-client's errors carry oauth4webapi's, whose message names the failed check (`unexpected
 * JWT "aud" (audience) claim value`): put it in the message, which is logged (it holds no token).
 */
function withCause(e: unknown): unknown {
  if (!(e instanceof Error) || !(e.cause instanceof Error) || e.cause.message === e.message) return e;
  return new Error(`${e.message}: ${e.cause.message}`, { cause: e });
}
