import { isHttpUrl } from '../../http/urls.ts';

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

/** One provider: its endpoints (from config, API.md §9), scopes, and how to read the profile. */
export interface ProviderSpec {
  authorizeUrl: string;
  tokenUrl: string;
  scopes: string[];
  profile(accessToken: string): Promise<OAuthProfile>;
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
