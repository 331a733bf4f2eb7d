import { SvcError } from './errors.js';
import type { CallOptions, Http, SendOptions } from './http.js';
import type { AuthChangeEvent, AuthStateListener, UserSession } from './session.js';
import { toStored, type StoredSession } from './session-store.js';
import type {
  AuthResult,
  ChangePasswordParams,
  ForgotPasswordParams,
  MagicLinkParams,
  OAuthProvider,
  ResetPasswordParams,
  SignInParams,
  SignUpParams,
  UpdateUserParams,
  User,
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
  constructor(
    private readonly http: Http,
    private readonly session: UserSession,
    private readonly key: string,
  ) {}

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

  /** Creates an account and signs it in. 409 `conflict` when the e-mail is taken, 400 `weak_password`. */
  signUp(params: SignUpParams, opts?: CallOptions): Promise<AuthResult> {
    return this.signInWith({ method: 'POST', path: '/auth/sign-up', body: params, signal: opts?.signal }, 'SIGNED_IN');
  }

  /** Signs in with e-mail and password; 401 `invalid_credentials` when either is wrong. */
  signIn(params: SignInParams, opts?: CallOptions): Promise<AuthResult> {
    return this.signInWith({ method: 'POST', path: '/auth/sign-in', body: params, signal: opts?.signal }, 'SIGNED_IN');
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
  async getUser(opts?: CallOptions): Promise<User> {
    const { user } = await this.session.send<{ user: User }>({ method: 'GET', path: '/auth/me', signal: opts?.signal });
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

  /** Signs in with the `token` and `email` of a magic link (creates the user if none exists). */
  verifyMagicLink(params: VerifyMagicLinkParams, opts?: CallOptions): Promise<AuthResult> {
    return this.signInWith({ method: 'POST', path: '/auth/magic-link/verify', body: params, signal: opts?.signal }, 'SIGNED_IN');
  }

  /**
   * The address that starts an OAuth sign-in: navigate the browser there. It carries the PUBLIC
   * key in its query (the server refuses a secret key there), so build the client with a public key.
   *
   * @example location.assign(client.auth.oauthUrl('github', location.origin + '/after-login'))
   */
  oauthUrl(provider: OAuthProvider, redirectUrl: string): string {
    if (!this.key.startsWith('svc_pk_')) {
      throw new SvcError({ status: 0, code: 'public_key_required', message: 'oauthUrl puts the key in a URL: create the client with a public key (svc_pk_…)' });
    }
    return this.http.url(`/auth/oauth/${encodeURIComponent(provider)}`, { key: this.key, redirectUrl });
  }

  /**
   * After an OAuth redirect: reads `?token=` (or `?error=`) from the current address, removes it
   * from the address bar, stores the session and returns the user. Resolves null when the address
   * carries neither; rejects with an SvcError whose `code` is the server's when it carries `error`.
   * Links from e-mails (which also carry `email`) are left alone: see verifyMagicLink/resetPassword.
   */
  async handleRedirect(opts: RedirectOptions = {}): Promise<AuthResult | null> {
    const href = opts.url ?? globalThis.location?.href;
    if (!href) return null;
    const u = new URL(href);
    const token = u.searchParams.get('token');
    const error = u.searchParams.get('error');
    if ((token === null && error === null) || u.searchParams.has('email')) return null;
    u.searchParams.delete('token');
    u.searchParams.delete('error');
    const history = globalThis.history;
    if ((opts.replaceState ?? opts.url === undefined) && history?.replaceState) history.replaceState(history.state, '', u.toString());
    if (error !== null) throw new SvcError({ status: 0, code: error, message: `OAuth sign-in failed: ${error}` });
    await this.session.set({ token: token!, expiresAt: '', user: null });
    // refresh answers user and expiry in one call and proves the token works; if it fails for a
    // network reason the token stays stored, so calling refresh() later completes the sign-in.
    return this.signInWith({ method: 'POST', path: '/auth/refresh', signal: opts.signal }, 'SIGNED_IN', true);
  }

  private async signInWith(req: SendOptions, event: AuthChangeEvent, asUser = false): Promise<AuthResult> {
    const result = asUser ? await this.session.send<AuthResult>(req) : await this.http.send<AuthResult>(req);
    await this.session.set(toStored(result), event);
    return result;
  }
}
