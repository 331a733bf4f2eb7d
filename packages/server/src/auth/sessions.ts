import { ApiError } from '../errors.ts';
import type { Clock } from '../infra/clock.ts';
import type { Queryable, Store } from '../store/store.ts';
import type { InvalidatedCache } from '../infra/invalidation/cache.ts';
import { isoAt, newToken, tokenHash } from './tokens.ts';
import type { UserRow } from '../users/users.ts';

/** A session as the API shows it (API.md §2). */
export interface Session {
  token: string;
  expiresAt: string;
}

/** A resolved `X-Session-Token`: the user and the session's stored hash. */
export interface Current {
  user: UserRow;
  tokenHash: string;
  token: string;
}

const invalid = () => new ApiError('invalid_session', 'The session token is missing, unknown, expired or revoked; sign in again');

/** A live session as a cache keeps it: its user row, its database and its expiry. */
export interface SessionEntry {
  user: Readonly<UserRow>;
  databaseId: string;
}

/**
 * End-user sessions, Lucia-style: an opaque random token in the client, its SHA-256 in
 * `user_sessions`, a sliding expiry that `refresh` moves to now + lifetime. A session belongs to
 * one database; the same token presented with another database's key is unknown.
 *
 * With a cache, `resolve` remembers a live session and its user row under the token's hash until
 * the session ends or expires or the user changes: the store announces each of those itself
 * (infra/invalidation), and routes that end sessions answer after `Invalidation.barrier()`.
 */
export class Sessions {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly lifetimeMs: number,
    private readonly cache?: InvalidatedCache<SessionEntry>,
  ) {}

  /**
   * Starts a session for a user (inside the caller's transaction when given one). A disabled user
   * gets none (401 `invalid_credentials`): checked in the INSERT itself, so every way of signing in
   * (password, magic link, OAuth) is covered, and one racing the user's disabling cannot slip through.
   */
  async create(q: Queryable, databaseId: string, userId: string): Promise<Session> {
    const token = newToken();
    const expiresAt = isoAt(this.clock, this.lifetimeMs);
    const created = await q.run(
      `INSERT INTO user_sessions (token_hash, database_id, user_id, expires_at, created_at)
       SELECT ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM users WHERE id = ? AND disabled = 0)`,
      [tokenHash(token), databaseId, userId, expiresAt, isoAt(this.clock), userId],
    );
    if (created === 0) throw new ApiError('invalid_credentials', 'This account is disabled');
    return { token, expiresAt };
  }

  /** The user of a live session of this database; else 401 `invalid_session`. */
  async resolve(databaseId: string, token: string | undefined): Promise<Current> {
    const found = await this.find(databaseId, token);
    if (!found) throw invalid();
    return { user: found.user, tokenHash: found.hash, token: token! };
  }

  /** The user of a live session of this database (cached like `resolve`), or undefined: for rules (documents/rule-access.ts). */
  async userOf(databaseId: string, token: string): Promise<UserRow | undefined> {
    return (await this.find(databaseId, token))?.user;
  }

  /** The live session of a token for this database, from the cache or the store. */
  private async find(databaseId: string, token: string | undefined): Promise<{ user: UserRow; hash: string } | undefined> {
    if (!token || token.length > 512) return undefined;
    const hash = tokenHash(token);
    const lookup = () => this.lookup(hash);
    const found = this.cache ? await this.cache.get(`session:${hash}`, this.clock.now(), lookup) : (await lookup())?.value;
    return found && found.databaseId === databaseId ? { user: found.user, hash } : undefined;
  }

  /** The live session of a token hash, whatever its database (resolve compares it, so a cache entry serves any key). */
  private async lookup(hash: string) {
    const row = await this.store.get<UserRow & { session_database_id: string; session_expires_at: string }>(
      `SELECT u.id, u.email, u.name, u.avatar, u.password_hash, u.email_verified, u.app_metadata, u.disabled, u.created_at, u.updated_at,
              s.database_id AS session_database_id, s.expires_at AS session_expires_at
       FROM user_sessions s JOIN users u ON u.id = s.user_id
       WHERE s.token_hash = ? AND s.expires_at > ? AND u.disabled = 0`,
      [hash, isoAt(this.clock)],
    );
    if (!row) return undefined;
    const { session_database_id: databaseId, session_expires_at: expiresAt, ...user } = row;
    const value: SessionEntry = { user: Object.freeze(user), databaseId };
    return { value, tags: [`user:${user.id}`], expiresAt: Date.parse(expiresAt) };
  }

  /** Moves a live session's expiry to now + lifetime; the token stays the same. */
  async refresh(current: Current): Promise<Session> {
    const expiresAt = isoAt(this.clock, this.lifetimeMs);
    const changed = await this.store.run('UPDATE user_sessions SET expires_at = ? WHERE token_hash = ? AND expires_at > ?', [
      expiresAt,
      current.tokenHash,
      isoAt(this.clock),
    ]);
    if (changed === 0) throw invalid(); // ended or expired between resolve and now
    return { token: current.token, expiresAt };
  }

  /** Ends one session. */
  async end(hash: string): Promise<void> {
    await this.store.run('DELETE FROM user_sessions WHERE token_hash = ?', [hash]);
  }

  /** Ends every session of a user, but `keepHash` when given. */
  async endAll(q: Queryable, userId: string, keepHash?: string): Promise<void> {
    if (keepHash) await q.run('DELETE FROM user_sessions WHERE user_id = ? AND token_hash <> ?', [userId, keepHash]);
    else await q.run('DELETE FROM user_sessions WHERE user_id = ?', [userId]);
  }
}
