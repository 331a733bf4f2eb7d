import { ApiError } from '../errors.ts';
import { deferKeyRow } from '../changes/append.ts';
import type { Clock } from '../infra/clock.ts';
import type { Store, Transaction } from '../store/store.ts';

/**
 * Idempotency keys (API.md §1.2), as rows of `idempotency_keys` (migrations 13 and 19): one per
 * key a caller used, holding the fingerprint of its request and its 2xx answer. The table carries
 * nothing every insert would pay for and only rare work uses (migration 19): no foreign key, and
 * on SQLite no index at all: rows are appended (the prune walks the rowids), and the index of
 * keys is the store's, in memory (migration 21, store/sqlite/key-index.ts). The store's
 * `keyRows` inserts a key's row and finds it.
 *
 * A keyed write runs as if its key were new, and its own transaction writes the key's row,
 * fingerprint and answer at once, last: the answer is recorded if and only if the write committed,
 * whatever happens to the process after COMMIT, and nothing is left to release when the write
 * fails. If the key is taken (by an earlier request, or one racing this one: on SQLite writes run
 * one at a time, and on PostgreSQL the second INSERT of a key waits for the first transaction and
 * then sees its row) the write is rolled back, and only then is the key looked up
 * (`afterFailure`): a recorded answer with the same fingerprint is replayed, another fingerprint
 * is 422, a request still running is 409. A write that fails for any other reason is looked up
 * the same way, so that a retry whose write can no longer succeed as it did the first time (a
 * create with its own id, an `If-Match`, a delete) still gets the first answer.
 *
 * So a fresh key costs the write one row and no read: no claim committed beforehand (a second
 * transaction per keyed write: half the insert rate on SQLite) and no look-up (on PostgreSQL a
 * statement on another connection, as costly as the rest of the key). A retry pays for a write
 * that is rolled back; retries are rare.
 *
 * On PostgreSQL a write in its database's commit group leaves its row to the group's last
 * statement (changes/append.ts deferKeyRow: no round trip on the group's connection, whose round
 * trips bound a database's write rate). If a key there is taken, the group runs again with each
 * member writing its own row (CommitGroup: `alone`), so only the write that lost the key fails.
 * A key whose row lapsed (a claim with no answer older than CLAIM_TTL_MS: the earlier build
 * claimed keys before their write) or expired (older than KEEP_MS) is taken over by the write's
 * own statements (the row deleted and inserted anew). Answers are kept KEEP_MS, then pruned.
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

/** Thrown by `record` when the key is taken: `afterFailure` finds by whom. */
class KeyTaken extends Error {}

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
   * Records the key with its answer inside the write's transaction: deferred to the commit group's
   * last statement where there is one, else a statement of its own; throws (rolling the write
   * back) if the key is taken.
   */
  async record(r: KeyedRequest, tx: Transaction, answer: RecordedAnswer): Promise<void> {
    const claimedAt = this.iso();
    // The entity tag and the body as the JSON values they are (deferKeyRow), not as JSON strings.
    const row = () =>
      `{"scope":${JSON.stringify(r.scope)},"key":${JSON.stringify(r.key)},"fingerprint":"${r.fingerprint}","claimed_at":"${claimedAt}","status":${answer.status},"etag":${answer.etag ?? 'null'},"body":${answer.body ?? 'null'}}`;
    if ((answer.etag === null || PLAIN_TAG.test(answer.etag)) && deferKeyRow(tx, r.databaseId, row)) return;
    const params = [r.scope, r.key, r.databaseId, r.fingerprint, claimedAt, answer.status, answer.etag, answer.body];
    const rows = this.store.keyRows;
    if (await rows.insert(tx, params)) return;
    // Taken: by a live key (the write fails), or by a row past its time the prune has not reached
    // yet, which this write takes over. Deleted and inserted anew rather than updated, so that on
    // SQLite the row moves to the end of the rowid order the prune walks.
    const key = rows.match(r.scope, r.key);
    await tx.run(`DELETE FROM idempotency_keys WHERE ${key.sql} AND ((status IS NULL AND claimed_at < ?) OR claimed_at < ?)`, [
      ...key.params,
      this.iso(-CLAIM_TTL_MS),
      this.iso(-KEEP_MS),
    ]);
    if (!(await rows.insert(tx, params))) throw new KeyTaken();
  }

  /**
   * After a keyed write failed (`error`, once its transaction settled): what an earlier request
   * with the key left decides the answer: its recorded answer when the fingerprints agree
   * (returned, to replay), 422 for another fingerprint, 409 while it runs. Without such a request
   * the write's own error stands (409 when it lost its key to a request that then failed).
   */
  async afterFailure(r: KeyedRequest, error: unknown): Promise<RecordedAnswer> {
    const own = error instanceof KeyTaken ? running() : error;
    let row: (Row & { claimed_at: string }) | undefined;
    const key = this.store.keyRows.match(r.scope, r.key);
    try {
      row = await this.store.get<Row & { claimed_at: string }>(
        `SELECT fingerprint, status, etag, body, claimed_at FROM idempotency_keys WHERE ${key.sql}`,
        key.params,
      );
    } catch {
      throw own;
    }
    const live = row !== undefined && row.claimed_at >= this.iso(-KEEP_MS) && !(row.status === null && row.claimed_at < this.iso(-CLAIM_TTL_MS));
    if (!row || !live) throw own;
    if (row.fingerprint !== r.fingerprint) throw reused();
    if (row.status === null) throw running();
    return { status: Number(row.status), body: row.body, etag: row.etag };
  }

  /**
   * Deletes the answers and claims past KEEP_MS, at most `batch` rows per statement; returns how
   * many (a job calls it now and then). PostgreSQL finds them by the index on `claimed_at`.
   * SQLite's table has none (migration 19): its rowids (dialect.insertOrder) go in time order, so
   * the expired rows come first; the prune walks windows of `batch` rows from the oldest, deleting
   * the expired ones, and stops at the first window with none, having read at most `batch` live
   * rows. A row out of order (the clock stepped) is deleted when a later prune reaches it.
   */
  async prune(batch = 1000): Promise<number> {
    const deleted = await this.deleteExpired(Math.trunc(batch));
    await this.store.keyRows.pruned();
    return deleted;
  }

  private async deleteExpired(n: number): Promise<number> {
    const before = this.iso(-KEEP_MS);
    let deleted = 0;
    const order = this.store.dialect.insertOrder;
    if (order === null) {
      for (;;) {
        const d = await this.store.run(
          `DELETE FROM idempotency_keys WHERE (scope, key) IN (SELECT scope, key FROM idempotency_keys WHERE claimed_at < ? LIMIT ${n})`,
          [before],
        );
        deleted += d;
        if (d < n) return deleted;
      }
    }
    for (let after = 0; ; ) {
      const window = await this.store.get<{ last: number | null }>(
        `SELECT max(${order}) AS last FROM (SELECT ${order} FROM idempotency_keys WHERE ${order} > ? ORDER BY ${order} LIMIT ${n})`,
        [after],
      );
      if (window?.last == null) return deleted;
      const d = await this.store.run(`DELETE FROM idempotency_keys WHERE ${order} > ? AND ${order} <= ? AND claimed_at < ?`, [after, window.last, before]);
      if (d === 0) return deleted;
      deleted += d;
      after = window.last;
    }
  }
}

/** A strong entity tag that is a JSON string as it is (printable ASCII, no backslash): the answers' `"<version>"`; another is written by a statement of its own. */
const PLAIN_TAG = /^"[\x20\x21\x23-\x5b\x5d-\x7e]*"$/;
