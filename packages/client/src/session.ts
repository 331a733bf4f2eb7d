import { SvcError } from './errors.js';
import type { Http, Sender, SendOptions } from './http.js';
import type { SessionStore, StoredSession } from './session-store.js';

/** Why the auth state changed (the names supabase-js uses). */
export type AuthChangeEvent = 'INITIAL_SESSION' | 'SIGNED_IN' | 'SIGNED_OUT' | 'TOKEN_REFRESHED' | 'USER_UPDATED';

/** Called on every change of the signed-in user. */
export type AuthStateListener = (event: AuthChangeEvent, session: StoredSession | null) => void;

/**
 * The signed-in end user's session: where it is kept, who hears of its changes, and how a request
 * is sent as that user. Auth, documents and realtime all send through it, so an ended session is
 * forgotten the same way whichever call learns of it first.
 */
export class UserSession implements Sender {
  private readonly listeners = new Set<AuthStateListener>();
  /** Listeners that already heard a change: a late INITIAL_SESSION must not follow it. */
  private readonly informed = new WeakSet<AuthStateListener>();
  private readonly tokenListeners = new Set<() => void>();
  /** Whether the listeners were last told of a session (undefined: told nothing yet). */
  private shown: boolean | undefined;

  constructor(
    private readonly http: Http,
    private readonly store: SessionStore,
  ) {
    // Another tab signed in or out (or refreshed): this one follows, listeners and realtime included.
    store.watch?.((before, after) => this.changedElsewhere(before, after));
  }

  /** The store changed under us: the event it amounts to, as if this client had made the change. */
  private changedElsewhere(before: StoredSession | null, after: StoredSession | null): void {
    const event: AuthChangeEvent = !after
      ? 'SIGNED_OUT'
      : !before || before.token !== after.token
        ? 'SIGNED_IN'
        : before.expiresAt !== after.expiresAt
          ? 'TOKEN_REFRESHED'
          : 'USER_UPDATED';
    // Told once: a tab that learnt of the sign-out itself (an invalid_session answer) hears no second one.
    if (after || this.shown) this.emit(event, after);
    if (before?.token !== after?.token) for (const l of [...this.tokenListeners]) safely(l);
  }

  /** The stored session, or null when signed out. */
  async get(): Promise<StoredSession | null> {
    return (await this.store.get()) ?? null;
  }

  /** `onAuthStateChange`: every change, and once at the start `INITIAL_SESSION`. */
  listen(listener: AuthStateListener): () => void {
    this.listeners.add(listener);
    void this.get().then((s) => {
      if (!this.listeners.has(listener) || this.informed.has(listener)) return;
      this.shown ??= s !== null;
      listener('INITIAL_SESSION', s);
    });
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Calls `listener` whenever the stored token changes (another user, or none): realtime renews its token then. */
  onTokenChange(listener: () => void): () => void {
    this.tokenListeners.add(listener);
    return () => {
      this.tokenListeners.delete(listener);
    };
  }

  /**
   * Stores `session` (null: forgets it) and tells the listeners of `event` (none: only the
   * token listeners hear of it, e.g. while an OAuth redirect's token is being checked).
   */
  async set(session: StoredSession | null, event?: AuthChangeEvent): Promise<void> {
    const before = await this.get();
    await this.store.set(session);
    if (event && (session || before)) this.emit(event, session);
    if (before?.token !== session?.token) for (const l of [...this.tokenListeners]) safely(l);
  }

  /** Changes fields of the stored session (not its token) and tells the listeners; null when there is none. */
  async patch(change: Omit<Partial<StoredSession>, 'token'>, event?: AuthChangeEvent): Promise<StoredSession | null> {
    const s = await this.get();
    if (!s) return null;
    const next = { ...s, ...change };
    await this.store.set(next);
    if (event) this.emit(event, next);
    return next;
  }

  /** Sends `req` with the stored session's X-Session-Token, if there is one. */
  async send<T>(req: SendOptions): Promise<T> {
    return this.sendWith(await this.get(), req);
  }

  /**
   * Sends `req` as `session`'s user (no X-Session-Token when null). An `invalid_session` answer
   * means the session is over (expired, revoked, password changed elsewhere): it is forgotten,
   * unless another one was stored meanwhile. Sent with no session while the listeners last heard
   * of one (its store was emptied behind the client's back: a cookie expired, a store without
   * `watch`), the answer still tells them: `SIGNED_OUT`.
   */
  async sendWith<T>(session: StoredSession | null, req: SendOptions): Promise<T> {
    const headers = session ? { ...req.headers, 'x-session-token': session.token } : req.headers;
    try {
      return await this.http.send<T>({ ...req, headers });
    } catch (e) {
      if (e instanceof SvcError && e.code === 'invalid_session') {
        const now = await this.get();
        if (session && now?.token === session.token) await this.set(null, 'SIGNED_OUT');
        else if (!session && !now && this.shown) this.emit('SIGNED_OUT', null);
      }
      throw e;
    }
  }

  private emit(event: AuthChangeEvent, session: StoredSession | null): void {
    this.shown = session !== null;
    for (const l of [...this.listeners]) {
      this.informed.add(l);
      safely(() => l(event, session));
    }
  }
}

/** Runs a listener; its bug must not break sign-in, so it surfaces without throwing into our caller. */
function safely(listener: () => void): void {
  try {
    listener();
  } catch (e) {
    queueMicrotask(() => {
      throw e;
    });
  }
}
