import { SvcError } from './errors.js';
import type { CallOptions, Http, SendOptions } from './http.js';
import type { AuthChangeEvent, AuthStateListener, UserSession } from './session.js';
import { toStored, type StoredSession } from './session-store.js';
import { MfaService } from './mfa.js';
import { PasskeyService } from './passkeys.js';
import type {
  AuthResult,
  ChangePasswordParams,
  ConfirmEmailParams,
  DeleteAccountParams,
  ForgotPasswordParams,
  MagicLinkParams,
  OAuthProvider,
  ResetPasswordParams,
  SignInParams,
  SignInResult,
  SignUpParams,
  SignUpResult,
  UpdateUserParams,
  User,
  VerifyEmailParams,
  VerifyMagicLinkParams,
} from './types.js';

export type { AuthChangeEvent, AuthStateListener } from './session.js';

/** Options of `handleRedirect`. */
export interface RedirectOptions {
  /** The address to read (default: the browser's current `location.href`). */
  url?: string;
  /** Remove `token`/`error` from the address bar with history.replaceState (default true in browsers). */
  replaceState?: boolean;
  signal?: AbortSignal;
}

/**
 * End-user accounts (API.md §2). The session token is kept in the client's SessionStore and sent
 * as X-Session-Token by the calls that act as the signed-in user.
 */
export class AuthService {
  /** Second factors of the signed-in user, and the second step of a sign-in (§2.2). */
  readonly mfa: MfaService;
  /** Passkeys: register, sign in with one, list, remove (§2.2; browsers). */
  readonly passkeys: PasskeyService;

  constructor(
    private readonly http: Http,
    private readonly session: UserSession,
    private readonly key: string,
  ) {
    this.mfa = new MfaService(http, session);
    this.passkeys = new PasskeyService(http, session);
  }

  /** The stored session (token, expiry and last known user), or null when signed out. */
  getSession(): Promise<StoredSession | null> {
    return this.session.get();
  }

  /**
   * Calls `listener` on every sign-in, sign-out, refresh and profile change, and once at the start
   * with `INITIAL_SESSION`. Returns a function that stops listening.
   */
  onAuthStateChange(listener: AuthStateListener): () => void {
    return this.session.listen(listener);
  }

  /**
   * Creates an account and signs it in. 409 `conflict` when the e-mail is taken, 400
   * `weak_password`, 403 `signup_disabled` when the app turned sign-up off. When the app requires
   * a verified e-mail, `session` is null and nothing is stored: a verification link was mailed
   * (to `redirectUrl` or the app's siteUrl); sign in once it was used (`confirmEmail`).
   */
  async signUp(params: SignUpParams, opts?: CallOptions): Promise<SignUpResult> {
    const result = await this.http.send<SignUpResult>({ method: 'POST', path: '/auth/sign-up', body: params, signal: opts?.signal });
    if (result.session) await this.session.set(toStored({ user: result.user, session: result.session }), 'SIGNED_IN');
    return result;
  }

  /**
   * Signs in with e-mail and password; 401 `invalid_credentials` when either is wrong. With a
   * second factor nothing is stored yet and the answer carries `mfa`: complete it with
   * `auth.mfa.challenge(result.mfa, { code })`.
   */
  signIn(params: SignInParams, opts?: CallOptions): Promise<SignInResult> {
    return this.firstStep({ method: 'POST', path: '/auth/sign-in', body: params, signal: opts?.signal }, 'SIGNED_IN');
  }

  /** Ends the session on the server and forgets it locally (also when the server already ended it). */
  async signOut(opts?: CallOptions): Promise<void> {
    const session = await this.getSession();
    if (!session) return;
    try {
      await this.session.sendWith(session, { method: 'POST', path: '/auth/sign-out', signal: opts?.signal });
    } catch (e) {
      if (!(e instanceof SvcError && e.code === 'invalid_session')) throw e;
    }
    await this.session.set(null, 'SIGNED_OUT');
  }

  /** The signed-in user, fresh from the server (401 `invalid_session` signs out locally). */
  getUser(opts?: CallOptions): Promise<User>;
  /**
   * The user of another session token: a backend (with its secret key) checking the session a
   * browser sent it. 401 `invalid_session` when the token is unknown, expired or of another
   * database; the client's own stored session is neither used nor changed.
   *
   * @example const user = await svc.auth.getUser(request.headers['x-session-token'])
   */
  getUser(sessionToken: string, opts?: CallOptions): Promise<User>;
  async getUser(tokenOrOpts?: string | CallOptions, maybeOpts?: CallOptions): Promise<User> {
    if (typeof tokenOrOpts === 'string') {
      const req = { method: 'GET', path: '/auth/me', headers: { 'x-session-token': tokenOrOpts }, signal: maybeOpts?.signal } as const;
      return (await this.http.send<{ user: User }>(req)).user;
    }
    const { user } = await this.session.send<{ user: User }>({ method: 'GET', path: '/auth/me', signal: tokenOrOpts?.signal });
    await this.session.patch({ user });
    return user;
  }

  /** Changes the user's `name` and/or `avatar` (an http(s) URL; null removes it). */
  async updateUser(params: UpdateUserParams, opts?: CallOptions): Promise<User> {
    const { user } = await this.session.send<{ user: User }>({ method: 'PATCH', path: '/auth/me', body: params, signal: opts?.signal });
    await this.session.patch({ user }, 'USER_UPDATED');
    return user;
  }

  /** Moves the session's expiry to now + its lifetime (same token). */
  refresh(opts?: CallOptions): Promise<AuthResult> {
    return this.signInWith({ method: 'POST', path: '/auth/refresh', signal: opts?.signal }, 'TOKEN_REFRESHED', true);
  }

  /** Changes the password; ends every other session of the user (this one stays). */
  async changePassword(params: ChangePasswordParams, opts?: CallOptions): Promise<void> {
    await this.session.send({ method: 'POST', path: '/auth/change-password', body: params, signal: opts?.signal });
  }

  /**
   * Mails an e-mail-verification link (valid 24 hours) to `redirectUrl` or the app's siteUrl:
   * for the signed-in user, or without a session for `email`. Always resolves (202) whether or
   * not such an unverified account exists; a disallowed `redirectUrl` → 400 `redirect_url_not_allowed`.
   */
  async verifyEmail(params: VerifyEmailParams = {}, opts?: CallOptions): Promise<void> {
    await this.session.send({ method: 'POST', path: '/auth/verify-email', body: params, signal: opts?.signal });
  }

  /**
   * Marks the e-mail verified with the `email` and `token` of a verification link (single use;
   * 401 `invalid_token` when wrong, used or expired). An account with a password also gives
   * `password` (missing or wrong → 400 `invalid_current_password`, and the link stays usable):
   * only whoever chose the password can have the address verified. Sessions stay as they are: a
   * stored one sees the verified user; without one, sign in now.
   */
  async confirmEmail(params: ConfirmEmailParams, opts?: CallOptions): Promise<User> {
    const { user } = await this.http.send<{ user: User }>({ method: 'POST', path: '/auth/verify-email/confirm', body: params, signal: opts?.signal });
    const stored = await this.session.get();
    if (stored?.user?.id === user.id) await this.session.patch({ user }, 'USER_UPDATED');
    return user;
  }

  /**
   * Deletes the signed-in account, with its sessions and linked providers (its documents stay),
   * and forgets the stored session. An account with a password must give it (wrong or missing →
   * 400 `invalid_current_password`; 10 failures per 15 minutes → 429).
   */
  async deleteAccount(params: DeleteAccountParams = {}, opts?: CallOptions): Promise<void> {
    const session = await this.getSession();
    if (!session) throw new SvcError({ status: 401, code: 'invalid_session', message: 'Not signed in: there is no account to delete' });
    await this.session.sendWith(session, { method: 'DELETE', path: '/auth/me', body: params, signal: opts?.signal });
    await this.session.set(null, 'SIGNED_OUT');
  }

  /** Mails a reset link (always 202, whether or not the account exists). */
  async forgotPassword(params: ForgotPasswordParams, opts?: CallOptions): Promise<void> {
    await this.http.send({ method: 'POST', path: '/auth/forgot-password', body: params, signal: opts?.signal });
  }

  /** Sets a new password with the `token` and `email` of a reset link; ends every session of the user. */
  async resetPassword(params: ResetPasswordParams, opts?: CallOptions): Promise<void> {
    await this.http.send({ method: 'POST', path: '/auth/reset-password', body: params, signal: opts?.signal });
  }

  /** Mails a sign-in link to `redirectUrl` (always 202). */
  async sendMagicLink(params: MagicLinkParams, opts?: CallOptions): Promise<void> {
    await this.http.send({ method: 'POST', path: '/auth/magic-link', body: params, signal: opts?.signal });
  }

  /** Signs in with the `token` and `email` of a magic link (creates the user if none exists); may answer `mfa` as `signIn`. */
  verifyMagicLink(params: VerifyMagicLinkParams, opts?: CallOptions): Promise<SignInResult> {
    return this.firstStep({ method: 'POST', path: '/auth/magic-link/verify', body: params, signal: opts?.signal }, 'SIGNED_IN');
  }

  /**
   * The address that starts an OAuth sign-in with `'google'`, `'github'`, `'apple'`,
   * `'microsoft'`, `'discord'`, `'gitlab'`, `'facebook'`, `'x'` (docs/oauth.md) or `'oidc'` (the
   * database's OpenID Connect provider, `settings.oauth.oidc`): navigate the browser there. It
   * carries the PUBLIC key in its query (the server refuses a secret key there), so build the
   * client with a public key.
   *
   * @example location.assign(client.auth.oauthUrl('github', location.origin + '/after-login'))
   * @example location.assign(client.auth.oauthUrl('oidc', location.origin + '/after-login'))
   */
  oauthUrl(provider: OAuthProvider, redirectUrl: string): string {
    if (!this.key.startsWith('svc_pk_')) {
      throw new SvcError({ status: 0, code: 'public_key_required', message: 'oauthUrl puts the key in a URL: create the client with a public key (svc_pk_…)' });
    }
    return this.http.url(`/auth/oauth/${encodeURIComponent(provider)}`, { key: this.key, redirectUrl });
  }

  /**
   * After an OAuth redirect: reads `?token=` (or `?error=`, or `?mfa_token=` when a second step is
   * due: then the answer carries `mfa`) from the current address, removes it from the address bar,
   * stores the session and returns the user. Resolves null when the address carries none; rejects with an SvcError whose `code` is the server's when it carries `error`.
   * Links from e-mails (which also carry `email`) are left alone: see verifyMagicLink/resetPassword.
   */
  async handleRedirect(opts: RedirectOptions = {}): Promise<SignInResult | null> {
    const href = opts.url ?? globalThis.location?.href;
    if (!href) return null;
    const u = new URL(href);
    const token = u.searchParams.get('token');
    const error = u.searchParams.get('error');
    const mfaToken = u.searchParams.get('mfa_token');
    if ((token === null && error === null && mfaToken === null) || u.searchParams.has('email')) return null;
    u.searchParams.delete('token');
    u.searchParams.delete('error');
    u.searchParams.delete('mfa_token');
    const history = globalThis.history;
    if ((opts.replaceState ?? opts.url === undefined) && history?.replaceState) history.replaceState(history.state, '', u.toString());
    if (error !== null) throw new SvcError({ status: 0, code: error, message: `OAuth sign-in failed: ${error}` });
    // The mfaToken lives 5 minutes from the callback; the address does not say when that was.
    if (mfaToken !== null) return { user: null, session: null, mfa: { token: mfaToken, expiresAt: '' } };
    await this.session.set({ token: token!, expiresAt: '', user: null });
    // refresh answers user and expiry in one call and proves the token works; if it fails for a
    // network reason the token stays stored, so calling refresh() later completes the sign-in.
    return this.signInWith({ method: 'POST', path: '/auth/refresh', signal: opts.signal }, 'SIGNED_IN', true);
  }

  /** A sign-in that may wait for a second step: stores the session only when there is one. */
  private async firstStep(req: SendOptions, event: AuthChangeEvent): Promise<SignInResult> {
    const result = await this.http.send<SignInResult>(req);
    if (!result.mfa) await this.session.set(toStored(result), event);
    return result;
  }

  private async signInWith(req: SendOptions, event: AuthChangeEvent, asUser = false): Promise<AuthResult> {
    const result = asUser ? await this.session.send<AuthResult>(req) : await this.http.send<AuthResult>(req);
    await this.session.set(toStored(result), event);
    return result;
  }
}
