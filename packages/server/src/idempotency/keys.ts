import { ApiError } from '../errors.ts';
import type { Clock } from '../infra/clock.ts';
import type { Queryable, Store } from '../store/store.ts';

/**
 * Idempotency keys (API.md §1.2), as rows of `idempotency_keys` (migration 12): one per key a
 * caller used, holding the fingerprint of its request and its 2xx answer.
 *
 * The row is the claim, and it is written by the write's own transaction, with the answer, as its
 * last statement: it commits if and only if the write commits, so whatever happens to the process
 * after COMMIT the retry finds the answer, and a request that fails (or a process that dies before
 * COMMIT) leaves nothing to release. Before the write a request looks the key up (outside the
 * write's transaction, on any connection): a committed answer is replayed (or 422 for another
 * fingerprint). Two requests with one key racing past that look-up meet at the row's unique key:
 * the second one's insert waits for the first one's transaction (PostgreSQL) or finds its row (the
 * same transaction or an earlier one), and it fails with 409 `conflict`, Retry-After: 1, its write
 * rolled back; its retry is a replay.
 *
 * Why not a claim committed on its own before the write: that is a second COMMIT per request,
 * which measured at half the insert rate (bench `safe-writes`); this design costs one statement in
 * the write's transaction and one look-up beside it.
 */

/** An answer is replayed for this long after it was recorded (§1.2: 24 hours). */
export const KEEP_MS = 24 * 3_600_000;

/** A recorded 2xx answer. */
export interface RecordedAnswer {
  status: number;
  /** The JSON text of the body; null for a 204. */
  body: string | null;
  etag: string | null;
}

/** One request's key: who sent it and what the request was. */
export interface KeyedRequest {
  scope: string;
  databaseId: string;
  key: string;
  fingerprint: string;
}

interface Row {
  fingerprint: string;
  status: number;
  etag: string | null;
  body: string | null;
}

/** The still running request of a key (its row is not committed yet, or was just committed by it). */
const running = () =>
  new ApiError('conflict', 'A request with this Idempotency-Key is still running: retry in a moment to get its answer', undefined, { retryAfter: 1 });

/** The keys of every caller, in one store. */
export class IdempotencyKeys {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  private cutoff(): string {
    return new Date(this.clock.now() - KEEP_MS).toISOString();
  }

  /** The committed answer of this key to replay, or undefined when the key is free; 422 when it answered another request. */
  async answerOf(r: KeyedRequest): Promise<RecordedAnswer | undefined> {
    const row = await this.store.get<Row>('SELECT fingerprint, status, etag, body FROM idempotency_keys WHERE scope = ? AND key = ? AND claimed_at >= ?', [
      r.scope,
      r.key,
      this.cutoff(),
    ]);
    if (!row) return undefined;
    if (row.fingerprint !== r.fingerprint) {
      throw new ApiError(
        'idempotency_key_reused',
        'This Idempotency-Key was used for another request (method, path, query, If-Match or body differ): use a new key for a new request',
      );
    }
    return { status: Number(row.status), body: row.body, etag: row.etag };
  }

  /**
   * Records the answer inside the write's transaction, its last statement. A row of the key that
   * is not past KEEP_MS (another request's, committed or in this transaction) makes it 409: the
   * write rolls back, and the caller's retry finds that request's answer.
   */
  async record(tx: Queryable, r: KeyedRequest, answer: RecordedAnswer): Promise<void> {
    const inserted = await tx.all(
      `INSERT INTO idempotency_keys (scope, key, database_id, fingerprint, claimed_at, status, etag, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (scope, key) DO UPDATE SET database_id = EXCLUDED.database_id, fingerprint = EXCLUDED.fingerprint,
         claimed_at = EXCLUDED.claimed_at, status = EXCLUDED.status, etag = EXCLUDED.etag, body = EXCLUDED.body
       WHERE idempotency_keys.claimed_at < ?
       RETURNING 1`,
      [r.scope, r.key, r.databaseId, r.fingerprint, new Date(this.clock.now()).toISOString(), answer.status, answer.etag, answer.body, this.cutoff()],
    );
    if (inserted.length === 0) throw running();
  }

  /** Deletes up to `batch` answers past KEEP_MS; returns how many (a job calls it until fewer). */
  async prune(batch = 1000): Promise<number> {
    return this.store.run(
      `DELETE FROM idempotency_keys WHERE (scope, key) IN (SELECT scope, key FROM idempotency_keys WHERE claimed_at < ? LIMIT ${Math.trunc(batch)})`,
      [this.cutoff()],
    );
  }
}
