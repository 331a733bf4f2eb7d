import type { OAuthEndpoints } from '../../config.ts';
import { getJson, httpUrl, str, type OAuthProfile, type ProviderSpec } from './provider.ts';

/** Google through OpenID Connect: the `openid email profile` scopes and the userinfo endpoint. */
export function google(e: OAuthEndpoints): ProviderSpec {
  return {
    authorizeUrl: e.googleAuthorizeUrl,
    tokenUrl: e.googleTokenUrl,
    scopes: ['openid', 'email', 'profile'],
    async profile(tokens): Promise<OAuthProfile> {
      const accessToken = tokens.accessToken();
      const info = (await getJson(e.googleUserinfoUrl, accessToken)) as Record<string, unknown>;
      const id = str(info.sub);
      if (!id) throw new Error('the userinfo answer has no sub');
      return {
        issuer: '',
        id,
        email: str(info.email),
        emailVerified: info.email_verified === true || info.email_verified === 'true',
        name: str(info.name),
        avatar: httpUrl(info.picture),
      };
    },
  };
}
