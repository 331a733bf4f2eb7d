import type { OAuthEndpoints } from '../../config.ts';
import type { ProviderSettings } from '../../databases/settings.ts';
import { idTokenClaims, str, type OAuthProfile, type ProviderSpec } from './provider.ts';

/** `common`: work, school and personal Microsoft accounts; a tenant id or domain: that organisation only. */
const tenantOf = (conf: ProviderSettings): string => encodeURIComponent(conf.tenant || 'common');

/**
 * Microsoft (Entra ID) through its v2.0 endpoints, with PKCE; the person comes from the ID token.
 * Entra ID does not check the `email` claim: an administrator of any tenant can set any address
 * on an account, so the e-mail counts as verified only when the token carries `xms_edov: true`
 * (the optional "email domain owner verified" claim, docs/oauth.md). Otherwise the sign-in makes
 * an unverified account and never links to an existing one (API.md §2), which closes "nOAuth".
 */
export function microsoft(e: OAuthEndpoints): ProviderSpec {
  return {
    authorizeUrl: (conf) => e.microsoftAuthorizeUrl.replace('{tenant}', tenantOf(conf)),
    tokenUrl: (conf) => e.microsoftTokenUrl.replace('{tenant}', tenantOf(conf)),
    scopes: ['openid', 'email', 'profile'],
    async profile(tokens, clientId): Promise<OAuthProfile> {
      const claims = idTokenClaims(tokens, clientId);
      const id = str(claims.sub);
      if (!id) throw new Error('the ID token has no sub');
      return {
        issuer: '',
        id,
        email: str(claims.email),
        emailVerified: claims.xms_edov === true || claims.xms_edov === 'true' || claims.xms_edov === 1,
        name: str(claims.name) ?? str(claims.preferred_username),
        avatar: null,
      };
    },
  };
}
