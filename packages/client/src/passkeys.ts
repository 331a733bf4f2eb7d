import type { CallOptions, Http } from './http.js';
import type { UserSession } from './session.js';
import { toStored } from './session-store.js';
import type { AuthResult, Passkey } from './types.js';

/** The JSON options and answers of a WebAuthn ceremony, passed through as the server and the browser library give them. */
type WebAuthnJson = Record<string, unknown>;

/**
 * @simplewebauthn/browser, loaded on first use: an optional peer dependency (`npm install
 * @simplewebauthn/browser`), so apps without passkeys install and load nothing more.
 */
async function webauthn() {
  try {
    return await import('@simplewebauthn/browser');
  } catch {
    throw new Error('Passkeys need the @simplewebauthn/browser package: npm install @simplewebauthn/browser');
  }
}

/**
 * Passkeys (API.md §2.2) in a browser, through @simplewebauthn/browser: register one for the
 * signed-in user, sign in with one (a complete sign-in: never a second step), list and remove.
 */
export class PasskeyService {
  constructor(
    private readonly http: Http,
    private readonly session: UserSession,
  ) {}

  /**
   * Asks the browser to create a passkey and registers it. Needs a verified e-mail and a session
   * younger than 10 minutes (403); a refused ceremony → 401 `invalid_credentials`.
   */
  async register(params: { name?: string } = {}, opts?: CallOptions): Promise<Passkey> {
    const { startRegistration } = await webauthn();
    const optionsJSON = await this.session.send<WebAuthnJson>({ method: 'POST', path: '/auth/passkeys/register/options', signal: opts?.signal });
    const response = await startRegistration({ optionsJSON: optionsJSON as never });
    const r = await this.session.send<{ passkey: Passkey }>({
      method: 'POST',
      path: '/auth/passkeys/register',
      body: { response, ...params },
      signal: opts?.signal,
    });
    return r.passkey;
  }

  /** Signs in with a passkey the browser offers for this site (no e-mail asked); stores the session. */
  async signIn(opts?: CallOptions): Promise<AuthResult> {
    const { startAuthentication } = await webauthn();
    const { challengeId, options } = await this.http.send<{ challengeId: string; options: WebAuthnJson }>({
      method: 'POST',
      path: '/auth/passkeys/sign-in/options',
      signal: opts?.signal,
    });
    const response = await startAuthentication({ optionsJSON: options as never });
    const result = await this.http.send<AuthResult>({ method: 'POST', path: '/auth/passkeys/sign-in', body: { challengeId, response }, signal: opts?.signal });
    await this.session.set(toStored(result), 'SIGNED_IN');
    return result;
  }

  /** The signed-in user's passkeys. */
  async list(opts?: CallOptions): Promise<Passkey[]> {
    return (await this.session.send<{ passkeys: Passkey[] }>({ method: 'GET', path: '/auth/passkeys', signal: opts?.signal })).passkeys;
  }

  /** Removes one of the signed-in user's passkeys. */
  async remove(id: string, opts?: CallOptions): Promise<void> {
    await this.session.send({ method: 'DELETE', path: `/auth/passkeys/${encodeURIComponent(id)}`, signal: opts?.signal });
  }
}
