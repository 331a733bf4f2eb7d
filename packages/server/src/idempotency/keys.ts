import { ApiError } from '../errors.ts';
import type { Clock } from '../infra/clock.ts';
import type { Queryable, Store } from '../store/store.ts';

/**
 * Idempotency keys (API.md §1.2), as rows of `idempotency_keys` (migration 12). A request with a
 * key first claims it in a statement of its own (committed, so a concurrent request with the key
 * sees the claim); its write's own transaction then completes the row with the 2xx answer, so
 * the answer is recorded if and only if the write committed, whatever happens to the process
 * after COMMIT. A failed request releases its claim; a claim that never got an answer (a crash
 * before COMMIT) lapses after CLAIM_TTL_MS. Answers are kept KEEP_MS, then pruned.
 */

/** A claim without an answer is released after this long (§1.2: "none within 60 seconds"). */
export const CLAIM_TTL_MS = 60_000;
/** An answer is replayed for this long after its claim (§1.2: 24 hours). */
export const KEEP_MS = 24 * 3_600_000;

/** A recorded 2xx answer. */
export interface RecordedAnswer {
  status: number;
  /** The JSON text of the body; null for a 204. */
  body: string | null;
  etag: string | null;
}

/** A key this request holds: complete it in the write's transaction, or release it. */
export interface Claim {
  /** Records the answer inside the write's transaction; refuses (409) if the claim was lost meanwhile, so the write rolls back. */
  record(tx: Queryable, answer: RecordedAnswer): Promise<void>;
  /** Frees the key after a failed request. */
  release(): Promise<void>;
}

/** What a claim attempt found: the key is ours, or an answer to replay. */
export type ClaimResult = { claimed: Claim } | { replay: RecordedAnswer };

interface Row {
  fingerprint: string;
  claimed_at: string;
  status: number | null;
  etag: string | null;
  body: string | null;
}

/** The keys of every caller, in one store. */
export class IdempotencyKeys {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  private iso(ms = 0): string {
    return new Date(this.clock.now() + ms).toISOString();
  }

  /**
   * Claims `key` for `scope` (one caller), or finds what an earlier request with it left: its
   * answer when the fingerprints agree (replay), 409 while that request runs, 422 for another
   * fingerprint. A free key, a lapsed claim or an answer older than KEEP_MS is claimed anew, in
   * one statement, so of two requests racing for a key exactly one claims it.
   */
  async claim(scope: string, databaseId: string, key: string, fingerprint: string): Promise<ClaimResult> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const now = this.iso();
      const claimed = await this.store.all(
        `INSERT INTO idempotency_keys (scope, key, database_id, fingerprint, claimed_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (scope, key) DO UPDATE SET database_id = EXCLUDED.database_id, fingerprint = EXCLUDED.fingerprint,
           claimed_at = EXCLUDED.claimed_at, status = NULL, etag = NULL, body = NULL
         WHERE (idempotency_keys.status IS NULL AND idempotency_keys.claimed_at < ?) OR idempotency_keys.claimed_at < ?
         RETURNING 1`,
        [scope, key, databaseId, fingerprint, now, this.iso(-CLAIM_TTL_MS), this.iso(-KEEP_MS)],
      );
      if (claimed.length) return { claimed: this.claimOf(scope, key, now) };
      const row = await this.store.get<Row>('SELECT fingerprint, claimed_at, status, etag, body FROM idempotency_keys WHERE scope = ? AND key = ?', [
        scope,
        key,
      ]);
      // Released between the two statements: try again.
      if (!row) continue;
      if (row.fingerprint !== fingerprint) {
        throw new ApiError(
          'idempotency_key_reused',
          'This Idempotency-Key was used for another request (method, path, query, If-Match or body differ): use a new key for a new request',
        );
      }
      if (row.status === null) {
        throw new ApiError('conflict', 'A request with this Idempotency-Key is still running: retry in a moment', undefined, { retryAfter: 1 });
      }
      return { replay: { status: Number(row.status), body: row.body, etag: row.etag } };
    }
    throw new ApiError('conflict', 'This Idempotency-Key is being claimed and released by other requests: retry in a moment', undefined, { retryAfter: 1 });
  }

  private claimOf(scope: string, key: string, claimedAt: string): Claim {
    const mine = 'scope = ? AND key = ? AND claimed_at = ? AND status IS NULL';
    return {
      record: async (tx, answer) => {
        const n = await tx.run(`UPDATE idempotency_keys SET status = ?, etag = ?, body = ? WHERE ${mine}`, [
          answer.status,
          answer.etag,
          answer.body,
          scope,
          key,
          claimedAt,
        ]);
        // The claim lapsed (the write took over CLAIM_TTL_MS) and another request took the key: writing now could write twice.
        if (n !== 1)
          throw new ApiError('conflict', 'The Idempotency-Key claim of this request lapsed before it committed; nothing was written: retry', undefined, {
            retryAfter: 1,
          });
      },
      release: async () => {
        await this.store.run(`DELETE FROM idempotency_keys WHERE ${mine}`, [scope, key, claimedAt]);
      },
    };
  }

  /** Deletes up to `batch` answers and claims past KEEP_MS; returns how many (a job calls it until fewer). */
  async prune(batch = 1000): Promise<number> {
    return this.store.run(
      `DELETE FROM idempotency_keys WHERE (scope, key) IN (SELECT scope, key FROM idempotency_keys WHERE claimed_at < ? LIMIT ${Math.trunc(batch)})`,
      [this.iso(-KEEP_MS)],
    );
  }
}
