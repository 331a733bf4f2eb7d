import type { JsonObject } from '../json/merge-patch.ts';
import type { Dialect } from '../store/store.ts';

/** A file record as the API shows it (API.md §12). */
export interface FileRecord {
  id: string;
  bucket: string;
  name: string;
  contentType: string;
  size: number;
  sha256: string;
  owner: string | null;
  metadata: JsonObject;
  createdAt: string;
  updatedAt: string;
}

/** A record and its version (the id of the event that last wrote it, §1.2). */
export interface StoredFile {
  file: FileRecord;
  version: string;
}

/** The fields kept in `files.data` (everything but id and the timestamps, which are columns). */
export const dataOf = (f: FileRecord) =>
  JSON.stringify({ bucket: f.bucket, name: f.name, contentType: f.contentType, size: f.size, sha256: f.sha256, owner: f.owner, metadata: f.metadata });

/** The columns every read selects. */
export const columns = (d: Dialect) => `id, ${d.jsonText('data')} AS data, created_at, updated_at, CAST(version AS TEXT) AS version`;

export interface FileRow {
  id: string;
  data: string;
  created_at: string;
  updated_at: string;
  version: string;
}

export function fromRow(row: FileRow): StoredFile {
  const d = JSON.parse(row.data) as Omit<FileRecord, 'id' | 'createdAt' | 'updatedAt'>;
  return {
    file: {
      id: row.id,
      bucket: d.bucket,
      name: d.name,
      contentType: d.contentType,
      size: Number(d.size),
      sha256: d.sha256,
      owner: d.owner ?? null,
      metadata: d.metadata ?? {},
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    },
    version: String(row.version),
  };
}
