import { createPrivateKey } from 'node:crypto';
import { SignJWT } from 'jose';
import type { OAuthEndpoints } from '../../config.ts';
import type { ProviderSettings } from '../../databases/settings.ts';
import { idTokenClaims, str, type OAuthProfile, type ProviderSpec } from './provider.ts';

/** Apple checks the client secret JWT's audience against this, whatever the endpoints are. */
const APPLE_AUDIENCE = 'https://appleid.apple.com';

/**
 * The client secret of a token request, as Apple requires it (and arctic's Apple provider makes
 * it): an ES256 JWT signed with the key of the Apple developer account (`privateKey`, the PEM of
 * the .p8 file), `kid` its key id, `iss` the team id, `sub` the Services ID (`clientId`). It lives
 * 5 minutes: a new one is signed for every sign-in, so no long-lived secret is ever stored.
 */
export async function appleClientSecret(conf: ProviderSettings): Promise<string | undefined> {
  if (!conf.clientId || !conf.teamId || !conf.keyId || !conf.privateKey) return undefined;
  return new SignJWT({})
    .setProtectedHeader({ alg: 'ES256', kid: conf.keyId })
    .setIssuer(conf.teamId)
    .setSubject(conf.clientId)
    .setAudience(APPLE_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(createPrivateKey(conf.privateKey));
}

/**
 * Sign in with Apple. Asking for the e-mail makes Apple post the callback as a form
 * (`response_mode=form_post`), which apple-form-post.ts turns into the usual GET callback. The
 * person comes from the ID token: `sub`, `email` and `email_verified` (a "Hide My Email" relay
 * address is verified too; Apple sends the name once, in the form, and it is not kept). No PKCE,
 * as in arctic's Apple provider; the state and its browser binding guard the flow.
 */
export function apple(e: OAuthEndpoints): ProviderSpec {
  return {
    authorizeUrl: e.appleAuthorizeUrl,
    tokenUrl: e.appleTokenUrl,
    scopes: ['email'],
    authorizeParams: { response_mode: 'form_post' },
    pkce: false,
    clientAuth: 'body',
    requiredSettings: ['clientId', 'teamId', 'keyId', 'privateKey'],
    async credentials(conf) {
      const clientSecret = await appleClientSecret(conf);
      return clientSecret && conf.clientId ? { clientId: conf.clientId, clientSecret } : undefined;
    },
    async profile(tokens, clientId): Promise<OAuthProfile> {
      const claims = idTokenClaims(tokens, clientId);
      const id = str(claims.sub);
      if (!id) throw new Error('the ID token has no sub');
      return {
        issuer: '',
        id,
        email: str(claims.email),
        emailVerified: claims.email_verified === true || claims.email_verified === 'true',
        name: null,
        avatar: null,
      };
    },
  };
}
