/**
 * How long the store waits before giving up, so that no request hangs on a database that went
 * away (API.md §0: a 503 within 10 s). The defaults leave room for both waits in one request:
 * 3 s to get a connection, then 5 s (+1 s of network slack on PostgreSQL) for a statement.
 */
export interface StoreTimeouts {
  /** PostgreSQL: opening a connection, or waiting for a free pooled one (DATABASE_CONNECT_TIMEOUT_MS). */
  connectMs: number;
  /**
   * One statement (DATABASE_STATEMENT_TIMEOUT_MS). PostgreSQL: the server's statement_timeout,
   * with the client giving up a second later (a frozen network answers nothing at all), and an
   * open transaction left idle for twice as long is ended by the server. SQLite: the busy
   * time-out, how long a write waits for another process's write lock.
   */
  statementMs: number;
}

export const DEFAULT_STORE_TIMEOUTS: Readonly<StoreTimeouts> = Object.freeze({ connectMs: 3000, statementMs: 5000 });
