import type { FastifyBaseLogger } from 'fastify';
import { newId } from '../ids/ids.ts';
import type { JsonObject } from '../json/merge-patch.ts';
import type { Queryable, Store } from '../store/store.ts';
import { changeGroup } from '../changes/append.ts';
import { fieldsOf, indexDocuments, readSearchSettings } from './search.ts';

/**
 * Back-fills of `document_search` (documents/search.ts) after a collection's search fields
 * changed: a row of `search_builds` per collection, written in the transaction that changed the
 * settings, worked off in small transactions (BATCH documents each, in id order) so writers are
 * never held up for long, by whichever instance gets to it (each polls, and the one that took the
 * change starts at once). New writes index themselves from the moment the setting commits (they
 * read it under the lock a settings change waits for), so a build only has to visit the documents
 * that existed before; until it is done, a search may miss some of them.
 *
 * Each batch runs in the database's commit group (changes/append.ts), as its writes do: on
 * PostgreSQL it holds the lock that orders them, so no write of a document it reads can come
 * between its read and its write, and it takes that lock before any document's, as they do (no
 * deadlock). It re-reads the collection's fields each time. A newer change of
 * the same collection replaces the row (a new `build` id): the older build's next step sees that
 * and stops. When the collection has no search fields any more, the build deletes its words
 * instead, in batches too. Each batch also drops the words of documents deleted meanwhile, in the
 * id range it covered.
 */

const BATCH = 200;
const DELETE_BATCH = 5000;

/** Builders of this process, woken when a settings change queued a build (they poll as well). */
const builders = new Set<SearchBuilder>();

/** Queues a build of each collection, in the settings change's transaction. */
export async function scheduleSearchBuilds(tx: Queryable, databaseId: string, collections: string[]): Promise<void> {
  for (const collection of collections) {
    await tx.run(
      `INSERT INTO search_builds (database_id, collection, build, after_id) VALUES (?, ?, ?, '')
       ON CONFLICT (database_id, collection) DO UPDATE SET build = excluded.build, after_id = ''`,
      [databaseId, collection, newId()],
    );
  }
}

/** Starts the builders of this process now (after the settings change committed). */
export function wakeSearchBuilders(): void {
  for (const b of builders) b.wake();
}

interface BuildRow {
  database_id: string;
  collection: string;
  build: string;
  after_id: string;
}

/** Works off `search_builds`; `runOnce` until none is left. */
export class SearchBuilder {
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly store: Store,
    private readonly log: FastifyBaseLogger,
  ) {}

  start(): void {
    this.stopped = false;
    builders.add(this);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    builders.delete(this);
    await this.running;
  }

  wake(): void {
    void this.runOnce().catch((e: unknown) => this.log.warn({ err: e }, 'search index build failed'));
  }

  /** Runs every queued build to its end (one run at a time in a process). */
  runOnce(): Promise<void> {
    this.running ??= this.work().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async work(): Promise<void> {
    while (!this.stopped) {
      const row = await this.store.get<BuildRow>('SELECT database_id, collection, build, after_id FROM search_builds ORDER BY database_id, collection LIMIT 1');
      if (!row) return;
      await this.step(row);
    }
  }

  /** One batch of a build, in one transaction. */
  private async step(row: BuildRow): Promise<void> {
    const { store } = this;
    const { dialect } = store;
    const { database_id: databaseId, collection, build } = row;
    await store.transaction(
      async (tx) => {
        const current = await tx.get<BuildRow>('SELECT build, after_id FROM search_builds WHERE database_id = ? AND collection = ?', [databaseId, collection]);
        if (!current || current.build !== build) return; // replaced or done meanwhile: the loop reads the queue again
        const fields = fieldsOf(await readSearchSettings(tx, dialect, databaseId), collection);
        const done = () => tx.run('DELETE FROM search_builds WHERE database_id = ? AND collection = ? AND build = ?', [databaseId, collection, build]);
        if (!fields) {
          const n = await tx.run(
            `DELETE FROM document_search WHERE database_id = ? AND collection = ? AND id IN
           (SELECT id FROM document_search WHERE database_id = ? AND collection = ? LIMIT ${DELETE_BATCH})`,
            [databaseId, collection, databaseId, collection],
          );
          if (n === 0) await done();
          return;
        }
        const docs = await tx.all<{ id: string; data: string; created_at: string; updated_at: string }>(
          `SELECT id, ${dialect.jsonText('data')} AS data, created_at, updated_at FROM documents WHERE database_id = ? AND collection = ? AND id > ? ORDER BY id LIMIT ${BATCH}`,
          [databaseId, collection, current.after_id],
        );
        await indexDocuments(
          tx,
          databaseId,
          collection,
          fields,
          docs.map((d) => ({ id: d.id, ...(JSON.parse(d.data) as JsonObject), createdAt: d.created_at, updatedAt: d.updated_at })),
        );
        // The words of documents deleted while the collection had no search fields: rows in the id range
        // this batch covered whose document it did not see (bounded by the batch: never a scan of the whole).
        const last = docs.length === BATCH ? docs[BATCH - 1].id : undefined;
        const seen = docs.map((d) => d.id);
        await tx.run(
          `DELETE FROM document_search WHERE database_id = ? AND collection = ? AND id > ?${last === undefined ? '' : ' AND id <= ?'}${
            seen.length ? ` AND id NOT IN (${seen.map(() => '?').join(', ')})` : ''
          }`,
          [databaseId, collection, current.after_id, ...(last === undefined ? [] : [last]), ...seen],
        );
        if (last !== undefined) {
          await tx.run('UPDATE search_builds SET after_id = ? WHERE database_id = ? AND collection = ? AND build = ?', [last, databaseId, collection, build]);
          return;
        }
        await done();
      },
      changeGroup(databaseId, dialect),
    );
  }
}
