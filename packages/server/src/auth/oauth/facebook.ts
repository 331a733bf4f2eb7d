import type { OAuthEndpoints } from '../../config.ts';
import { getJson, httpUrl, str, type OAuthProfile, type ProviderSpec } from './provider.ts';

/**
 * Facebook: the Graph API's `/me` with `id,name,email,picture`. The client secret goes in the form
 * body and there is no PKCE, as in arctic's Facebook provider. Facebook says nothing about whether
 * the e-mail was confirmed, so it is taken as unverified (API.md §2: a new, unverified account,
 * never a link to an existing one).
 */
export function facebook(e: OAuthEndpoints): ProviderSpec {
  return {
    authorizeUrl: e.facebookAuthorizeUrl,
    tokenUrl: e.facebookTokenUrl,
    scopes: ['email', 'public_profile'],
    pkce: false,
    clientAuth: 'body',
    async profile(tokens): Promise<OAuthProfile> {
      const url = new URL(e.facebookUserUrl);
      url.searchParams.set('fields', 'id,name,email,picture.type(large)');
      const me = (await getJson(url.toString(), tokens.accessToken())) as Record<string, unknown>;
      const id = str(me.id);
      if (!id) throw new Error('the /me answer has no id');
      const picture = me.picture as { data?: { url?: unknown; is_silhouette?: unknown } } | undefined;
      return {
        issuer: '',
        id,
        email: str(me.email),
        emailVerified: false,
        name: str(me.name),
        avatar: picture?.data?.is_silhouette === true ? null : httpUrl(picture?.data?.url),
      };
    },
  };
}
