import type { Doc } from '../types.js';

/** A document of the server's copy and its version (API.md §1.2). */
export interface HeldDoc {
  version: string;
  document: Doc<Record<string, unknown>>;
}

/** A write made locally and not yet accepted by the server (API.md §3.1). */
export interface QueuedWrite {
  /** Sorts in the order the writes were made (the queue is sent in this order). */
  seq: string;
  kind: 'create' | 'update' | 'delete';
  id: string;
  /** create: the document; update: a JSON Merge Patch. */
  body?: Record<string, unknown>;
  /** The version the write was made on (If-Match); undefined: the one the server copy holds when it is sent (a document created locally). */
  ifMatch?: string;
  /** The Idempotency-Key: a retry after a lost answer is the same write. */
  key: string;
}

/** What a replica keeps between runs. */
export interface ReplicaState {
  checkpoint: string | null;
  lastEventId: string | null;
  docs: Map<string, HeldDoc>;
  queue: QueuedWrite[];
}

/**
 * Where a replica keeps its copy and its queue. Writes are per document and per queued write, so
 * two tabs sharing an IndexedDB never overwrite each other's queue.
 */
export interface ReplicaStorage {
  load(): Promise<ReplicaState>;
  setMeta(meta: { checkpoint: string | null; lastEventId: string | null }): Promise<void>;
  putDocs(docs: Array<[string, HeldDoc]>): Promise<void>;
  deleteDocs(ids: string[]): Promise<void>;
  clearDocs(): Promise<void>;
  putWrite(w: QueuedWrite): Promise<void>;
  deleteWrite(seq: string): Promise<void>;
}

const empty = (): ReplicaState => ({ checkpoint: null, lastEventId: null, docs: new Map(), queue: [] });

/** In memory: lost with the process (tests, short-lived scripts). */
export class MemoryStorage implements ReplicaStorage {
  protected state = empty();
  async load(): Promise<ReplicaState> {
    return { ...this.state, docs: new Map(this.state.docs), queue: [...this.state.queue] };
  }
  async setMeta(meta: { checkpoint: string | null; lastEventId: string | null }): Promise<void> {
    Object.assign(this.state, meta);
    await this.persist();
  }
  async putDocs(docs: Array<[string, HeldDoc]>): Promise<void> {
    for (const [id, d] of docs) this.state.docs.set(id, d);
    await this.persist();
  }
  async deleteDocs(ids: string[]): Promise<void> {
    for (const id of ids) this.state.docs.delete(id);
    await this.persist();
  }
  async clearDocs(): Promise<void> {
    this.state.docs.clear();
    await this.persist();
  }
  async putWrite(w: QueuedWrite): Promise<void> {
    this.state.queue = [...this.state.queue.filter((q) => q.seq !== w.seq), w].sort((a, b) => (a.seq < b.seq ? -1 : 1));
    await this.persist();
  }
  async deleteWrite(seq: string): Promise<void> {
    this.state.queue = this.state.queue.filter((q) => q.seq !== seq);
    await this.persist();
  }
  protected async persist(): Promise<void> {}
}

/** The part of node:fs/promises a FileStorage uses (typed here: the SDK builds without Node's types). */
interface Fs {
  readFile(path: string, encoding: 'utf8'): Promise<string>;
  writeFile(path: string, text: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
}
// Imported by a name held in a variable so browser bundlers leave it alone: only FileStorage, in Node, loads it.
const NODE_FS = 'node:fs/promises';
const nodeFs = (): Promise<Fs> => import(NODE_FS);

/**
 * A JSON file (Node): the whole state, written to a temporary file and renamed over the old one
 * after each change, so a crash leaves the old state or the new one, never half of one.
 */
export class FileStorage extends MemoryStorage {
  private loaded = false;
  private chain: Promise<void> = Promise.resolve();

  constructor(private readonly path: string) {
    super();
  }

  override async load(): Promise<ReplicaState> {
    if (!this.loaded) {
      const fs = await nodeFs();
      try {
        const saved = JSON.parse(await fs.readFile(this.path, 'utf8')) as {
          checkpoint: string | null;
          lastEventId: string | null;
          docs: Array<[string, HeldDoc]>;
          queue: QueuedWrite[];
        };
        this.state = { checkpoint: saved.checkpoint, lastEventId: saved.lastEventId, docs: new Map(saved.docs), queue: saved.queue };
      } catch (e) {
        if ((e as { code?: string }).code !== 'ENOENT') throw e;
      }
      this.loaded = true;
    }
    return super.load();
  }

  protected override persist(): Promise<void> {
    const text = JSON.stringify({ ...this.state, docs: [...this.state.docs] });
    this.chain = this.chain.then(async () => {
      const fs = await nodeFs();
      await fs.writeFile(`${this.path}.tmp`, text);
      await fs.rename(`${this.path}.tmp`, this.path);
    });
    return this.chain;
  }
}
