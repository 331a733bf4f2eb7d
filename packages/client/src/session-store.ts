import type { Session, User } from './types.js';

/** What the SDK keeps about the signed-in user. */
export interface StoredSession {
  /** Sent as X-Session-Token. */
  token: string;
  /** ISO 8601; may be empty right after an OAuth redirect until the first refresh. */
  expiresAt: string;
  user: User | null;
}

/**
 * Where the session lives (pocketbase/js-sdk's pluggable auth store). Methods may be async, so a
 * store can sit on cookies, IndexedDB, React Native's AsyncStorage or a server-side session.
 */
export interface SessionStore {
  get(): StoredSession | null | Promise<StoredSession | null>;
  set(session: StoredSession | null): void | Promise<void>;
  /**
   * Optional: calls `listener` when the session is changed by someone else (another tab of the same
   * site, for localStorage), with the session before and after; returns how to stop. The client then
   * tells its `onAuthStateChange` listeners and moves its realtime sockets to the new session.
   */
  watch?(listener: (before: StoredSession | null, after: StoredSession | null) => void): () => void;
}

/** Keeps the session in memory (the default in Node, and for tests). */
export class MemorySessionStore implements SessionStore {
  private value: StoredSession | null = null;
  get(): StoredSession | null {
    return this.value;
  }
  set(session: StoredSession | null): void {
    this.value = session;
  }
}

/** Keeps the session in `localStorage` under one key (the default in browsers), so it survives reloads. */
export class LocalStorageSessionStore implements SessionStore {
  constructor(
    private readonly storageKey = 'svc.session',
    private readonly storage: Storage = globalThis.localStorage,
  ) {}
  get(): StoredSession | null {
    return parseSession(this.storage.getItem(this.storageKey));
  }
  set(session: StoredSession | null): void {
    if (session) this.storage.setItem(this.storageKey, JSON.stringify(session));
    else this.storage.removeItem(this.storageKey);
  }
  /**
   * Other tabs' changes, from the `storage` event: a browser fires it in every other tab of the
   * origin when one changes localStorage (never in the tab that wrote). `key` null: storage cleared.
   */
  watch(listener: (before: StoredSession | null, after: StoredSession | null) => void): () => void {
    const target = globalThis as { addEventListener?: typeof addEventListener; removeEventListener?: typeof removeEventListener };
    if (typeof target.addEventListener !== 'function') return () => undefined;
    const onStorage = (e: StorageEvent) => {
      if (e.storageArea !== this.storage || (e.key !== null && e.key !== this.storageKey)) return;
      listener(parseSession(e.key === null ? null : e.oldValue), this.get());
    };
    target.addEventListener('storage', onStorage as EventListener);
    return () => target.removeEventListener?.('storage', onStorage as EventListener);
  }
}

/** A stored session's JSON, or null when absent or not one. */
function parseSession(raw: string | null): StoredSession | null {
  if (!raw) return null;
  try {
    const s = JSON.parse(raw) as StoredSession;
    return typeof s?.token === 'string' ? s : null;
  } catch {
    return null;
  }
}

/** localStorage when the platform has a usable one, else memory. */
export function defaultSessionStore(): SessionStore {
  try {
    const ls = globalThis.localStorage;
    if (ls && typeof ls.getItem === 'function') {
      const probe = '__svc_probe__';
      ls.setItem(probe, '1');
      ls.removeItem(probe);
      return new LocalStorageSessionStore();
    }
  } catch {
    // Private mode, sandboxed iframes or Node's --localstorage-file without a file: use memory.
  }
  return new MemorySessionStore();
}

/** Turns a sign-in answer into what the store keeps. */
export function toStored(result: { user: User; session: Session }): StoredSession {
  return { token: result.session.token, expiresAt: result.session.expiresAt, user: result.user };
}
