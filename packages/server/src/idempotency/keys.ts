import { ApiError } from '../errors.ts';
import { deferKeyRow } from '../changes/append.ts';
import type { Clock } from '../infra/clock.ts';
import type { Store, Transaction } from '../store/store.ts';

/**
 * Idempotency keys (API.md §1.2), as rows of `idempotency_keys` (migration 13): one per key a
 * caller used, holding the fingerprint of its request and its 2xx answer.
 *
 * A request looks its key up first (a read beside the write): a recorded answer is replayed, a
 * live row with another fingerprint is 422, a claim without an answer is 409. Otherwise the write
 * runs, and the key's row, fingerprint and answer at once, is written by the write's own
 * transaction, last: it is recorded if and only if the write committed, whatever happens to the
 * process after COMMIT, and nothing is left to release when the write fails. A request racing
 * another with the same key finds, when its transaction writes the row, that the key is taken:
 * its write is rolled back and it gets 409 (or 422 for another fingerprint).
 *
 * No claim is committed before the write: a committed claim was a second transaction per keyed
 * write (on SQLite half the insert rate; on PostgreSQL a round trip and a commit on another
 * connection, measured at a third of the insert rate). Concurrent keyed requests need no
 * claim to be told apart, since the row's unique key decides between them at COMMIT: on SQLite
 * writes run one at a time, and on PostgreSQL the second INSERT of a key waits for the first
 * transaction and then sees its row.
 *
 * On PostgreSQL a write in its database's commit group leaves the row to the group's last
 * statement (changes/append.ts deferKeyRow: no round trip on the group's connection, whose round
 * trips bound a database's write rate). If a key there is already taken, the group runs again with
 * each member writing its own row (CommitGroup: `alone`), so only the member that lost the key
 * fails. A key whose row lapsed (a claim with no answer, older than CLAIM_TTL_MS) or expired
 * (older than KEEP_MS) is taken over by the write's own statement.
 *
 * Claims without an answer no longer come from this code, but a row of the earlier build (or a
 * test) may hold one: it still answers 409 until it lapses. Answers are kept KEEP_MS, then pruned.
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

/** One request's key: who sent it (the caller's scope, the database its row dies with) and what the request was. */
export interface KeyedRequest {
  scope: string;
  databaseId: string;
  key: string;
  fingerprint: string;
}

/** A key this request may take: its row is written in the write's transaction. */
export interface Claim {
  /** Records the key with its answer inside the write's transaction; 409 or 422 if another request took the key meanwhile. */
  record(tx: Transaction, answer: RecordedAnswer): Promise<void>;
}

/** What a claim found: the key is ours, or an answer to replay. */
export type ClaimResult = { claimed: Claim } | { replay: RecordedAnswer };

interface Row {
  fingerprint: string;
  status: number | null;
  etag: string | null;
  body: string | null;
}

const reused = () =>
  new ApiError(
    'idempotency_key_reused',
    'This Idempotency-Key was used for another request (method, path, query, If-Match or body differ): use a new key for a new request',
  );

const running = () =>
  new ApiError('conflict', 'A request with this Idempotency-Key is still running: retry in a moment to get its answer', undefined, { retryAfter: 1 });

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
   * Finds what an earlier request with the key left: its answer when the fingerprints agree
   * (replay), 409 while it runs, 422 for another fingerprint; else the key is free, and the write
   * records it (`claimed`).
   */
  async claim(r: KeyedRequest): Promise<ClaimResult> {
    const row = await this.store.get<Row & { claimed_at: string }>(
      'SELECT fingerprint, status, etag, body, claimed_at FROM idempotency_keys WHERE scope = ? AND key = ?',
      [r.scope, r.key],
    );
    const live = row !== undefined && row.claimed_at >= this.iso(-KEEP_MS) && !(row.status === null && row.claimed_at < this.iso(-CLAIM_TTL_MS));
    if (!live) return { claimed: this.claimInWrite(r, row === undefined) };
    if (row.fingerprint !== r.fingerprint) throw reused();
    if (row.status === null) throw running();
    return { replay: { status: Number(row.status), body: row.body, etag: row.etag } };
  }

  /**
   * The key's row, written by the write: deferred to the commit group's last statement where
   * there is one and the key had no row (`fresh`), else by a statement of its own that takes over
   * a lapsed or expired row and finds a live one (another request took the key meanwhile: 409, or
   * 422 for another fingerprint; the write is rolled back).
   */
  private claimInWrite(r: KeyedRequest, fresh: boolean): Claim {
    return {
      record: async (tx, answer) => {
        const claimedAt = this.iso();
        const row = { scope: r.scope, key: r.key, fingerprint: r.fingerprint, claimed_at: claimedAt, ...answer };
        if (fresh && deferKeyRow(tx, r.databaseId, JSON.stringify(row))) return;
        const inserted = await tx.all(
          `INSERT INTO idempotency_keys (scope, key, database_id, fingerprint, claimed_at, status, etag, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (scope, key) DO UPDATE SET database_id = EXCLUDED.database_id, fingerprint = EXCLUDED.fingerprint,
             claimed_at = EXCLUDED.claimed_at, status = EXCLUDED.status, etag = EXCLUDED.etag, body = EXCLUDED.body
           WHERE (idempotency_keys.status IS NULL AND idempotency_keys.claimed_at < ?) OR idempotency_keys.claimed_at < ?
           RETURNING 1`,
          [r.scope, r.key, r.databaseId, r.fingerprint, claimedAt, answer.status, answer.etag, answer.body, this.iso(-CLAIM_TTL_MS), this.iso(-KEEP_MS)],
        );
        if (inserted.length > 0) return;
        const taken = await tx.get<{ fingerprint: string }>('SELECT fingerprint FROM idempotency_keys WHERE scope = ? AND key = ?', [r.scope, r.key]);
        throw taken && taken.fingerprint !== r.fingerprint ? reused() : running();
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
