import { hash } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { KeyRowSql } from '../store.ts';

/**
 * The index of idempotency keys on SQLite (migration 21), in the writer connection's memory: an
 * attached in-memory database holding `idempotency_key_rows (hash, row)`, one entry per row of
 * `idempotency_keys`: a hash of its scope and key, and its rowid. The table itself is only
 * appended to (in time order, which the prune walks), so a keyed write dirties the page the
 * previous one did, whatever its key; a key's entry goes into a B-tree in memory, where a page of
 * its own costs nothing at COMMIT. SQLite runs one instance per file, so one process holds every
 * key's entry.
 *
 * TEMP triggers of the writer keep it, inside the statement that changes the table, so an entry
 * commits and rolls back (to a group commit's savepoint too) with its row:
 * - before an INSERT, a key that has a row makes SQLite skip the new one (RAISE(IGNORE): the
 *   statement changes no row, as PostgreSQL's ON CONFLICT DO NOTHING on the primary key);
 * - after an INSERT, the row's entry; after a DELETE (the prune, a deleted database, a lapsed
 *   key taken over), its entry goes.
 * It is built from the table when the store opens, so a key recorded just before a crash is found
 * by the retry after it. A hash picks candidate rows, which are compared by scope and key: two
 * keys with one hash cost a row read, never a wrong answer. Only the writer sees the index, so a
 * look-up by key runs on the writer. An entry is two integers in a B-tree: about 20 MB of memory
 * per million keys kept (a key is kept 24 hours).
 */

/** The last key hashed: an insert's two triggers ask for the same key one after the other. */
const last = { scope: undefined as unknown, key: undefined as unknown, hash: 0 };

/** 52 bits of SHA-256 over scope and key: a JavaScript number, and an SQLite INTEGER. */
export function keyHash(scope: unknown, key: unknown): number {
  if (scope !== last.scope || key !== last.key) {
    last.hash = Number.parseInt(hash('sha256', `${scope}\0${key}`, 'hex').slice(0, 13), 16);
    last.scope = scope;
    last.key = key;
  }
  return last.hash;
}

const COLUMNS = 'scope, key, database_id, fingerprint, claimed_at, status, etag, body';

/** The key rows' statements on SQLite (store.ts KeyRowSql): a plain INSERT, and a look-up through the index. */
export const sqliteKeyRows: KeyRowSql = {
  insert: `INSERT INTO idempotency_keys (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  match: (scope, key) => ({
    sql: 'rowid IN (SELECT row FROM idempotency_key_rows WHERE hash = ?) AND scope = ? AND key = ?',
    params: [keyHash(scope, key), scope, key],
  }),
};

/** The triggers that keep the index (their names). */
const TRIGGERS = ['idempotency_key_taken', 'idempotency_key_indexed', 'idempotency_key_unindexed'];

/**
 * Attaches the index to the writer and fills it from the table, after the migrations. Again when
 * a migration made the table anew (dropping a table drops its triggers): the index is filled again.
 */
export function indexKeysInMemory(db: Database.Database): void {
  const kept = db
    .prepare(`SELECT count(*) FROM sqlite_temp_master WHERE type = 'trigger' AND name IN (${TRIGGERS.map(() => '?').join(', ')})`)
    .pluck()
    .get(...TRIGGERS);
  if (kept === TRIGGERS.length) return;
  if (!(db.pragma('database_list') as Array<{ name: string }>).some((d) => d.name === 'keys_index')) {
    db.function('svc_key_hash', { deterministic: true }, keyHash);
    db.exec(`ATTACH ':memory:' AS keys_index`);
    db.exec('CREATE TABLE keys_index.idempotency_key_rows (hash INTEGER NOT NULL, row INTEGER NOT NULL, PRIMARY KEY (hash, row)) WITHOUT ROWID');
  }
  for (const name of TRIGGERS) db.exec(`DROP TRIGGER IF EXISTS temp.${name}`);
  // A TEMP trigger may name tables of other databases; the target of an INSERT or DELETE in its
  // body goes unqualified (SQLite's rule), and only the index has this name.
  db.exec(`CREATE TEMP TRIGGER idempotency_key_taken BEFORE INSERT ON main.idempotency_keys
    WHEN EXISTS (SELECT 1 FROM keys_index.idempotency_key_rows r JOIN main.idempotency_keys k ON k.rowid = r.row
                 WHERE r.hash = svc_key_hash(NEW.scope, NEW.key) AND k.scope = NEW.scope AND k.key = NEW.key)
    BEGIN SELECT RAISE(IGNORE); END`);
  db.exec(`CREATE TEMP TRIGGER idempotency_key_indexed AFTER INSERT ON main.idempotency_keys
    BEGIN INSERT INTO idempotency_key_rows (hash, row) VALUES (svc_key_hash(NEW.scope, NEW.key), NEW.rowid); END`);
  db.exec(`CREATE TEMP TRIGGER idempotency_key_unindexed AFTER DELETE ON main.idempotency_keys
    BEGIN DELETE FROM idempotency_key_rows WHERE hash = svc_key_hash(OLD.scope, OLD.key) AND row = OLD.rowid; END`);
  db.exec('DELETE FROM keys_index.idempotency_key_rows');
  db.exec('INSERT INTO keys_index.idempotency_key_rows (hash, row) SELECT svc_key_hash(scope, key), rowid FROM main.idempotency_keys ORDER BY 1, 2');
}
