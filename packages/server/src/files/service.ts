import { appendChanges } from '../changes/append.ts';
import type { ChangeEvent, FileChangeType } from '../changes/events.ts';
import { ApiError, notFound } from '../errors.ts';
import type { Store, Transaction } from '../store/store.ts';
import { columns, dataOf, fromRow, type FileRecord, type FileRow, type StoredFile } from './record.ts';
import { enqueueRemoval } from './cleanup.ts';
import type { FileRecorder } from './idempotent.ts';
import { filePrefix } from './keys.ts';
import { FileUsage } from './usage.ts';
import type { Invalidation } from '../infra/invalidation/invalidation.ts';

/** Runs inside every file write's transaction, with its events (webhook deliveries). */
export type FileWriteHook = (tx: Transaction, databaseId: string, events: ChangeEvent[]) => Promise<void>;

interface FilesServiceDeps {
  store: Store;
  maxDatabaseBytes: number;
  inTransaction?: FileWriteHook;
  onChange?: (events: ChangeEvent[]) => void;
  /** What keeps the databases' file bytes valid in memory between uploads (usage.ts); without it, each upload sums them. */
  invalidation?: Invalidation;
}

/** Checks a record about to be written (the rule on the result); throws to refuse. */
type RecordCheck = (file: FileRecord) => void;

/**
 * File records in the store: each write commits its record and its `file.*` event in one
 * transaction (the event's id is the record's version), and never touches bytes itself: an
 * upload stored them before, a deletion queues their removal in the same transaction.
 */
export class FilesService {
  private readonly usage: FileUsage;

  constructor(private readonly deps: FilesServiceDeps) {
    this.usage = new FileUsage(deps.store.dialect, deps.invalidation);
  }

  /** The record and version of one file, or undefined. */
  async find(databaseId: string, bucket: string, id: string): Promise<StoredFile | undefined> {
    const { store } = this.deps;
    const row = await store.get<FileRow>(`SELECT ${columns(store.dialect)} FROM files WHERE database_id = ? AND bucket = ? AND id = ?`, [
      databaseId,
      bucket,
      id,
    ]);
    return row && fromRow(row);
  }

  async get(databaseId: string, bucket: string, id: string): Promise<StoredFile> {
    const found = await this.find(databaseId, bucket, id);
    if (!found) throw fileNotFound(bucket, id);
    return found;
  }

  /**
   * Records an uploaded file whose bytes are stored. The per-database quota is checked after the
   * event was numbered: numbering locks the database's counter row until COMMIT (changes/append.ts),
   * so two uploads of one database check and insert one after the other and cannot both pass it.
   * `record`: runs last in the transaction (an Idempotency-Key's answer, §1.2).
   */
  async create(databaseId: string, file: FileRecord, record?: FileRecorder): Promise<StoredFile> {
    const { store } = this.deps;
    return store.transaction(async (tx) => {
      const mark = this.usage.mark();
      const version = await this.record(tx, databaseId, file, 'file.created', null);
      const used = (await this.usage.before(tx, databaseId, version)) ?? (await this.bytesOf(tx, databaseId));
      if (used + file.size > this.deps.maxDatabaseBytes) {
        throw new ApiError('quota_exceeded', `The database's files would exceed its ${this.deps.maxDatabaseBytes} bytes (LIMIT_STORAGE_BYTES_PER_DATABASE)`);
      }
      this.usage.keep(tx, mark, databaseId, version, used + file.size);
      await tx.run(
        `INSERT INTO files (database_id, bucket, id, data, size, version, created_at, updated_at) VALUES (?, ?, ?, ${store.dialect.jsonParam}, ?, ?, ?, ?)`,
        [databaseId, file.bucket, file.id, dataOf(file), file.size, version, file.createdAt, file.updatedAt],
      );
      const stored = { file, version };
      // An Idempotency-Key's answer, recorded with the write (files/idempotent.ts).
      if (record) await record(tx, stored);
      return stored;
    });
  }

  /**
   * Changes a file's name and metadata. `check` sees the stored record first (404, 412 and the
   * rules on it: throw to refuse), then `result` the new one.
   */
  async update(
    databaseId: string,
    bucket: string,
    id: string,
    change: { name?: string; metadata?: FileRecord['metadata'] },
    now: string,
    check: (current: StoredFile) => void,
    result: RecordCheck,
  ): Promise<StoredFile> {
    const { store } = this.deps;
    return store.transaction(async (tx) => {
      const current = await this.locked(tx, databaseId, bucket, id);
      check(current);
      const file: FileRecord = { ...current.file, ...change, updatedAt: now };
      result(file);
      const mark = this.usage.mark();
      const version = await this.record(tx, databaseId, file, 'file.updated', current.file);
      // A rename or new metadata: the bytes stay what they were.
      const used = await this.usage.before(tx, databaseId, version);
      if (used !== undefined) this.usage.keep(tx, mark, databaseId, version, used);
      await tx.run(`UPDATE files SET data = ${store.dialect.jsonParam}, version = ?, updated_at = ? WHERE database_id = ? AND bucket = ? AND id = ?`, [
        dataOf(file),
        version,
        now,
        databaseId,
        bucket,
        id,
      ]);
      return { file, version };
    });
  }

  /** Removes a record and queues the removal of its bytes and thumbnails, in one transaction. */
  async remove(databaseId: string, bucket: string, id: string, now: string, check: (current: StoredFile) => void): Promise<void> {
    const { store } = this.deps;
    await store.transaction(async (tx) => {
      const mark = this.usage.mark();
      const current = await this.locked(tx, databaseId, bucket, id);
      check(current);
      const version = await this.record(tx, databaseId, current.file, 'file.deleted', null, now);
      await tx.run('DELETE FROM files WHERE database_id = ? AND bucket = ? AND id = ?', [databaseId, bucket, id]);
      const used = await this.usage.before(tx, databaseId, version);
      if (used !== undefined) this.usage.keep(tx, mark, databaseId, version, used - current.file.size);
      await enqueueRemoval(tx, filePrefix(databaseId, id), now);
    });
  }

  /** Every bucket of a database with its count and bytes. */
  async buckets(databaseId: string): Promise<Array<{ name: string; count: number; bytes: number }>> {
    const rows = await this.deps.store.all<{ bucket: string; n: string | number; bytes: string | number }>(
      'SELECT bucket, COUNT(*) AS n, CAST(SUM(size) AS TEXT) AS bytes FROM files WHERE database_id = ? GROUP BY bucket ORDER BY bucket',
      [databaseId],
    );
    return rows.map((r) => ({ name: r.bucket, count: Number(r.n), bytes: Number(r.bytes) }));
  }

  /** The bytes of every file of the database, as this transaction sees them. */
  private async bytesOf(tx: Transaction, databaseId: string): Promise<number> {
    const row = await tx.get<{ n: string | number }>('SELECT CAST(COALESCE(SUM(size), 0) AS TEXT) AS n FROM files WHERE database_id = ?', [databaseId]);
    return Number(row?.n ?? 0);
  }

  private async locked(tx: Transaction, databaseId: string, bucket: string, id: string): Promise<StoredFile> {
    const { dialect } = this.deps.store;
    const row = await tx.get<FileRow>(`SELECT ${columns(dialect)} FROM files WHERE database_id = ? AND bucket = ? AND id = ?${dialect.lockRows}`, [
      databaseId,
      bucket,
      id,
    ]);
    if (!row) throw fileNotFound(bucket, id);
    return fromRow(row);
  }

  /** Appends the write's event (its id is the new version) and runs the write hooks. */
  private async record(
    tx: Transaction,
    databaseId: string,
    file: FileRecord,
    type: FileChangeType,
    previous: FileRecord | null,
    at = file.updatedAt,
  ): Promise<string> {
    const [event] = await appendChanges(tx, this.deps.store.dialect, databaseId, [
      { collection: `files/${file.bucket}`, type, document: { ...file }, previous: previous && { ...previous }, timestamp: at },
    ]);
    await this.deps.inTransaction?.(tx, databaseId, [event]);
    const { onChange } = this.deps;
    if (onChange) tx.afterCommit(() => onChange([event]));
    return event.id;
  }
}

export const fileNotFound = (bucket: string, id: string) => notFound(`File '${id}' not found in bucket '${bucket}'`);
