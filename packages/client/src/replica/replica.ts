import { compare, matches, parseFilter, parseSort } from '@svc/filter';
import { SvcError } from '../errors.js';
import type { Sender } from '../http.js';
import type { CollectionService } from '../collection.js';
import type { RealtimeEvent, RealtimeService } from '../realtime.js';
import type { Doc } from '../types.js';
import { applyLocally, mergePatchBetween, type Change, type SyncAnswer } from './apply.js';
import { MemoryStorage, type HeldDoc, type QueuedWrite, type ReplicaStorage } from './storage.js';

/** Options of `collection(name).replica(...)`. */
export interface ReplicaOptions<T extends object> {
  /** Keep only the documents this filter selects (§1 filter object). */
  filter?: Record<string, unknown>;
  /** Where the copy and the queue live (default: in memory; `IndexedDbStorage` in browsers, `FileStorage` in Node). */
  storage?: ReplicaStorage;
  /**
   * A queued write the server refused (412 after someone else's change, 403, 404): return a merged
   * document to send again (as an update on the server's version), or undefined to keep the server's.
   */
  onConflict?: (local: Doc<T> | null, server: Doc<T> | null) => Record<string, unknown> | undefined | Promise<Record<string, unknown> | undefined>;
  /** Changes per sync request (1..1000, default 500). */
  pageSize?: number;
}

/** A refused write, as the `conflict` event tells it. */
export interface ReplicaConflict<T extends object> {
  write: QueuedWrite;
  error: SvcError;
  /** The document as this client had made it (null: a delete). */
  local: Doc<T> | null;
  /** The document as the server has it (null: none, or hidden). */
  server: Doc<T> | null;
}

/** A query of the local copy: the parameters of a list (§1, §1.1), answered with the server's semantics. */
export interface ReplicaQuery {
  filter?: Record<string, unknown>;
  sortBy?: string;
  sortOrder?: 'asc' | 'desc';
  limit?: number;
}

type Listener = (...args: never[]) => void;
export interface ReplicaEvents<T extends object> {
  /** The local view changed (a sync, an event, a local write, a write taken back). */
  change: () => void;
  /** The number of queued writes changed. */
  pending: (count: number) => void;
  conflict: (c: ReplicaConflict<T>) => void;
  /** The server asked for a new snapshot (rules or the user's facts changed, or the checkpoint expired). */
  reset: () => void;
  /** Whether the replica talks to the server right now. */
  online: (online: boolean) => void;
  error: (e: unknown) => void;
}

let counter = 0;
/** A queue position: time first, so writes sort in the order made, also across tabs. */
const nextSeq = () => `${Date.now().toString(36).padStart(10, '0')}-${(counter++).toString(36).padStart(6, '0')}-${crypto.randomUUID().slice(0, 8)}`;

/**
 * An offline-first copy of a collection (API.md §3.1): snapshot, catch-up, then the realtime
 * socket, catching up again after every reconnect; queries answered locally; writes applied at
 * once and queued, then sent in order with their Idempotency-Key and If-Match.
 */
export class Replica<T extends object = Record<string, unknown>> {
  private docs = new Map<string, HeldDoc>();
  private queue: QueuedWrite[] = [];
  private checkpoint: string | null = null;
  private lastEventId: string | null = null;
  private view = new Map<string, Doc<T>>();
  private readonly listeners = new Map<keyof ReplicaEvents<T>, Set<Listener>>();
  private readonly storage: ReplicaStorage;
  private unsubscribe: (() => void) | undefined;
  private syncing: Promise<void> | undefined;
  private flushing: Promise<void> | undefined;
  private stopped = false;
  private isOnline = false;
  private socketOpen = false;
  private readonly filterTree;
  /** Resolves once the stored copy is loaded. */
  readonly ready: Promise<void>;

  constructor(
    private readonly http: Sender,
    private readonly collection: CollectionService<T>,
    private readonly realtime: RealtimeService | undefined,
    private readonly opts: ReplicaOptions<T> = {},
  ) {
    this.storage = opts.storage ?? new MemoryStorage();
    this.filterTree = opts.filter ? parseFilter(opts.filter) : undefined;
    this.ready = this.start();
  }

  /** Writes made locally that the server has not accepted yet. */
  get pending(): number {
    return this.queue.length;
  }

  get online(): boolean {
    return this.isOnline;
  }

  on<K extends keyof ReplicaEvents<T>>(event: K, listener: ReplicaEvents<T>[K]): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener as Listener);
    return () => set.delete(listener as Listener);
  }

  /** One document of the local view. */
  get(id: string): Doc<T> | undefined {
    return this.view.get(id);
  }

  /** The documents of the local view that match, in the server's order (@svc/filter: the same semantics as the list SQL). */
  query(q: ReplicaQuery = {}): Doc<T>[] {
    const filter = q.filter ? parseFilter(q.filter) : undefined;
    const sort = parseSort(q.sortBy, q.sortOrder);
    const out = [...this.view.values()].filter((d) => !filter || matches(filter, d));
    out.sort((a, b) => compare(sort, a as never, b as never));
    return q.limit === undefined ? out : out.slice(0, q.limit);
  }

  /** Creates a document locally at once (a client-made UUID id) and queues it. */
  async create(data: T & { id?: string }): Promise<Doc<T>> {
    const id = data.id ?? crypto.randomUUID();
    const now = new Date().toISOString();
    const body = { ...(data as Record<string, unknown>), id };
    await this.enqueue({ seq: nextSeq(), kind: 'create', id, body, key: crypto.randomUUID() });
    return this.view.get(id) ?? ({ ...body, createdAt: now, updatedAt: now } as unknown as Doc<T>);
  }

  /** Applies a JSON Merge Patch locally at once and queues it, with the If-Match of the version it was made on. */
  async update(id: string, patch: Partial<T> & Record<string, unknown>): Promise<Doc<T> | undefined> {
    if (!this.view.has(id)) throw new SvcError({ status: 404, code: 'not_found', message: `No document '${id}' in the replica` });
    await this.enqueue({ seq: nextSeq(), kind: 'update', id, body: patch, ifMatch: this.baseVersion(id), key: crypto.randomUUID() });
    return this.view.get(id);
  }

  async delete(id: string): Promise<void> {
    if (!this.view.has(id)) throw new SvcError({ status: 404, code: 'not_found', message: `No document '${id}' in the replica` });
    await this.enqueue({ seq: nextSeq(), kind: 'delete', id, ifMatch: this.baseVersion(id), key: crypto.randomUUID() });
  }

  /** Sends the queue now (it is sent by itself whenever the connection returns). */
  flush(): Promise<void> {
    this.flushing ??= this.sendQueue().finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  /** Catches up now (snapshot first when there is no copy yet). */
  sync(): Promise<void> {
    this.syncing ??= this.pull().finally(() => (this.syncing = undefined));
    return this.syncing;
  }

  /** Stops the socket and the retries; the stored copy and queue stay. */
  close(): void {
    this.stopped = true;
    this.unsubscribe?.();
    if (typeof window !== 'undefined') window.removeEventListener('online', this.onOnline);
  }

  // --- internals ---

  /** The device is back online: catch up, send the queue, and reconnect a socket waiting out its backoff now. */
  private readonly onOnline = () => {
    if (!this.socketOpen && this.unsubscribe) {
      this.unsubscribe();
      this.unsubscribe = undefined;
    }
    void this.sync()
      .then(() => this.flush())
      .then(() => this.subscribe())
      .catch((e) => this.emit('error', e));
  };

  private async start(): Promise<void> {
    const s = await this.storage.load();
    this.docs = s.docs;
    this.queue = s.queue;
    this.checkpoint = s.checkpoint;
    this.lastEventId = s.lastEventId;
    this.rebuild();
    if (typeof window !== 'undefined') window.addEventListener('online', this.onOnline);
    void this.sync()
      .then(() => this.flush())
      .then(() => this.subscribe())
      .catch((e) => this.emit('error', e));
  }

  /** The live socket from the answer's lastEventId; every reconnect catches up and sends the queue again. */
  private subscribe(): void {
    if (this.stopped || !this.realtime || this.unsubscribe) return;
    let opened = false;
    this.unsubscribe = this.realtime.subscribe<T>([this.collection.name], (e) => void this.onEvent(e), {
      after: this.lastEventId ?? undefined,
      onState: (state) => {
        this.socketOpen = state === 'open';
        if (state === 'open') {
          if (opened)
            void this.sync()
              .then(() => this.flush())
              .catch((e) => this.emit('error', e));
          opened = true;
          this.setOnline(true);
        } else if (state === 'reconnecting') this.setOnline(false);
      },
      onReset: () => void this.sync().catch((e) => this.emit('error', e)),
    });
  }

  private async onEvent(e: RealtimeEvent<T>): Promise<void> {
    const doc = e.document as unknown as Doc<Record<string, unknown>>;
    const inFilter = e.event !== 'document.deleted' && (!this.filterTree || matches(this.filterTree, doc));
    const change: Change = inFilter ? { op: 'upsert', id: doc.id, version: e.id, document: doc } : { op: 'delete', id: doc.id, version: e.id };
    await this.applyChanges([change]);
  }

  /** Snapshot (if needed) and catch-up until nothing is left; a reset or a refused checkpoint snapshots again. */
  private async pull(): Promise<void> {
    try {
      if (this.checkpoint === null) await this.snapshot();
      for (;;) {
        let a: SyncAnswer;
        try {
          a = await this.fetchSync({ checkpoint: this.checkpoint as string });
        } catch (e) {
          // A checkpoint the server no longer takes (another filter, a store imported elsewhere): start over.
          if (e instanceof SvcError && e.code === 'invalid_cursor') a = { changes: [], reset: true, checkpoint: null, lastEventId: null, nextCursor: null };
          else throw e;
        }
        if (a.reset) {
          this.emit('reset');
          await this.snapshot();
          continue;
        }
        await this.applyChanges(a.changes);
        this.checkpoint = a.checkpoint;
        this.lastEventId = a.lastEventId;
        await this.storage.setMeta({ checkpoint: this.checkpoint, lastEventId: this.lastEventId });
        if (a.changes.length < (this.opts.pageSize ?? 500)) break;
      }
      this.setOnline(true);
    } catch (e) {
      if (e instanceof SvcError && e.isNetworkError) return this.setOnline(false);
      throw e;
    }
  }

  /** Drops the copy (never the queue) and pages a snapshot. */
  private async snapshot(): Promise<void> {
    const fresh = new Map<string, HeldDoc>();
    let cursor: string | undefined;
    let checkpoint: string | null = null;
    do {
      const a = await this.fetchSync({ cursor });
      for (const c of a.changes) if (c.op === 'upsert') fresh.set(c.id, { version: c.version, document: c.document });
      checkpoint = a.checkpoint;
      cursor = a.nextCursor ?? undefined;
    } while (cursor);
    await this.storage.clearDocs();
    await this.storage.putDocs([...fresh]);
    this.docs = fresh;
    this.checkpoint = checkpoint;
    this.lastEventId = null;
    await this.storage.setMeta({ checkpoint, lastEventId: null });
    this.rebuild();
  }

  private fetchSync(q: { cursor?: string; checkpoint?: string }): Promise<SyncAnswer> {
    return this.http.send<SyncAnswer>({
      method: 'GET',
      path: `/sync/${encodeURIComponent(this.collection.name)}`,
      query: { filter: this.opts.filter ? JSON.stringify(this.opts.filter) : undefined, limit: this.opts.pageSize, ...q },
    });
  }

  /** Applies server changes by version (one not above the held version is a no-op). */
  private async applyChanges(changes: Change[]): Promise<void> {
    const put: Array<[string, HeldDoc]> = [];
    const gone: string[] = [];
    for (const c of changes) {
      const held = this.docs.get(c.id);
      if (held && BigInt(held.version) >= BigInt(c.version)) continue;
      if (c.op === 'upsert') {
        const entry = { version: c.version, document: c.document };
        this.docs.set(c.id, entry);
        put.push([c.id, entry]);
      } else if (held) {
        this.docs.delete(c.id);
        gone.push(c.id);
      }
    }
    if (put.length) await this.storage.putDocs(put);
    if (gone.length) await this.storage.deleteDocs(gone);
    if (put.length || gone.length) this.rebuild();
  }

  private async enqueue(w: QueuedWrite): Promise<void> {
    this.queue.push(w);
    await this.storage.putWrite(w);
    this.rebuild();
    this.emit('pending', this.queue.length);
    void this.flush().catch((e) => this.emit('error', e));
  }

  /** If-Match of a new write: the server copy's version, unless an earlier queued write of the same document will change it first. */
  private baseVersion(id: string): string | undefined {
    return this.queue.some((w) => w.id === id) ? undefined : this.docs.get(id)?.version;
  }

  private async sendQueue(): Promise<void> {
    while (!this.stopped && this.queue.length) {
      const w = this.queue[0];
      try {
        await this.send(w);
      } catch (e) {
        if (e instanceof SvcError && (e.isNetworkError || e.status >= 500 || e.status === 429)) {
          this.setOnline(false);
          return; // kept: sent again when the connection returns
        }
        await this.takeBack(w, e);
      }
      this.queue.shift();
      await this.storage.deleteWrite(w.seq);
      this.rebuild();
      this.emit('pending', this.queue.length);
    }
  }

  /** Sends one queued write and keeps the server's answer as the copy's version. */
  private async send(w: QueuedWrite): Promise<void> {
    const ifMatch = w.ifMatch ?? this.docs.get(w.id)?.version;
    if (w.kind === 'create') {
      let version = '';
      const doc = await this.http.send<Doc<Record<string, unknown>>>({
        method: 'POST',
        path: `/${encodeURIComponent(this.collection.name)}/docs`,
        body: w.body,
        idempotent: { key: w.key },
        onHeaders: (h) => (version = (h.get('etag') ?? '').replace(/"/g, '')),
      });
      if (version) await this.applyChanges([{ op: 'upsert', id: w.id, version, document: doc }]);
    } else if (w.kind === 'update') {
      const { document, version } = await this.collection.updateVersioned(w.id, w.body as never, { ifMatch, idempotencyKey: w.key });
      if (document && version) await this.applyChanges([{ op: 'upsert', id: w.id, version, document: document as Doc<Record<string, unknown>> }]);
    } else {
      await this.collection.delete(w.id, { ifMatch, idempotencyKey: w.key });
      const held = this.docs.get(w.id);
      if (held) await this.applyChanges([{ op: 'delete', id: w.id, version: String(BigInt(held.version) + 1n) }]);
    }
  }

  /** A refused write: taken back from the view (the server's version stays), told, and maybe merged and sent again. */
  private async takeBack(w: QueuedWrite, e: unknown): Promise<void> {
    if (!(e instanceof SvcError)) throw e;
    const local = (this.view.get(w.id) ?? null) as Doc<T> | null;
    if (e.status === 412 && e.current) {
      await this.applyChanges([{ op: 'upsert', id: w.id, version: e.current.version, document: e.current.document as Doc<Record<string, unknown>> }]);
    } else if (e.status === 404) {
      const held = this.docs.get(w.id);
      if (held) await this.applyChanges([{ op: 'delete', id: w.id, version: String(BigInt(held.version) + 1n) }]);
    }
    const server = (this.docs.get(w.id)?.document ?? null) as Doc<T> | null;
    this.emit('conflict', { write: w, error: e, local: w.kind === 'delete' ? null : local, server });
    const merged = this.opts.onConflict && (await this.opts.onConflict(w.kind === 'delete' ? null : local, server));
    if (merged && server) {
      const patch = mergePatchBetween(server as Record<string, unknown>, merged);
      const again: QueuedWrite = { seq: nextSeq(), kind: 'update', id: w.id, body: patch, ifMatch: this.docs.get(w.id)?.version, key: crypto.randomUUID() };
      this.queue.push(again);
      await this.storage.putWrite(again);
    }
  }

  /** The local view: the server's copy with the queued writes applied in order. */
  private rebuild(): void {
    this.view = applyLocally(this.docs, this.queue) as Map<string, Doc<T>>;
    this.emit('change');
  }

  private setOnline(online: boolean): void {
    if (online === this.isOnline) return;
    this.isOnline = online;
    this.emit('online', online);
  }

  private emit<K extends keyof ReplicaEvents<T>>(event: K, ...args: Parameters<ReplicaEvents<T>[K]>): void {
    for (const l of this.listeners.get(event) ?? []) (l as (...a: unknown[]) => void)(...args);
  }
}
