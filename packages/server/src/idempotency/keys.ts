import { ApiError } from '../errors.ts';
import { deferAnswer } from '../changes/append.ts';
import type { Clock } from '../infra/clock.ts';
import type { Store, Transaction } from '../store/store.ts';

/**
 * Idempotency keys (API.md §1.2), as rows of `idempotency_keys` (migration 13): one per key a
 * caller used, holding the fingerprint of its request and, once it committed, its 2xx answer.
 *
 * A request first claims its key in a statement of its own (committed at once, beside the write's
 * transaction, so a concurrent request with the key sees the claim and gets 409). The write's own
 * transaction then writes the answer into the claim row: in the database's commit group as part
 * of the group's last statement (changes/append.ts deferAnswer: no round trip on the group's
 * connection, whose round trips bound a database's write rate), else as a statement of its own.
 * The answer is thus recorded if and only if the write committed, whatever happens to the process
 * after COMMIT. A failed request releases its claim; a claim without an answer (the process died
 * before COMMIT) lapses after CLAIM_TTL_MS. Answers are kept KEEP_MS, then pruned.
 *
 * Where the store runs writes one at a time (SQLite: `dialect.serialWriters`) no other write can
 * run between a claim and the write, so the claim is not committed on its own (a second write
 * transaction per request, measured at half the insert rate): the key is looked up, and its row,
 * claim and answer at once, is the write's last statement.
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

/** A key this request holds: complete it in the write's transaction, or release it. */
export interface Claim {
  /** Records the answer inside the write's transaction. */
  record(tx: Transaction, answer: RecordedAnswer): Promise<void>;
  /** Frees the key after a failed request. */
  release(): Promise<void>;
}

/** What a claim found: the key is ours, or an answer to replay. */
export type ClaimResult = { claimed: Claim } | { replay: RecordedAnswer };

interface Row {
  fingerprint: string;
  status: number | null;
  etag: string | null;
  body: string | null;
}

const running = () =>
  new ApiError('conflict', 'A request with this Idempotency-Key is still running: retry in a moment to get its answer', undefined, { retryAfter: 1 });

/** The keys of every caller, in one store. */
export class IdempotencyKeys {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  /**
   * PostgreSQL: a claim (or its release) commits without waiting for its WAL to reach the disk
   * (`synchronous_commit = off` for that one statement's transaction). Waiting was a whole fsync per
   * keyed request, as long as the insert itself (10 ms per claim measured here, 2 ms without). Safe
   * because the WAL is flushed in order: the write's own COMMIT, synchronous, comes after its
   * claim, so once the write is durable its claim is too; a claim lost with a PostgreSQL crash
   * belonged to a write that was not durable either, and its key is rightly free. A lost release
   * lapses after CLAIM_TTL_MS, as when the process dies. Other sessions see the claim at once all
   * the same (a 409 across instances). Statements on SQLite, where claims are not committed apart, are unchanged.
   */
  private get unflushed(): string {
    return this.store.dialect.name === 'postgres' ? "WITH unflushed AS (SELECT set_config('synchronous_commit', 'off', true)) " : '';
  }
  /** The FROM that makes the INSERT evaluate `unflushed` (a CTE nobody reads is not run). */
  private get fromUnflushed(): string {
    return this.store.dialect.name === 'postgres' ? ' FROM unflushed' : '';
  }
  /** The same for a DELETE. */
  private get whereUnflushed(): string {
    return this.store.dialect.name === 'postgres' ? ' AND EXISTS (SELECT FROM unflushed)' : '';
  }

  private iso(ms = 0): string {
    return new Date(this.clock.now() + ms).toISOString();
  }

  /**
   * Claims the key, or finds what an earlier request with it left: its answer when the
   * fingerprints agree (replay), 409 while it runs, 422 for another fingerprint. A free key, a
   * lapsed claim or an answer older than KEEP_MS is claimed anew in one statement, so of two
   * requests racing for a key exactly one claims it.
   */
  async claim(r: KeyedRequest): Promise<ClaimResult> {
    if (this.store.dialect.serialWriters) {
      const found = await this.found(r);
      return found ? { replay: found } : { claimed: this.claimInWrite(r) };
    }
    for (let attempt = 0; attempt < 3; attempt++) {
      const now = this.iso();
      const claimed = await this.store.all(
        `${this.unflushed}INSERT INTO idempotency_keys (scope, key, database_id, fingerprint, claimed_at) SELECT ?, ?, ?, ?, ?${this.fromUnflushed}
         ON CONFLICT (scope, key) DO UPDATE SET database_id = EXCLUDED.database_id, fingerprint = EXCLUDED.fingerprint,
           claimed_at = EXCLUDED.claimed_at, status = NULL, etag = NULL, body = NULL
         WHERE (idempotency_keys.status IS NULL AND idempotency_keys.claimed_at < ?) OR idempotency_keys.claimed_at < ?
         RETURNING 1`,
        [r.scope, r.key, r.databaseId, r.fingerprint, now, this.iso(-CLAIM_TTL_MS), this.iso(-KEEP_MS)],
      );
      if (claimed.length) return { claimed: this.claimOf(r, now) };
      const found = await this.found(r);
      // Released between the two statements: claim again.
      if (found) return { replay: found };
    }
    throw running();
  }

  /**
   * What a live row of the key says: its answer to replay (same fingerprint), 422 (another), 409
   * (a claim still running); undefined when there is none, or only a lapsed one.
   */
  private async found(r: KeyedRequest): Promise<RecordedAnswer | undefined> {
    const row = await this.store.get<Row & { claimed_at: string }>(
      'SELECT fingerprint, status, etag, body, claimed_at FROM idempotency_keys WHERE scope = ? AND key = ? AND claimed_at >= ?',
      [r.scope, r.key, this.iso(-KEEP_MS)],
    );
    if (!row || (row.status === null && row.claimed_at < this.iso(-CLAIM_TTL_MS))) return undefined;
    if (row.fingerprint !== r.fingerprint) {
      throw new ApiError(
        'idempotency_key_reused',
        'This Idempotency-Key was used for another request (method, path, query, If-Match or body differ): use a new key for a new request',
      );
    }
    if (row.status === null) throw running();
    return { status: Number(row.status), body: row.body, etag: row.etag };
  }

  /** A claim made by the write itself (serial writers): the key's row with its answer, taking over a lapsed or expired row; 409 if another took the key. */
  private claimInWrite(r: KeyedRequest): Claim {
    return {
      record: async (tx, answer) => {
        const inserted = await tx.all(
          `INSERT INTO idempotency_keys (scope, key, database_id, fingerprint, claimed_at, status, etag, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (scope, key) DO UPDATE SET database_id = EXCLUDED.database_id, fingerprint = EXCLUDED.fingerprint,
             claimed_at = EXCLUDED.claimed_at, status = EXCLUDED.status, etag = EXCLUDED.etag, body = EXCLUDED.body
           WHERE (idempotency_keys.status IS NULL AND idempotency_keys.claimed_at < ?) OR idempotency_keys.claimed_at < ?
           RETURNING 1`,
          [r.scope, r.key, r.databaseId, r.fingerprint, this.iso(), answer.status, answer.etag, answer.body, this.iso(-CLAIM_TTL_MS), this.iso(-KEEP_MS)],
        );
        if (inserted.length === 0) throw running();
      },
      // Nothing was committed before the write: nothing to release.
      release: async () => undefined,
    };
  }

  private claimOf(r: KeyedRequest, claimedAt: string): Claim {
    const mine = 'scope = ? AND key = ? AND claimed_at = ? AND status IS NULL';
    return {
      record: async (tx, answer) => {
        const row = { scope: r.scope, key: r.key, claimed_at: claimedAt, ...answer };
        if (deferAnswer(tx, r.databaseId, JSON.stringify(row))) return;
        const n = await tx.run(`UPDATE idempotency_keys SET status = ?, etag = ?, body = ? WHERE ${mine}`, [
          answer.status,
          answer.etag,
          answer.body,
          r.scope,
          r.key,
          claimedAt,
        ]);
        // The claim lapsed (the write took over CLAIM_TTL_MS) and another request took the key: writing now could write twice.
        if (n !== 1) throw running();
      },
      release: async () => {
        await this.store.run(`${this.unflushed}DELETE FROM idempotency_keys WHERE ${mine}${this.whereUnflushed}`, [r.scope, r.key, claimedAt]);
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
