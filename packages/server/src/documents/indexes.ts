import { createHash } from 'node:crypto';
import type { Store } from '../store/store.ts';
import { nowIso } from '../ids/ids.ts';

/**
 * Automatic indexes on user fields. The rule (README, "Indexes"): the first time a list sorts
 * or filters by a user field path, svc builds, in the background, one index on
 * (database, collection, <the field's sort keys>, id) for that path, used by every database.
 * At most `max` paths are indexed per store (default 64); past that, lists on other fields
 * still work, by scanning. Indexes are built once and kept, one at a time (two concurrent
 * `CREATE INDEX CONCURRENTLY` on one table deadlock on PostgreSQL), and the table is analysed
 * afterwards so the planner knows the new index's statistics. A failed build leaves no index
 * behind (PostgreSQL would keep an INVALID one) and is tried again on a later list.
 */
export class AutoIndexer {
  private readonly known = new Set<string>();
  private readonly building = new Map<string, Promise<void>>();
  private loaded: Promise<void> | undefined;
  private chain: Promise<void> = Promise.resolve();

  constructor(private readonly store: Store, private readonly max = 64, private readonly onError: (e: unknown) => void = () => undefined) {}

  private load(): Promise<void> {
    return (this.loaded ??= this.store.all<{ path: string }>('SELECT path FROM document_indexes').then((rows) => {
      for (const r of rows) this.known.add(r.path);
    }));
  }

  /** Makes sure the paths get an index; resolves when every requested build has finished. */
  async ensure(paths: string[][]): Promise<void> {
    await this.load();
    const work: Promise<void>[] = [];
    for (const segments of paths) {
      const path = segments.join('.');
      if (this.known.has(path)) continue;
      if (!this.building.has(path) && this.known.size + this.building.size >= this.max) continue;
      let job = this.building.get(path);
      if (!job) {
        job = this.chain.then(() => this.build(path, segments)).finally(() => this.building.delete(path));
        this.chain = job;
        this.building.set(path, job);
      }
      work.push(job);
    }
    await Promise.all(work);
  }

  private async build(path: string, segments: string[]): Promise<void> {
    const name = `documents_by_path_${createHash('sha256').update(path).digest('hex').slice(0, 16)}`;
    try {
      await this.store.run(this.store.dialect.createDocumentIndex(name, this.store.dialect.json.sortKeys(segments)));
      await this.store.run('INSERT INTO document_indexes (path, name, created_at) VALUES (?, ?, ?) ON CONFLICT (path) DO NOTHING', [path, name, nowIso()]);
      this.known.add(path);
      await this.store.run('ANALYZE documents');
    } catch (e) {
      this.onError(e);
      await this.store.run(`DROP INDEX IF EXISTS ${name}`).catch(() => undefined);
    }
  }
}
