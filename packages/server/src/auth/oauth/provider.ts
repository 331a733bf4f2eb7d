import { OAuth2Tokens, decodeIdToken } from 'arctic';
import { isHttpUrl } from '../../http/urls.ts';
import type { ProviderSettings } from '../../databases/settings.ts';

/** What a provider tells about the person who signed in. */
export interface OAuthProfile {
  /**
   * Who vouches for `id`: an OpenID Connect issuer (OIDC Core §5.7: a user is the pair of `iss`
   * and `sub`, and `sub` is unique only within its issuer); '' for Google and GitHub, whose ids
   * are their own.
   */
  issuer: string;
  /** The provider's stable user id. */
  id: string;
  email: string | null;
  /** Only a verified e-mail may create or link an account. */
  emailVerified: boolean;
  name: string | null;
  avatar: string | null;
}

/** The client id and secret a provider's token endpoint takes, from the database's settings. */
export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

/** One provider: its endpoints (from config, API.md §9), scopes, and how to read the profile. */
export interface ProviderSpec {
  /** `conf`: the database's settings of the provider (Microsoft puts its tenant in the URLs). */
  authorizeUrl: string | ((conf: ProviderSettings) => string);
  tokenUrl: string | ((conf: ProviderSettings) => string);
  scopes: string[];
  /** Extra query parameters of the authorization URL (Apple's `response_mode=form_post`). */
  authorizeParams?: Record<string, string>;
  /** False where the provider takes no PKCE (Apple, Facebook: as arctic's providers for them do). */
  pkce?: boolean;
  /** Where the client credentials go: HTTP Basic (the default, RFC 6749 §2.3.1) or the form body. */
  clientAuth?: 'basic' | 'body';
  /** The credentials from the settings, or undefined while any is missing (Apple: a client secret JWT made here). */
  credentials?(conf: ProviderSettings): Promise<ClientCredentials | undefined>;
  /** The keys to name when the provider is not configured (default clientId, clientSecret). */
  requiredSettings?: string[];
  profile(tokens: OAuth2Tokens, clientId: string): Promise<OAuthProfile>;
}

/** A setting of a provider's URL, with `conf` filled in. */
export const endpoint = (url: ProviderSpec['authorizeUrl'], conf: ProviderSettings): string => (typeof url === 'string' ? url : url(conf));

/**
 * The token request with the client credentials in the form body (client_secret_post), for the
 * providers that take no Basic credentials (Apple, Facebook). arctic's OAuth2Client sends Basic
 * only, and its providers for these two have fixed endpoints (no self-hosting, no test server),
 * so this one request is written here; arctic still parses the answer (OAuth2Tokens).
 */
export async function tokenRequestWithBodyCredentials(
  tokenUrl: string,
  c: ClientCredentials,
  form: { code: string; redirectUri: string; codeVerifier: string | null },
): Promise<OAuth2Tokens> {
  const body = new URLSearchParams({
    grant_type: 'authorization_code',
    code: form.code,
    redirect_uri: form.redirectUri,
    client_id: c.clientId,
    client_secret: c.clientSecret,
  });
  if (form.codeVerifier !== null) body.set('code_verifier', form.codeVerifier);
  const res = await fetch(tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', 'user-agent': 'svc' },
    body,
    signal: AbortSignal.timeout(10_000),
  });
  const data = (await res.json().catch(() => null)) as Record<string, unknown> | null;
  if (!res.ok || !data || typeof data !== 'object' || typeof data.access_token !== 'string')
    throw new Error(`the token endpoint answered ${res.status}${data && typeof data.error === 'string' ? ` ${data.error.slice(0, 64)}` : ''}`);
  return new OAuth2Tokens(data);
}

/**
 * The claims of the ID token of a token answer (Apple, Microsoft). It came straight from the
 * provider's token endpoint over TLS, in answer to this client's credentials, so OpenID Connect
 * Core §3.1.3.7 lets TLS stand in for its signature; its audience must still be this client.
 */
export function idTokenClaims(tokens: OAuth2Tokens, clientId: string): Record<string, unknown> {
  const claims = decodeIdToken(tokens.idToken()) as Record<string, unknown>;
  const aud = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!aud.includes(clientId)) throw new Error('the ID token is for another client');
  return claims;
}

/** GET a JSON resource of a provider's API with the user's access token (10 s time-out). */
export async function getJson(url: string, accessToken: string, headers: Record<string, string> = {}): Promise<unknown> {
  const res = await fetch(url, {
    headers: { accept: 'application/json', authorization: `Bearer ${accessToken}`, 'user-agent': 'svc', ...headers },
    signal: AbortSignal.timeout(10_000),
  });
  if (!res.ok) {
    await res.body?.cancel();
    throw new Error(`${new URL(url).pathname} answered ${res.status}`);
  }
  return res.json();
}

export const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** An http(s) URL, or null (avatars must be http(s) URLs, API.md §2). */
export function httpUrl(v: unknown): string | null {
  const s = str(v);
  if (!s) return null;
  return isHttpUrl(s) ? s : null;
}
