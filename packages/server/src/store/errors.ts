/**
 * The store can't be reached right now: the connection was refused, reset or timed out, the
 * server is shutting down, or (SQLite) another process held the write lock past the busy
 * time-out. Only the store throws it, from the driver's own error (kept as `cause`), so features
 * never classify driver errors; the one error handler answers it with 503 `unavailable` and a
 * Retry-After header (API.md §0).
 *
 * A write that failed with it was not committed: a write cut off after it reached the server
 * (a transaction's COMMIT, a single-statement write) throws CommitOutcomeUnknown instead.
 */
export class StoreUnavailable extends Error {
  override readonly name = 'StoreUnavailable';
  constructor(cause: unknown) {
    super(`The store is unreachable: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/**
 * The connection was lost while a write was on its way (a transaction's COMMIT, or a statement
 * outside a transaction): the server may or may not have applied it, so it can't be answered as
 * "not committed" (503 `unavailable`). It surfaces as 503 `commit_unknown` (API.md §0), which
 * says so: the client retries with the same Idempotency-Key, or reads the write back. Only
 * PostgreSQL throws it: SQLite runs in the process, and its COMMIT either returns or fails
 * with the transaction not committed.
 */
export class CommitOutcomeUnknown extends Error {
  override readonly name = 'CommitOutcomeUnknown';
  constructor(cause: unknown) {
    super(
      `The connection to the store was lost while a write was on its way: it may or may not have been applied (${cause instanceof Error ? cause.message : String(cause)})`,
      { cause },
    );
  }
}

/** How long a client should wait before retrying after a 503 `unavailable` (the Retry-After header). */
export const STORE_RETRY_AFTER_SECONDS = 5;
