import type { OAuthEndpoints } from '../../config.ts';
import { getJson, httpUrl, str, type OAuthProfile, type ProviderSpec } from './provider.ts';

/**
 * X (Twitter) through OAuth 2.0 with PKCE: `/2/users/me`. X gives an e-mail only with the
 * `users.email` scope (to apps allowed to ask for it), as `confirmed_email`: confirmed, so
 * verified. An X account without one cannot sign in (`?error=email_not_verified`).
 */
export function x(e: OAuthEndpoints): ProviderSpec {
  return {
    authorizeUrl: e.xAuthorizeUrl,
    tokenUrl: e.xTokenUrl,
    scopes: ['users.read', 'tweet.read', 'users.email'],
    async profile(tokens): Promise<OAuthProfile> {
      const url = new URL(e.xUserUrl);
      url.searchParams.set('user.fields', 'profile_image_url,confirmed_email');
      const answer = (await getJson(url.toString(), tokens.accessToken())) as { data?: Record<string, unknown> };
      const user = answer.data ?? {};
      const id = str(user.id);
      if (!id) throw new Error('the /2/users/me answer has no data.id');
      const email = str(user.confirmed_email);
      return { issuer: '', id, email, emailVerified: email !== null, name: str(user.name) ?? str(user.username), avatar: httpUrl(user.profile_image_url) };
    },
  };
}
