import type { CallOptions, Sender } from './http.js';
import type { Doc, ListParams, ListResult, MergePatch, NewDoc } from './types.js';

/** Options of the page iterator. */
export interface IterateParams extends Omit<ListParams, 'offset' | 'limit'> {
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
  ) {
    this.docs = `/${encodeURIComponent(name)}/docs`;
  }

  /** Inserts a document (201). It may carry its own `id`; a duplicate id → 409 `conflict`. */
  create(data: NewDoc<T>, opts?: CallOptions): Promise<Doc<T>> {
    return this.http.send({ method: 'POST', path: this.docs, body: data, signal: opts?.signal });
  }

  /** One document; 404 `not_found` when there is none. */
  get(id: string, opts?: CallOptions): Promise<Doc<T>> {
    return this.http.send({ method: 'GET', path: this.path(id), signal: opts?.signal });
  }

  /**
   * Applies a JSON Merge Patch (nested objects merge, `null` removes a field); answers the whole
   * document. With a public key, when the update is applied but the `read` rule hides the result,
   * the server answers 204 and this resolves `undefined`.
   */
  update(id: string, patch: MergePatch<T>, opts?: CallOptions): Promise<Doc<T>> {
    return this.http.send({ method: 'PATCH', path: this.path(id), body: patch, contentType: 'application/merge-patch+json', signal: opts?.signal });
  }

  /** Deletes a document; 404 `not_found` when there is none. */
  async delete(id: string, opts?: CallOptions): Promise<void> {
    await this.http.send({ method: 'DELETE', path: this.path(id), signal: opts?.signal });
  }

  /** Inserts up to 1,000 documents, all or nothing; answers them in input order. */
  async bulkCreate(documents: NewDoc<T>[], opts?: CallOptions): Promise<Doc<T>[]> {
    const r = await this.http.send<{ documents: Doc<T>[] }>({
      method: 'POST',
      path: `/${encodeURIComponent(this.name)}/bulk`,
      body: { documents },
      signal: opts?.signal,
    });
    return r.documents;
  }

  /** One page: `{ documents, total, limit, offset }`; `filter` is an object, JSON-encoded here. */
  list(params: ListParams = {}, opts?: CallOptions): Promise<ListResult<T>> {
    const { filter, ...rest } = params;
    return this.http.send({
      method: 'GET',
      path: this.docs,
      signal: opts?.signal,
      query: { ...rest, filter: filter === undefined ? undefined : JSON.stringify(filter) },
    });
  }

  /**
   * Every document matching the parameters, page by page (offset paging in a stable order: ties
   * break by id). Documents inserted or deleted while iterating may shift pages, as with any offset
   * paging; iterate by `createdAt` (the default) when new documents only append.
   */
  async *iterate(params: IterateParams = {}): AsyncGenerator<Doc<T>, void, undefined> {
    const { pageSize = 100, signal, ...list } = params;
    for (let offset = 0; ; ) {
      const page = await this.list({ ...list, limit: pageSize, offset }, { signal });
      yield* page.documents;
      offset += page.documents.length;
      if (page.documents.length < pageSize || offset >= page.total) return;
    }
  }

  /** `for await (const doc of client.collection('posts'))`: every document, oldest first. */
  [Symbol.asyncIterator](): AsyncGenerator<Doc<T>, void, undefined> {
    return this.iterate();
  }

  private path(id: string): string {
    return `${this.docs}/${encodeURIComponent(id)}`;
  }
}
