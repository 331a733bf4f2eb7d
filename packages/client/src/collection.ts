import { versionOf } from './errors.js';
import type { CallOptions, Sender, SendOptions, WriteOptions } from './http.js';
import type { RealtimeService } from './realtime.js';
import { Replica, type ReplicaOptions } from './replica/replica.js';
import type { Doc, FieldPath, ListParams, ListResult, MergePatch, NewDoc, Projected, UpdateDocument, Versioned } from './types.js';

/** Options of an update or a delete: `ifMatch`, a version (or `'*'`) the document must still be at, else 412 `precondition_failed`. */
export interface ConditionalOptions extends WriteOptions {
  ifMatch?: string;
}

/** The Idempotency-Key of a write: the caller's, or one the SDK makes (http.ts). */
const idempotent = (opts: WriteOptions | undefined): SendOptions['idempotent'] => (opts?.idempotencyKey ? { key: opts.idempotencyKey } : true);
/** `If-Match` for a version (quoted as the strong tag the server sends) or `*`. */
const ifMatchHeader = (opts: ConditionalOptions | undefined): Record<string, string> | undefined =>
  opts?.ifMatch === undefined ? undefined : { 'if-match': opts.ifMatch === '*' ? '*' : `"${opts.ifMatch}"` };
/** An update document (every top-level key an operator) rather than a merge patch. */
const isUpdateDocument = (patch: object): boolean => Object.keys(patch).length > 0 && Object.keys(patch).every((k) => k.startsWith('$'));

/** Options of the page iterator (`cursor`: resume after a page's `nextCursor`). */
export interface IterateParams<T extends object = Record<string, unknown>> extends Omit<ListParams<T>, 'offset' | 'limit'> {
  /** Documents per request (default 100, at most 1000). */
  pageSize?: number;
  signal?: AbortSignal;
}

/**
 * The documents of one collection (API.md §1), typed with your document shape. With a public key
 * and a signed-in user, every call carries the user's session, so the database's access rules
 * (§10) decide what it may read and write.
 *
 * @example
 * interface Post { title: string; score: number }
 * const posts = client.collection<Post>('posts');
 * const p = await posts.create({ title: 'Hi', score: 1 });
 * await posts.update(p.id, { score: 2 });
 * for await (const post of posts.iterate({ filter: { score: { $gte: 2 } } })) console.log(post.title);
 */
export class CollectionService<T extends object = Record<string, unknown>> {
  private readonly docs: string;

  constructor(
    private readonly http: Sender,
    readonly name: string,
    /** The client's realtime service: a replica's live socket (absent: replicas catch up only when asked). */
    private readonly realtime?: RealtimeService,
  ) {
    this.docs = `/${encodeURIComponent(name)}/docs`;
  }

  /**
   * Inserts a document (201). It may carry its own `id`; a duplicate id → 409 `conflict`. Sent with
   * an Idempotency-Key, so a retry after a lost answer never creates it twice.
   */
  create(data: NewDoc<T>, opts?: WriteOptions): Promise<Doc<T>> {
    return this.http.send({ method: 'POST', path: this.docs, body: data, signal: opts?.signal, idempotent: idempotent(opts) });
  }

  /** One document and its version (pass the version back as `ifMatch` to update it only if nobody changed it since). */
  async getVersioned(id: string, opts?: CallOptions): Promise<Versioned<T>> {
    let version = '';
    const document = await this.http.send<Doc<T>>({
      method: 'GET',
      path: this.path(id),
      signal: opts?.signal,
      onHeaders: (h) => (version = versionOf(h.get('etag') ?? '')),
    });
    return { document, version };
  }

  /** One document; 404 `not_found` when there is none. `fields`: only those (plus id, createdAt, updatedAt). */
  get(id: string, opts?: CallOptions): Promise<Doc<T>>;
  get(id: string, opts: CallOptions & { fields: readonly FieldPath<T>[] }): Promise<Doc<Projected<T>>>;
  get(id: string, opts?: CallOptions & { fields?: readonly FieldPath<T>[] }): Promise<Doc<T> | Doc<Projected<T>>> {
    return this.http.send({ method: 'GET', path: this.path(id), signal: opts?.signal, query: { fields: opts?.fields?.join(',') } });
  }

  /**
   * Applies a JSON Merge Patch (nested objects merge, `null` removes a field), or an update
   * document of operators (`{ $inc: { likes: 1 } }`, API.md §1.2) applied to the document as it is
   * when the write commits; answers the whole document. `ifMatch`: only if the document is still at
   * that version, else an SvcError 412 whose `current` holds the document as it is now. With a
   * public key, when the update is applied but the `read` rule hides the result, the server
   * answers 204 and this resolves `undefined`.
   */
  update(id: string, patch: MergePatch<T> | UpdateDocument<T>, opts?: ConditionalOptions): Promise<Doc<T> | undefined> {
    return this.http.send(this.updateRequest(id, patch, opts));
  }

  /** `update`, answering the new version too. */
  async updateVersioned(
    id: string,
    patch: MergePatch<T> | UpdateDocument<T>,
    opts?: ConditionalOptions,
  ): Promise<{ document: Doc<T> | undefined; version: string }> {
    let version = '';
    const document = await this.http.send<Doc<T> | undefined>({
      ...this.updateRequest(id, patch, opts),
      onHeaders: (h) => (version = versionOf(h.get('etag') ?? '')),
    });
    return { document, version };
  }

  private updateRequest(id: string, patch: object, opts: ConditionalOptions | undefined): SendOptions {
    return {
      method: 'PATCH',
      path: this.path(id),
      body: patch,
      contentType: isUpdateDocument(patch) ? 'application/json' : 'application/merge-patch+json',
      headers: ifMatchHeader(opts),
      signal: opts?.signal,
      idempotent: idempotent(opts),
    };
  }

  /** Deletes a document; 404 `not_found` when there is none; `ifMatch`: only at that version (else 412). */
  async delete(id: string, opts?: ConditionalOptions): Promise<void> {
    await this.http.send({ method: 'DELETE', path: this.path(id), headers: ifMatchHeader(opts), signal: opts?.signal, idempotent: idempotent(opts) });
  }

  /** Inserts up to 1,000 documents, all or nothing; answers them in input order. */
  async bulkCreate(documents: NewDoc<T>[], opts?: WriteOptions): Promise<Doc<T>[]> {
    const r = await this.http.send<{ documents: Doc<T>[] }>({
      method: 'POST',
      path: `/${encodeURIComponent(this.name)}/bulk`,
      body: { documents },
      signal: opts?.signal,
      idempotent: idempotent(opts),
    });
    return r.documents;
  }

  /**
   * One page: `{ documents, total, limit, offset, nextCursor }`. `filter` is an object, typed
   * against T and JSON-encoded here; pass `nextCursor` back as `cursor` for the next page. With
   * `fields`, the documents hold only those fields (typed as optional).
   */
  list(params?: ListParams<T> & { fields?: undefined }, opts?: CallOptions): Promise<ListResult<T>>;
  list(params: ListParams<T>, opts?: CallOptions): Promise<ListResult<Projected<T>>>;
  list(params: ListParams<T> = {}, opts?: CallOptions): Promise<ListResult<T> | ListResult<Projected<T>>> {
    const { filter, fields, ...rest } = params;
    return this.http.send({
      method: 'GET',
      path: this.docs,
      signal: opts?.signal,
      query: { ...rest, filter: filter === undefined ? undefined : JSON.stringify(filter), fields: fields?.join(',') },
    });
  }

  /**
   * Every document matching the parameters, page by page by cursor (keyset paging): each
   * document that exists when iterating starts is visited exactly once, in the list's order,
   * whatever is inserted meanwhile, and a deep page costs what the first one does.
   */
  iterate(params?: IterateParams<T> & { fields?: undefined }): AsyncGenerator<Doc<T>, void, undefined>;
  iterate(params: IterateParams<T>): AsyncGenerator<Doc<Projected<T>>, void, undefined>;
  async *iterate(params: IterateParams<T> = {}): AsyncGenerator<Doc<T> | Doc<Projected<T>>, void, undefined> {
    const { pageSize = 100, signal, cursor: start, ...list } = params;
    for (let cursor = start; ; ) {
      const page = await this.list({ ...list, limit: pageSize, cursor }, { signal });
      yield* page.documents;
      if (page.nextCursor === null) return;
      cursor = page.nextCursor;
    }
  }

  /** `for await (const doc of client.collection('posts'))`: every document, oldest first. */
  [Symbol.asyncIterator](): AsyncGenerator<Doc<T>, void, undefined> {
    return this.iterate();
  }

  /**
   * An offline-first copy of this collection (API.md §3.1): kept up to date by sync and the realtime
   * socket, queried locally with the server's semantics, written to while offline (docs/sync.md).
   *
   * @example
   * const todos = svc.collection<Todo>('todos').replica({ storage: new IndexedDbStorage('todos') });
   * await todos.ready;
   * todos.on('change', () => render(todos.query({ sortBy: 'createdAt' })));
   * await todos.create({ title: 'works offline' });
   */
  replica(opts: ReplicaOptions<T> = {}): Replica<T> {
    return new Replica<T>(this.http, this, this.realtime, opts);
  }

  private path(id: string): string {
    return `${this.docs}/${encodeURIComponent(id)}`;
  }
}
