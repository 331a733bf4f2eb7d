import { ApiError } from '../errors.ts';
import type { Clock } from '../infra/clock.ts';
import type { Queryable, Store } from '../store/store.ts';
import { isoAt, newToken, tokenHash } from './tokens.ts';
import type { UserRow } from './users.ts';

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

/**
 * End-user sessions, Lucia-style: an opaque random token in the client, its SHA-256 in
 * `user_sessions`, a sliding expiry that `refresh` moves to now + lifetime. A session belongs to
 * one database; the same token presented with another database's key is unknown.
 */
export class Sessions {
  constructor(private readonly store: Store, private readonly clock: Clock, private readonly lifetimeMs: number) {}

  /** Starts a session for a user (inside the caller's transaction when given one). */
  async create(q: Queryable, databaseId: string, userId: string): Promise<Session> {
    const token = newToken();
    const expiresAt = isoAt(this.clock, this.lifetimeMs);
    await q.run(
      'INSERT INTO user_sessions (token_hash, database_id, user_id, expires_at, created_at) VALUES (?, ?, ?, ?, ?)',
      [tokenHash(token), databaseId, userId, expiresAt, isoAt(this.clock)],
    );
    return { token, expiresAt };
  }

  /** The user of a live session of this database; else 401 `invalid_session`. */
  async resolve(databaseId: string, token: string | undefined): Promise<Current> {
    if (!token || token.length > 512) throw invalid();
    const hash = tokenHash(token);
    const user = await this.store.get<UserRow>(
      `SELECT u.id, u.email, u.name, u.avatar, u.password_hash, u.email_verified, u.created_at, u.updated_at
       FROM user_sessions s JOIN users u ON u.id = s.user_id
       WHERE s.token_hash = ? AND s.database_id = ? AND s.expires_at > ?`,
      [hash, databaseId, isoAt(this.clock)],
    );
    if (!user) throw invalid();
    return { user, tokenHash: hash, token };
  }

  /** Moves a live session's expiry to now + lifetime; the token stays the same. */
  async refresh(current: Current): Promise<Session> {
    const expiresAt = isoAt(this.clock, this.lifetimeMs);
    const changed = await this.store.run(
      'UPDATE user_sessions SET expires_at = ? WHERE token_hash = ? AND expires_at > ?',
      [expiresAt, current.tokenHash, isoAt(this.clock)],
    );
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
