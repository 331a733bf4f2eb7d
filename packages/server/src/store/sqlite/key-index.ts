import { hash } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { KeyRows, Param, Statement, Transaction } from '../store.ts';

/**
 * Idempotency keys' rows on SQLite (migration 21): the table is only appended to, and its index of
 * keys is this store's, in memory: for a hash of each row's scope and key, the row's `id`. A keyed
 * write dirties the table's last page, as the one before it did, whatever its key; an index in
 * the file, ordered by key, made each random key dirty a page of its own, which every COMMIT wrote
 * whole to the WAL. SQLite runs one instance per file, so one process sees every key's row.
 *
 * The index holds candidates, each checked against its row by scope and key, so a stale entry
 * (its row rolled back, deleted, or its id taken by another row) costs a row read, never a wrong
 * answer: an insert adds its entry before its transaction commits, the writes of one transaction
 * see each other's keys, and nothing needs undoing when one rolls back. What it must never miss
 * is a row: every row is inserted through `insert`, and the index is built from the table when
 * the store opens, so a key recorded just before a crash is found by the retry after it. Entries
 * go when the prune has deleted every row up to theirs (`pruned`). A hand-written index rather
 * than SQLite's own: an index in an attached in-memory database, kept by triggers, cost each
 * write calls from SQLite into JavaScript for the hash, more than the write's own row.
 * Memory: a Map entry per key kept (keys are kept 24 hours); docs/safe-writes.md gives its size.
 */
export class SqliteKeyRows implements KeyRows {
  /** Hash → id, or ids when several rows share a hash (a collision, or stale entries). */
  private readonly ids = new Map<number, number | number[]>();
  /** Every entry as it was added, oldest first: ids, and their hashes. */
  private readonly added: { ids: number[]; hashes: number[] } = { ids: [], hashes: [] };
  /** Where `added` begins: entries before it are gone (an array's shift would copy the rest each time). */
  private start = 0;

  constructor(private readonly reader: { get<T>(sql: string, params?: Param[]): Promise<T | undefined> }) {}

  /** Fills the index from the table: once, when the store opens, after the migrations. */
  load(db: Database.Database): void {
    this.ids.clear();
    this.added.ids.length = 0;
    this.added.hashes.length = 0;
    this.start = 0;
    for (const [id, scope, key] of db.prepare('SELECT rowid, scope, key FROM idempotency_keys ORDER BY rowid').raw().iterate() as Iterable<
      [number, string, string]
    >) {
      this.add(keyHash(scope, key), id);
    }
  }

  /** Entries held (tests). */
  get size(): number {
    return this.added.ids.length - this.start;
  }

  async insert(tx: Transaction, row: Param[]): Promise<boolean> {
    const h = keyHash(row[0], row[1]);
    const candidates = this.candidates(h);
    if (candidates.length > 0) {
      const taken = await tx.get(`SELECT 1 AS taken FROM idempotency_keys WHERE ${idsIn(candidates)} AND scope = ? AND key = ?`, [
        ...candidates,
        row[0],
        row[1],
      ]);
      if (taken) return false;
    }
    const inserted = await tx.get<{ id: number }>(
      'INSERT INTO idempotency_keys (scope, key, database_id, fingerprint, claimed_at, status, etag, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING rowid AS id',
      row,
    );
    this.add(h, Number(inserted?.id));
    return true;
  }

  match(scope: string, key: string): Statement {
    const candidates = this.candidates(keyHash(scope, key));
    if (candidates.length === 0) return { sql: '0', params: [] };
    return { sql: `${idsIn(candidates)} AND scope = ? AND key = ?`, params: [...candidates, scope, key] };
  }

  /** Rows are pruned oldest first: every entry below the oldest row left is gone. */
  async pruned(): Promise<void> {
    const oldest = (await this.reader.get<{ id: number | null }>('SELECT min(rowid) AS id FROM idempotency_keys'))?.id ?? Number.POSITIVE_INFINITY;
    const { ids, hashes } = this.added;
    while (this.start < ids.length && ids[this.start] < oldest) {
      this.remove(hashes[this.start], ids[this.start]);
      this.start++;
    }
    // Drop the gone part of the log once it is most of it.
    if (this.start > 1024 && this.start * 2 > ids.length) {
      ids.splice(0, this.start);
      hashes.splice(0, this.start);
      this.start = 0;
    }
  }

  private candidates(h: number): number[] {
    const found = this.ids.get(h);
    return found === undefined ? [] : typeof found === 'number' ? [found] : found;
  }

  private add(h: number, id: number): void {
    // SQLite gives a new row one more than the largest rowid in the table: an entry at or above
    // it is stale (its row rolled back, or deleted, the table's newest), and goes. So `added`
    // stays in increasing order, which `pruned` walks, also after the table was emptied.
    const { ids, hashes } = this.added;
    while (ids.length > this.start && ids[ids.length - 1] >= id) this.remove(hashes.pop() as number, ids.pop() as number);
    const found = this.ids.get(h);
    this.ids.set(h, found === undefined ? id : typeof found === 'number' ? [found, id] : [...found, id]);
    ids.push(id);
    hashes.push(h);
  }

  private remove(h: number, id: number): void {
    const found = this.ids.get(h);
    if (found === id) this.ids.delete(h);
    else if (Array.isArray(found)) {
      const rest = found.filter((x) => x !== id);
      if (rest.length === 0) this.ids.delete(h);
      else this.ids.set(h, rest.length === 1 ? rest[0] : rest);
    }
  }
}

/** `rowid = ?` or `rowid IN (?, …)` for some candidates (`rowid`: `id` since migration 21, and the table's rowid before it, which a test's store may have). */
const idsIn = (candidates: number[]) => (candidates.length === 1 ? 'rowid = ?' : `rowid IN (${candidates.map(() => '?').join(', ')})`);

/** 52 bits of SHA-256 over scope and key: a JavaScript number (a Map key without a string). */
function keyHash(scope: unknown, key: unknown): number {
  return Number.parseInt(hash('sha256', `${scope}\0${key}`, 'hex').slice(0, 13), 16);
}
