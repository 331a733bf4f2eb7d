import { CodeChallengeMethod, OAuth2Client, generateCodeVerifier } from 'arctic';
import type { FastifyBaseLogger } from 'fastify';
import type { OAuthEndpoints } from '../../config.ts';
import { getDatabase, getSettings } from '../../databases/databases.ts';
import type { OAuthProvider, ProviderSettings } from '../../databases/settings.ts';
import { ApiError } from '../../errors.ts';
import type { Clock } from '../../infra/clock.ts';
import { resolveKey } from '../../keys/keys.ts';
import { KEY_PREFIX } from '../../keys/key-format.ts';
import type { Store } from '../../store/store.ts';
import { checkRedirectUrl, withQuery } from '../redirects.ts';
import type { Sessions } from '../sessions.ts';
import type { SignInGate } from '../mfa/gate.ts';
import { OAuthRefusal, accountForIdentity, type OAuthErrorCode } from './identities.ts';
import { endpoint, tokenRequestWithBodyCredentials, type ClientCredentials, type OAuthProfile, type ProviderSpec } from './provider.ts';
import { apple } from './apple.ts';
import { discord } from './discord.ts';
import { facebook } from './facebook.ts';
import { github } from './github.ts';
import { gitlab } from './gitlab.ts';
import { google } from './google.ts';
import { microsoft } from './microsoft.ts';
import { x } from './x.ts';
import { bindingCookie, clearedBindingCookie, isBound } from './browser-binding.ts';
import { OidcClients, oidcSettings } from './oidc.ts';
import { createState, findState, useUpState, type OAuthState } from './state.ts';

type PlainProvider = Exclude<OAuthProvider, 'oidc'>;

/** A provider configured for a database: its settings and the credentials they give. */
interface Configured {
  conf: ProviderSettings;
  credentials: ClientCredentials;
}

/**
 * The state of a callback is unknown, used or expired: there is no trusted address to send the
 * browser to, so API.md §2 pins a plain 400 `invalid_token` (the catalogue's is otherwise 401).
 */
const unknownState = () => new ApiError('invalid_token', 'The OAuth state is unknown, used or expired; start the sign-in again', undefined, undefined, 400);

/** What a provider sends back to the callback. */
export interface CallbackQuery {
  code?: string;
  state?: string;
  error?: string;
  /** OpenID Connect: the issuer names itself (RFC 9207). */
  iss?: string;
}

/** Where to send the browser, and the Set-Cookie value that goes with it (the state's browser binding). */
export interface BrowserStep {
  location: string;
  cookie?: string;
}

/**
 * The authorization-code flow with PKCE (arctic's generic OAuth2Client, so every endpoint comes
 * from config). `start` checks the public key and the redirect URL, stores a single-use state
 * bound to both, and points the browser at the provider; the route binds the state to the
 * browser (browser-binding.ts). `callback` checks that binding, uses the state up, trades the
 * code, reads the profile, finds or makes the account and sends the browser back with a session
 * token, or with `?error=<code>` once the redirect URL is trusted. The OpenID Connect provider
 * (oidc.ts) takes its endpoints from the issuer's discovery document and signs in with the
 * claims of a validated ID token instead.
 */
export class OAuthFlow {
  private readonly specs: Record<PlainProvider, ProviderSpec>;
  private readonly oidc = new OidcClients();
  constructor(
    private readonly d: {
      store: Store;
      clock: Clock;
      sessions: Sessions;
      gate: SignInGate;
      endpoints: OAuthEndpoints;
      publicUrl: string;
      log: FastifyBaseLogger;
    },
  ) {
    const e = d.endpoints;
    this.specs = {
      google: google(e),
      github: github(e),
      apple: apple(e),
      microsoft: microsoft(e),
      discord: discord(e),
      gitlab: gitlab(e),
      facebook: facebook(e),
      x: x(e),
    };
  }

  private callbackUrl(provider: OAuthProvider): string {
    return `${this.d.publicUrl}/v1/auth/oauth/${provider}/callback`;
  }

  /** The provider's settings and client credentials for the database, or undefined while any is missing. */
  private async configured(databaseId: string, provider: PlainProvider): Promise<Configured | undefined> {
    const conf = (await getSettings(this.d.store, databaseId)).oauth[provider];
    if (!conf) return undefined;
    const spec = this.specs[provider];
    const credentials = spec.credentials
      ? await spec.credentials(conf)
      : conf.clientId && conf.clientSecret
        ? { clientId: conf.clientId, clientSecret: conf.clientSecret }
        : undefined;
    return credentials && { conf, credentials };
  }

  /** Secure cookies when users reach the service over https. */
  private get secureCookies(): boolean {
    return this.d.publicUrl.startsWith('https:');
  }

  /** The provider's authorization URL for a new sign-in, and the cookie that binds its state to this browser. */
  async start(provider: OAuthProvider, key: string | undefined, redirectUrl: string): Promise<BrowserStep> {
    if (!key) throw new ApiError('missing_api_key', 'Pass your public key as ?key=svc_pk_…');
    if (key.startsWith(KEY_PREFIX.secret)) {
      throw new ApiError('validation_failed', 'A secret key must never be put in a URL; pass the public key as ?key=', [
        { path: '/key', message: 'must be a public key' },
      ]);
    }
    const principal = await resolveKey(this.d.store, this.d.clock, key);
    if (!principal) throw new ApiError('invalid_api_key', 'The API key is unknown or revoked');
    const { databaseId } = principal;
    const db = await getDatabase(this.d.store, databaseId);
    const target = checkRedirectUrl(redirectUrl, db.settings.redirectUrls).toString();
    if (provider === 'oidc') return this.startOidc(databaseId, target);
    const spec = this.specs[provider];
    const found = await this.configured(databaseId, provider);
    if (!found) {
      const keys = (spec.requiredSettings ?? ['clientId', 'clientSecret']).join(', ');
      throw new ApiError('validation_failed', `Sign-in with ${provider} is not configured for this database (settings.oauth.${provider}: ${keys})`);
    }
    const codeVerifier = generateCodeVerifier();
    const state = await createState(this.d.store, this.d.clock, { databaseId, provider, redirectUrl: target, codeVerifier });
    const client = new OAuth2Client(found.credentials.clientId, null, this.callbackUrl(provider));
    const authorizeUrl = endpoint(spec.authorizeUrl, found.conf);
    const url =
      spec.pkce === false
        ? client.createAuthorizationURL(authorizeUrl, state, spec.scopes)
        : client.createAuthorizationURLWithPKCE(authorizeUrl, state, CodeChallengeMethod.S256, codeVerifier, spec.scopes);
    for (const [k, v] of Object.entries(spec.authorizeParams ?? {})) url.searchParams.set(k, v);
    return { location: url.toString(), cookie: bindingCookie(state, this.secureCookies) };
  }

  /**
   * Where to send the browser after the provider: `redirectUrl?token=` or `redirectUrl?error=`.
   * `cookieHeader` is the callback's Cookie header: without the state's browser binding the
   * answer is `?error=invalid_state` and the state stays usable by the browser that has it.
   * An unknown, used or expired state (or one of another provider) → 400 `invalid_token`.
   */
  async callback(provider: OAuthProvider, q: CallbackQuery, cookieHeader: string | undefined): Promise<BrowserStep> {
    const s = q.state ? await findState(this.d.store, this.d.clock, q.state) : undefined;
    if (!q.state || !s) throw unknownState();
    if (!isBound(cookieHeader, q.state)) {
      this.d.log.warn({ provider, databaseId: s.databaseId }, 'OAuth callback without the browser binding of its state');
      const code: OAuthErrorCode = 'invalid_state';
      return { location: withQuery(s.redirectUrl, { error: code }) };
    }
    if (!(await useUpState(this.d.store, q.state)) || s.provider !== provider) throw unknownState();
    return { location: await this.signIn(provider, s, q), cookie: clearedBindingCookie(q.state, this.secureCookies) };
  }

  /** The rest of a callback with a valid state: any failure comes back as `redirectUrl?error=<code>`. */
  private async signIn(provider: OAuthProvider, s: OAuthState, q: CallbackQuery): Promise<string> {
    try {
      if (q.error)
        throw new OAuthRefusal(q.error === 'access_denied' ? 'access_denied' : 'provider_error', `${provider} answered error=${q.error.slice(0, 64)}`);
      if (!q.code) throw new OAuthRefusal('provider_error', `${provider} sent no code`);
      const profile = provider === 'oidc' ? await this.oidcProfile(s, q.code, q) : await this.oauth2Profile(provider, s, q.code);
      const user = await accountForIdentity(this.d.store, this.d.clock, this.d.sessions, s.databaseId, provider, profile);
      // With a verified second factor the app gets ?mfa_token= and no session (API.md §2.2).
      const signedIn = await this.d.gate.signIn(this.d.store, s.databaseId, user);
      return withQuery(s.redirectUrl, signedIn.session ? { token: signedIn.session.token } : { mfa_token: signedIn.mfa.token });
    } catch (e) {
      const code: OAuthErrorCode = e instanceof OAuthRefusal ? e.code : 'provider_error';
      // The message only: errors of the token exchange can quote the request, never log tokens.
      this.d.log.warn({ provider, databaseId: s.databaseId, code, reason: e instanceof Error ? e.message : String(e) }, 'OAuth sign-in failed');
      return withQuery(s.redirectUrl, { error: code });
    }
  }

  /** The OAuth 2 providers: trade the code at the configured token URL, read the profile from the tokens. */
  private async oauth2Profile(provider: PlainProvider, s: OAuthState, code: string): Promise<OAuthProfile> {
    const found = await this.configured(s.databaseId, provider);
    if (!found) throw new OAuthRefusal('provider_not_configured', `sign-in with ${provider} is no longer configured`);
    const spec = this.specs[provider];
    const { clientId, clientSecret } = found.credentials;
    const tokenUrl = endpoint(spec.tokenUrl, found.conf);
    const codeVerifier = spec.pkce === false ? null : s.codeVerifier;
    const tokens =
      spec.clientAuth === 'body'
        ? await tokenRequestWithBodyCredentials(tokenUrl, found.credentials, { code, redirectUri: this.callbackUrl(provider), codeVerifier })
        : await new OAuth2Client(clientId, clientSecret, this.callbackUrl(provider)).validateAuthorizationCode(tokenUrl, code, codeVerifier);
    return spec.profile(tokens, clientId);
  }

  /** The database's OpenID Connect provider (oidc.ts), when issuer, client id and secret are set. */
  private async oidcClient(databaseId: string) {
    return oidcSettings((await getSettings(this.d.store, databaseId)).oauth.oidc);
  }

  /**
   * Starts an OpenID Connect sign-in: discovery first (kept for an hour), then a state as for the
   * others, whose PKCE verifier also yields the `nonce`. A discovery that fails sends the browser
   * back to the (already checked) redirect URL with `?error=provider_error`, creating no state.
   */
  private async startOidc(databaseId: string, target: string): Promise<BrowserStep> {
    const conf = await this.oidcClient(databaseId);
    if (!conf)
      throw new ApiError('validation_failed', 'Sign-in with oidc is not configured for this database (settings.oauth.oidc: issuer, clientId, clientSecret)');
    let config: Awaited<ReturnType<OidcClients['configuration']>>;
    try {
      config = await this.oidc.configuration(conf);
    } catch (e) {
      const code: OAuthErrorCode = 'provider_error';
      this.d.log.warn({ provider: 'oidc', databaseId, code, reason: e instanceof Error ? e.message : String(e) }, 'OpenID Connect discovery failed');
      return { location: withQuery(target, { error: code }) };
    }
    const codeVerifier = generateCodeVerifier();
    const state = await createState(this.d.store, this.d.clock, { databaseId, provider: 'oidc', redirectUrl: target, codeVerifier });
    const location = await this.oidc.authorizationUrl(config, this.callbackUrl('oidc'), state, codeVerifier);
    return { location, cookie: bindingCookie(state, this.secureCookies) };
  }

  /** OpenID Connect: the code traded, the ID token validated (signature, iss, aud, exp, nonce), the person read. */
  private async oidcProfile(s: OAuthState, code: string, q: CallbackQuery): Promise<OAuthProfile> {
    const conf = await this.oidcClient(s.databaseId);
    if (!conf) throw new OAuthRefusal('provider_not_configured', 'sign-in with oidc is no longer configured');
    const config = await this.oidc.configuration(conf);
    return this.oidc.profile(config, conf.issuer, this.callbackUrl('oidc'), { code, state: q.state ?? '', iss: q.iss }, s.codeVerifier);
  }
}
