import type { OAuthEndpoints } from '../../config.ts';
import { getJson, httpUrl, str, type OAuthProfile, type ProviderSpec } from './provider.ts';

const API_HEADERS = { accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28' };

interface GitHubEmail {
  email: string;
  primary: boolean;
  verified: boolean;
}

/**
 * GitHub: `/user` for the id, name and avatar, `/user/emails` for the e-mail: the primary one,
 * with GitHub's word on whether it is verified (only a verified one may link to an existing
 * account). The public `email` of `/user` is whatever the user typed, and is ignored.
 */
export function github(e: OAuthEndpoints): ProviderSpec {
  return {
    authorizeUrl: e.githubAuthorizeUrl,
    tokenUrl: e.githubTokenUrl,
    scopes: ['read:user', 'user:email'],
    async profile(tokens): Promise<OAuthProfile> {
      const accessToken = tokens.accessToken();
      const [user, emails] = await Promise.all([
        getJson(`${e.githubApiUrl}/user`, accessToken, API_HEADERS) as Promise<Record<string, unknown>>,
        getJson(`${e.githubApiUrl}/user/emails`, accessToken, API_HEADERS) as Promise<unknown>,
      ]);
      if (typeof user.id !== 'number' && typeof user.id !== 'string') throw new Error('the /user answer has no id');
      const list = Array.isArray(emails) ? (emails as GitHubEmail[]) : [];
      const primary = list.find((m) => m && m.primary === true && typeof m.email === 'string');
      return {
        issuer: '',
        id: String(user.id),
        email: primary?.email ?? null,
        emailVerified: primary?.verified === true,
        name: str(user.name) ?? str(user.login),
        avatar: httpUrl(user.avatar_url),
      };
    },
  };
}
