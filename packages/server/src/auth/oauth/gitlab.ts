import type { OAuthEndpoints } from '../../config.ts';
import { getJson, httpUrl, str, type OAuthProfile, type ProviderSpec } from './provider.ts';

/**
 * GitLab (gitlab.com, or a self-managed instance through the OAUTH_GITLAB_* URLs) as an OpenID
 * Connect provider: `openid email profile` and the userinfo endpoint, whose `email_verified` is
 * GitLab's word on the primary e-mail. PKCE as for the others.
 */
export function gitlab(e: OAuthEndpoints): ProviderSpec {
  return {
    authorizeUrl: e.gitlabAuthorizeUrl,
    tokenUrl: e.gitlabTokenUrl,
    scopes: ['openid', 'email', 'profile'],
    async profile(tokens): Promise<OAuthProfile> {
      const info = (await getJson(e.gitlabUserinfoUrl, tokens.accessToken())) as Record<string, unknown>;
      const id = str(info.sub);
      if (!id) throw new Error('the userinfo answer has no sub');
      return {
        issuer: '',
        id,
        email: str(info.email),
        emailVerified: info.email_verified === true,
        name: str(info.name) ?? str(info.nickname),
        avatar: httpUrl(info.picture),
      };
    },
  };
}
