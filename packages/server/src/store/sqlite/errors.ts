import { StoreUnavailable } from '../errors.ts';

/**
 * SQLite result codes (extended ones included: SQLITE_BUSY_SNAPSHOT, SQLITE_IOERR_WRITE…) that
 * mean the file can't serve right now rather than that the statement is wrong: another process
 * held the lock past the busy time-out, the disk is full or failing, or the file is gone.
 */
const UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|FULL|IOERR|CANTOPEN)/;

/** The error to throw for a failed better-sqlite3 call: StoreUnavailable where the file can't serve, else the error itself. */
export function sqliteError(e: unknown): unknown {
  if (!(e instanceof Error) || e instanceof StoreUnavailable) return e;
  const code = (e as { code?: unknown }).code;
  // A closed store (shutting down) answers like an unreachable one.
  if ((typeof code === 'string' && UNAVAILABLE.test(code)) || e.message === 'The database connection is not open') return new StoreUnavailable(e);
  return e;
}
