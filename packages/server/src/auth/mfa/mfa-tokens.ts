import { ApiError } from '../../errors.ts';
import type { Clock } from '../../infra/clock.ts';
import type { Limiter } from '../../infra/limiter/limiter.ts';
import type { Queryable, Store } from '../../store/store.ts';
import { limitFailedAttempts } from '../limits.ts';
import { MINUTE, isoAt, newToken, tokenHash } from '../tokens.ts';
import { type CodeAnswer, type Factors, hasVerifiedFactor, wrongCode } from './factors.ts';
import { ANY_IP, codeAccount, type Owner } from './owner.ts';

/** The second step a sign-in is waiting for: `mfa` in its answer (API.md §2.2). */
export interface MfaStep {
  token: string;
  expiresAt: string;
}

/** API.md §2.2: an mfaToken lives 5 minutes and dies after 5 wrong codes. */
const TOKEN_TTL_MS = 5 * MINUTE;
const MAX_WRONG = 5;

const deadToken = () => new ApiError('invalid_token', 'The mfaToken is wrong, used or expired; sign in again');

interface TokenRow {
  database_id: string | null;
  user_id: string | null;
  operator_id: string | null;
}

/**
 * mfaTokens: what a sign-in answers instead of a session while a second step is due. Random,
 * stored as SHA-256, single use, bound to the account (and its database), 5 minutes, at most 5
 * wrong codes. Wrong codes also count per account (whatever the IP) under the limiter: past 10
 * in 15 minutes every challenge of that account answers 429.
 */
export class MfaTokens {
  constructor(private readonly d: { store: Store; clock: Clock; limiter: Limiter; factors: Factors }) {}

  /** A new mfaToken for an account whose password (or link, or provider) was right. */
  async issue(q: Queryable, owner: Owner): Promise<MfaStep> {
    const token = newToken();
    const expiresAt = isoAt(this.d.clock, TOKEN_TTL_MS);
    await q.run(`INSERT INTO mfa_tokens (token_hash, database_id, user_id, operator_id, failures, expires_at, created_at) VALUES (?, ?, ?, ?, 0, ?, ?)`, [
      tokenHash(token),
      owner.kind === 'user' ? owner.databaseId : null,
      owner.kind === 'user' ? owner.id : null,
      owner.kind === 'operator' ? owner.id : null,
      expiresAt,
      isoAt(this.d.clock),
    ]);
    return { token, expiresAt };
  }

  /**
   * Completes a second step: the token must be live and of this database (`databaseId`; null for
   * operators), its account still enabled and with a verified factor, and the code right. Then,
   * in one transaction, the token is used up, the code accepted (factors.ts) and `signIn` makes
   * the session: either all of it happens or none. A wrong code → 401 `invalid_mfa_code`, counted
   * on the token (the fifth kills it) and on the account.
   */
  async complete<T>(databaseId: string | null, token: string, answer: CodeAnswer, signIn: (tx: Queryable, owner: Owner) => Promise<T>): Promise<T> {
    const { store, clock, limiter, factors } = this.d;
    const hash = tokenHash(token);
    const row = await store.get<TokenRow>(
      `SELECT database_id, user_id, operator_id FROM mfa_tokens WHERE token_hash = ? AND expires_at > ? AND failures < ?
       AND ${databaseId === null ? 'operator_id IS NOT NULL' : 'database_id = ?'}`,
      databaseId === null ? [hash, isoAt(clock), MAX_WRONG] : [hash, isoAt(clock), MAX_WRONG, databaseId],
    );
    if (!row) throw deadToken();
    const owner: Owner = row.user_id ? { kind: 'user', id: row.user_id, databaseId: row.database_id! } : { kind: 'operator', id: row.operator_id! };
    if (!(await this.alive(owner))) {
      await store.run('DELETE FROM mfa_tokens WHERE token_hash = ?', [hash]);
      throw deadToken();
    }
    return limitFailedAttempts(limiter, { account: codeAccount(owner), ip: ANY_IP }, async () => {
      try {
        return await store.transaction(async (tx) => {
          const used = await tx.run('DELETE FROM mfa_tokens WHERE token_hash = ? AND expires_at > ? AND failures < ?', [hash, isoAt(clock), MAX_WRONG]);
          if (used === 0) throw deadToken(); // used meanwhile by a concurrent challenge
          if (!(await factors.accept(tx, owner, answer))) throw wrongCode();
          return signIn(tx, owner);
        });
      } catch (e) {
        if (e instanceof ApiError && e.code === 'invalid_mfa_code')
          await store.run('UPDATE mfa_tokens SET failures = failures + 1 WHERE token_hash = ?', [hash]);
        throw e;
      }
    });
  }

  /** A disabled user, or an account that lost its factors since, has no second step to take. */
  private async alive(owner: Owner): Promise<boolean> {
    const { store } = this.d;
    if (owner.kind === 'user') {
      const user = await store.get('SELECT 1 AS one FROM users WHERE id = ? AND disabled = 0', [owner.id]);
      if (!user) return false;
    }
    return hasVerifiedFactor(store, owner);
  }
}
