import { postgresInvalidation } from './postgres.ts';
import { uncached } from './uncached.ts';
import { sqliteInvalidation } from './sqlite.ts';
import type { Store } from '../../store/store.ts';
import { SqliteStore } from '../../store/sqlite/sqlite-store.ts';

/**
 * How an instance learns, without a query per request, that a cached credential died: an API key
 * revoked, a session ended, a user or operator changed (their rows are part of what a session
 * resolves to). Caches (cache.ts) keep entries only while `current()`, and drop those the
 * invalidations name.
 *
 * PostgreSQL (several instances), `postgres.ts`:
 * - The store's own triggers (migration 7) NOTIFY `svc_invalidate` with the tags of every row that
 *   dies or changes (`key:<hash>`, `session:<hash>`, `user:<id>`, `operator-session:<hash>`,
 *   `operator:<id>`; `flush` for a large statement), inside the writing transaction. So the
 *   message goes out at COMMIT and never for a rollback, and no path can forget it: the API, the
 *   CLI in another process, a cascade from a deleted database, SQL typed by hand.
 * - Each instance LISTENs on a dedicated connection (not the store's pool). Entries are valid only
 *   while that connection is up: when it drops, the caches are emptied and stay off (every request
 *   looks up) until it LISTENs again; it is pinged every MAINTAIN_EVERY_MS, so a peer that vanished
 *   without TCP noticing is found too, and an entry lives at most CACHE_TTL_MS anyway.
 * - A lookup in flight while anything is heard (or the connection changes) keeps no entry: its
 *   answer may predate the invalidation (`epoch`).
 * - NOTIFY is asynchronous: A's COMMIT returns before B's listener has read the message, so B
 *   could serve "the very next request" from a stale entry. Measured: without more, even the
 *   revoking instance itself answered a revoked key's next request with 200 now and then. Routes
 *   that end credentials therefore answer only after `barrier()` (route `config.invalidates`): a
 *   second NOTIFY, sent after the commit, that every listening instance acknowledges. PostgreSQL
 *   delivers notifications to each listener in commit order, so an instance that acknowledged
 *   the barrier has applied the revocation. The price is a round trip and the acknowledgements on
 *   the rare routes that end credentials, instead of a lookup on every request. Instances are
 *   found in `pg_stat_activity` (their listeners' application_name); one whose listener is gone
 *   is not waited for (its instance emptied its caches on losing it), one that does not answer
 *   (frozen, or cut off without TCP noticing) is waited for BARRIER_TIMEOUT_MS at most. The CLI,
 *   which revokes without a route, waits for the same barrier (`barrierOnce`).
 *
 * SQLite (one instance, but `svc` in another process may revoke keys in the same file),
 * `sqlite.ts`: this process's writes are heard by TEMP triggers on the store's writer connection
 * (in-process, applied again once the transaction ends); another process's, by PRAGMA
 * data_version on that connection, read once per HTTP request before any hook
 * (`beforeRequest`), so a revocation from any process holds from the next request on. The check
 * costs less than the reads it turns into cache hits: a secret-key request gains little, a
 * public-key request under a rule with a session gains the key, the session and the rules
 * (figures: docs/performance-notes.md).
 * Without the store (the CLI) nothing is cached (`uncached.ts`).
 */
export interface Invalidation {
  /**
   * Whether cached entries may be used now: every invalidation committed from now on is sure to
   * be applied here. Caches use and keep nothing otherwise.
   */
  current(): boolean;
  /** Grows with every invalidation applied and every change of `current()`: a lookup that saw it change while in flight keeps nothing. */
  readonly epoch: number;
  /** Hears the tags that died, or 'all' (the connection dropped or came back, or a large statement). */
  subscribe(listener: (tags: readonly string[] | 'all') => void): void;
  /**
   * Resolves once every listening instance has applied every invalidation committed before the
   * call (or has not answered within a bounded time). At once where there is nothing to wait for.
   */
  barrier(): Promise<void>;
  /**
   * Run for every HTTP request and WebSocket upgrade, before any hook: where seeing another
   * process's writes needs a check (SQLite), it happens here, once per request.
   */
  beforeRequest?(): void;
  /** Starts listening; never throws (the caches stay off until `maintain` gets it going). */
  start(): Promise<void>;
  /** Checks the connection; reconnects a lost one. Run as a job. */
  maintain(): Promise<void>;
  close(): Promise<void>;
}

/** What the invalidation logs: connection loss and slow barriers. */
export interface InvalidationLog {
  warn(details: object, message: string): void;
  info(details: object, message: string): void;
}

/** How often `maintain` should run: a lost listener is found and replaced within about this long. */
export const MAINTAIN_EVERY_MS = 2000;

/**
 * The invalidation of a store, picked once from its URL as the store itself is. SQLite's needs the
 * store's writer connection (`store`); without it (the CLI, which keeps no cache) nothing is cached.
 */
export function createInvalidation(databaseUrl: string, log: InvalidationLog, store?: Store): Invalidation {
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) return postgresInvalidation(databaseUrl, log);
  return store instanceof SqliteStore ? sqliteInvalidation(store.writerConnection(), log) : uncached();
}

/**
 * For a process that ends credentials and exits (the `svc` CLI): waits until every running
 * instance has applied them, as the API's routes do before answering.
 */
export async function barrierOnce(databaseUrl: string): Promise<void> {
  const quiet: InvalidationLog = { warn: () => undefined, info: () => undefined };
  const invalidation = createInvalidation(databaseUrl, quiet);
  await invalidation.start();
  try {
    await invalidation.barrier();
  } finally {
    await invalidation.close();
  }
}
