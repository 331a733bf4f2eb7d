import { openDB, type IDBPDatabase } from 'idb';
import type { HeldDoc, QueuedWrite, ReplicaState, ReplicaStorage } from './storage.js';

const DB = 'svc-replicas';
const SEP = '\u0000';

/**
 * IndexedDB (browsers), through `idb`: one database for every replica of the origin, each record
 * keyed by `<replica name>\0<id>`, so a page reloaded offline finds its copy and its queue, and two
 * tabs add and remove their own queued writes without overwriting each other's.
 */
export class IndexedDbStorage implements ReplicaStorage {
  private db: Promise<IDBPDatabase> | undefined;

  /** `name`: the replica's name (the SDK derives it from the server, collection and filter). */
  constructor(private readonly name: string) {}

  private open(): Promise<IDBPDatabase> {
    this.db ??= openDB(DB, 1, {
      upgrade(db) {
        db.createObjectStore('meta');
        db.createObjectStore('docs');
        db.createObjectStore('queue');
      },
    });
    return this.db;
  }

  private range(): IDBKeyRange {
    return IDBKeyRange.bound(this.name + SEP, `${this.name}${SEP}\uffff`);
  }

  async load(): Promise<ReplicaState> {
    const db = await this.open();
    const tx = db.transaction(['meta', 'docs', 'queue']);
    const meta = ((await tx.objectStore('meta').get(this.name)) ?? { checkpoint: null, lastEventId: null }) as {
      checkpoint: string | null;
      lastEventId: string | null;
    };
    const docs = (await tx.objectStore('docs').getAll(this.range())) as Array<HeldDoc>;
    const queue = (await tx.objectStore('queue').getAll(this.range())) as QueuedWrite[];
    return { ...meta, docs: new Map(docs.map((d) => [d.document.id, d])), queue };
  }

  async setMeta(meta: { checkpoint: string | null; lastEventId: string | null }): Promise<void> {
    await (await this.open()).put('meta', meta, this.name);
  }

  async putDocs(docs: Array<[string, HeldDoc]>): Promise<void> {
    const tx = (await this.open()).transaction('docs', 'readwrite');
    await Promise.all([...docs.map(([id, d]) => tx.store.put(d, this.name + SEP + id)), tx.done]);
  }

  async deleteDocs(ids: string[]): Promise<void> {
    const tx = (await this.open()).transaction('docs', 'readwrite');
    await Promise.all([...ids.map((id) => tx.store.delete(this.name + SEP + id)), tx.done]);
  }

  async clearDocs(): Promise<void> {
    await (await this.open()).delete('docs', this.range());
  }

  async putWrite(w: QueuedWrite): Promise<void> {
    await (await this.open()).put('queue', w, this.name + SEP + w.seq);
  }

  async deleteWrite(seq: string): Promise<void> {
    await (await this.open()).delete('queue', this.name + SEP + seq);
  }
}
