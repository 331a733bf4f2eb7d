import Database from 'better-sqlite3';
import { existsSync, renameSync, rmSync } from 'node:fs';
import type { StoreTimeouts } from '../timeouts.ts';
import { sqliteError } from '../sqlite/errors.ts';

/**
 * Copies a SQLite store, while servers go on using it, with SQLite's online backup API on a
 * connection of its own. The copy is made in one backup step: it reads one snapshot (in WAL mode
 * writers go on meanwhile), where a step-by-step copy would start over after every write of
 * another connection and, under steady writes, might never end. The copy is written beside the
 * target and renamed onto it once complete and checked, so `file` is never a half-written copy.
 * Returns the number of pages copied.
 */
export async function backupSqlite(path: string, file: string, timeouts: StoreTimeouts): Promise<number> {
  if (!existsSync(path)) throw new Error(`no SQLite store at ${path}`);
  const source = new Database(path, { fileMustExist: true });
  const partial = `${file}.partial-${process.pid}`;
  try {
    source.pragma(`busy_timeout = ${timeouts.statementMs}`);
    const { totalPages } = await source.backup(partial, { progress: () => 0x7fffffff });
    const copy = new Database(partial);
    try {
      const [check] = copy.pragma('quick_check') as Array<{ quick_check: string }>;
      if (check?.quick_check !== 'ok') throw new Error(`the copy failed its check: ${check?.quick_check}`);
      // One self-contained file: no -wal beside it to forget when the copy is moved.
      copy.pragma('journal_mode = DELETE');
    } finally {
      copy.close();
    }
    renameSync(partial, file);
    return totalPages;
  } catch (e) {
    throw sqliteError(e);
  } finally {
    source.close();
    for (const f of [partial, `${partial}-wal`, `${partial}-shm`, `${partial}-journal`]) rmSync(f, { force: true });
  }
}
