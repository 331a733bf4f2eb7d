import { resolve } from 'node:path';
import { ApiError } from '../errors.ts';
import { isSqliteUrl } from '../store/bulk/bulk.ts';
import { backupSqlite } from '../store/bulk/sqlite-backup.ts';
import type { StoreTimeouts } from '../store/timeouts.ts';

/**
 * `svc backup <file>`: a consistent copy of the SQLite store a DATABASE_URL names, safe while
 * servers run on it (store/bulk/sqlite-backup.ts). PostgreSQL has its own tool for this.
 */
export async function backupStore(databaseUrl: string, file: string, timeouts: StoreTimeouts): Promise<{ file: string; pages: number }> {
  if (!isSqliteUrl(databaseUrl)) {
    throw new ApiError(
      'validation_failed',
      'svc backup copies a SQLite store; this DATABASE_URL is PostgreSQL: use pg_dump (e.g. pg_dump --format=custom --file=svc.dump "$DATABASE_URL", restored with pg_restore), or svc export for one database',
    );
  }
  const source = resolve(databaseUrl.slice('sqlite:'.length));
  const target = resolve(file);
  if (source === target) throw new ApiError('validation_failed', 'the backup file is the store itself: name another file');
  const pages = await backupSqlite(source, target, timeouts);
  return { file: target, pages };
}
