import type { CallOptions, Sender } from './http.js';
import type { Doc, FieldPath, ListParams, ListResult, MergePatch, NewDoc, Projected } from './types.js';

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
  ) {
    this.docs = `/${encodeURIComponent(name)}/docs`;
  }

  /** Inserts a document (201). It may carry its own `id`; a duplicate id → 409 `conflict`. */
  create(data: NewDoc<T>, opts?: CallOptions): Promise<Doc<T>> {
    return this.http.send({ method: 'POST', path: this.docs, body: data, signal: opts?.signal });
  }

  /** One document; 404 `not_found` when there is none. `fields`: only those (plus id, createdAt, updatedAt). */
  get(id: string, opts?: CallOptions): Promise<Doc<T>>;
  get(id: string, opts: CallOptions & { fields: readonly FieldPath<T>[] }): Promise<Doc<Projected<T>>>;
  get(id: string, opts?: CallOptions & { fields?: readonly FieldPath<T>[] }): Promise<Doc<T> | Doc<Projected<T>>> {
    return this.http.send({ method: 'GET', path: this.path(id), signal: opts?.signal, query: { fields: opts?.fields?.join(',') } });
  }

  /**
   * Applies a JSON Merge Patch (nested objects merge, `null` removes a field); answers the whole
   * document. With a public key, when the update is applied but the `read` rule hides the result,
   * the server answers 204 and this resolves `undefined`.
   */
  update(id: string, patch: MergePatch<T>, opts?: CallOptions): Promise<Doc<T> | undefined> {
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

  private path(id: string): string {
    return `${this.docs}/${encodeURIComponent(id)}`;
  }
}
