import type { OAuthEndpoints } from '../../config.ts';
import { getJson, str, type OAuthProfile, type ProviderSpec } from './provider.ts';

/**
 * Discord: `/users/@me` with the `identify email` scopes, whose `verified` says whether the
 * e-mail is verified; the avatar is a hash on Discord's CDN.
 */
export function discord(e: OAuthEndpoints): ProviderSpec {
  return {
    authorizeUrl: e.discordAuthorizeUrl,
    tokenUrl: e.discordTokenUrl,
    scopes: ['identify', 'email'],
    async profile(tokens): Promise<OAuthProfile> {
      const user = (await getJson(e.discordUserUrl, tokens.accessToken())) as Record<string, unknown>;
      const id = str(user.id);
      if (!id) throw new Error('the /users/@me answer has no id');
      const avatar = str(user.avatar);
      return {
        issuer: '',
        id,
        email: str(user.email),
        emailVerified: user.verified === true,
        name: str(user.global_name) ?? str(user.username),
        avatar: avatar && /^[A-Za-z0-9_]+$/.test(avatar) ? `https://cdn.discordapp.com/avatars/${encodeURIComponent(id)}/${avatar}.png` : null,
      };
    },
  };
}
