import DataLoader from 'dataloader';
import type { Store } from '../store/store.ts';
import { byId } from './key-sql.ts';

/** A document as the store returns it, `data` as JSON text. */
export interface DocumentRow {
  id: string;
  data: string;
  created_at: string;
  updated_at: string;
}

/** Reads one document and its version (API.md §1.2) by its key: `undefined` when there is none. */
export type PointRead = (databaseId: string, collection: string, id: string) => Promise<(DocumentRow & { version: string }) | undefined>;
type Found = DocumentRow & { version: string };

interface Key {
  databaseId: string;
  collection: string;
  id: string;
}

/** Most gets one statement carries: a larger batch would wait for a larger answer. */
const MAX_BATCH = 64;

/**
 * Gets by id (GET /:collection/docs/:id), as statements on the store.
 *
 * Where the store is a server reached over a socket (PostgreSQL: `dialect.jsonRecords`), the gets
 * that arrive during one turn of the event loop go out as one statement (DataLoader, scheduled with
 * `setImmediate`, no cache: every get reads the store). A get alone was one round trip of its own
 * in which the fixed costs of a statement dominate: svc's writes to the socket, pg's message
 * building and parsing, PostgreSQL's bind/execute and snapshot, per row read. A lone get still
 * uses the one-row statement. SQLite answers in the calling thread with no such fixed cost, so it
 * reads each get alone.
 *
 * A batch sees the store as of when it ran, which is after every request in it was received: a
 * client that wrote and then reads still reads its write.
 */
export function pointReads(store: Store): PointRead {
  const { dialect } = store;
  const one = `SELECT id, ${dialect.jsonText('data')} AS data, created_at, updated_at, CAST(version AS TEXT) AS version FROM documents WHERE ${byId(dialect)}`;
  const readOne: PointRead = (databaseId, collection, id) => store.get<Found>(one, [databaseId, collection, id]);
  if (!dialect.jsonRecords) return readOne;

  // One fixed text for any number of keys: PostgreSQL keeps it as a named prepared statement.
  const many = `SELECT k.i, d.id, ${dialect.jsonText('d.data')} AS data, d.created_at, d.updated_at, CAST(d.version AS TEXT) AS version
    FROM ${dialect.jsonRecords('k', ['i int', 'db text', 'c text', 'id text'])}
    JOIN documents d ON d.database_id = k.db AND d.collection = k.c AND d.id = k.id`;
  const loader = new DataLoader<Key, Found | undefined>(
    async (keys) => {
      if (keys.length === 1) return [await readOne(keys[0].databaseId, keys[0].collection, keys[0].id)];
      const rows = await store.all<Found & { i: number }>(many, [JSON.stringify(keys.map((k, i) => ({ i, db: k.databaseId, c: k.collection, id: k.id })))]);
      const found = new Array<Found | undefined>(keys.length).fill(undefined);
      for (const row of rows) found[row.i] = row;
      return found;
    },
    { cache: false, maxBatchSize: MAX_BATCH, batchScheduleFn: (run) => setImmediate(run) },
  );
  return (databaseId, collection, id) => loader.load({ databaseId, collection, id });
}
