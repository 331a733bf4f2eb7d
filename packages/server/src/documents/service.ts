import { ApiError, notFound } from '../errors.ts';
import { newId } from '../ids/ids.ts';
import type { Clock } from '../infra/clock.ts';
import { isoAt } from '../auth/tokens.ts';
import { isObject, mergePatch, type JsonObject } from '../json/merge-patch.ts';
import type { Limits } from '../config.ts';
import type { JsonSql, Param, Store, Transaction } from '../store/store.ts';
import { appendChanges, changeGroup, deferDocuments, nextEventId } from '../changes/append.ts';
import type { ChangeEvent, ChangeListener, NewChange } from '../changes/events.ts';
import { preconditionFailed, satisfies, type IfMatch } from './preconditions.ts';
import { applyUpdate, parseUpdate } from './update-operators.ts';
import { VersionStamp, changedOutside, type VersionedRow, type WriteOptions, type WriteStep, type Written } from './versions.ts';
import type { AutoIndexer } from './indexes.ts';
import { checkDocumentId, isDocumentId } from './names.ts';
import { checkFields } from './fields.ts';
import { compileFilter, parseField, type CompiledFilter } from './query.ts';
import { CountCache } from './count-cache.ts';
import type { Page, PageCache } from './page-cache.ts';
import { documentArrayJson, documentJson, type DocumentJson } from './document-json.ts';
import type { Scope, Scopes } from './rule-access.ts';
import { indexChanges, searchClause, type SearchClause } from './search.ts';
import type { CursorCodec } from './cursor.ts';
import { firstDifference, keyColumns, keysetRanges, keyValues, orderClause, sortOf } from './keyset.ts';
import { parseProjection, project, projectedText, projectionColumns, type Projection } from './projection.ts';
import { pointReads, type DocumentRow, type PointRead } from './point-reads.ts';
import { byId, inCollection } from './key-sql.ts';

/** A document as the API returns it: the user's fields with `id`, `createdAt`, `updatedAt` beside them. */
export type Document = JsonObject & { id: string; createdAt: string; updatedAt: string };

export interface ListQuery {
  /** 0: count only. */
  limit: number;
  /** Absent: 0; never with `cursor`. */
  offset?: number;
  /** Absent: createdAt, or the rank under `search`. */
  sortBy?: string;
  sortOrder: 'asc' | 'desc';
  filter?: string;
  /** Full-text words (§1.1); part of what a cursor is bound to. */
  search?: string;
  /** A `nextCursor` of a previous page with the same parameters. */
  cursor?: string;
  /** `fields=`: a comma-separated projection. */
  fields?: string;
}

/** Who asks for a list: the key's kind (an operator counts as a secret key) and the user a public key acts for (rule-access.ts). */
export interface Caller {
  kind: 'secret' | 'public';
  user?: string;
}

export interface DocumentsDeps {
  store: Store;
  limits: Limits;
  indexer: AutoIndexer;
  /** The time stamped on documents as createdAt / updatedAt and on their events. */
  clock: Clock;
  /** Told about every committed change, after the commit. */
  onChange: ChangeListener;
  /** Side effects that commit or roll back with the change (webhook deliveries). */
  inTransaction?: WriteHook[];
  /** Signs and reads list cursors. */
  cursors: CursorCodec;
  /** Answers of lists kept until their database changes (page-cache.ts); absent: every list reads the store. */
  pages?: PageCache;
}

/**
 * A side effect of a write that commits or rolls back with it, in two phases inside the write's
 * transaction. Its reads (`prefetch`) happen before the change log is appended, so outside a
 * commit group they stay out of the serialised tail of the transaction (changes/append.ts: from
 * the counter update to COMMIT writers of one database wait for each other); its writes (`apply`)
 * need the events' ids, so they come after. Work for after the commit goes through
 * `tx.afterCommit`; like the write itself, both phases may run twice (a group that runs again).
 *
 * @example
 *   { prefetch: (tx, db) => hooksOf(tx, db), apply: async (tx, hooks, events) => { await queue(tx, hooks, events); tx.afterCommit(wake); } }
 */
export interface WriteHook<Prefetched = unknown> {
  /** Reads what `apply` needs; undefined when this write needs nothing of the hook (apply is skipped). */
  prefetch(tx: Transaction, databaseId: string): Promise<Prefetched | undefined>;
  /** Writes the side effect once the changes have their ids. */
  apply(tx: Transaction, prefetched: Prefetched, events: ChangeEvent[]): Promise<void>;
}

const SYSTEM_FIELDS = ['id', 'createdAt', 'updatedAt'];

/**
 * A signed cursor holds only values its list produced, but one forged by someone who knows the key
 * could hold text where PostgreSQL expects a number: its data exception (SQLSTATE class 22) is the
 * cursor's fault, a 400, never a 500.
 */
const refuseForged = (e: unknown): never => {
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code.startsWith('22')) throw new ApiError('invalid_cursor', 'The cursor does not fit this sort');
  throw e;
};

/**
 * A read rule's filter as SQL, compiled once per filter object: rule-access.ts keeps one scope per
 * rule and per the values of its `$auth` operands, so a public key's lists reuse it (keyed by the
 * dialect's JSON spelling too: tests run both stores in one process). The result is only read.
 */
const compiledRules = new WeakMap<JsonObject, { json: JsonSql; compiled: CompiledFilter }>();
function ruleSql(json: JsonSql, filter: JsonObject): CompiledFilter {
  const known = compiledRules.get(filter);
  if (known?.json === json) return known.compiled;
  const compiled = compileFilter(json, JSON.stringify(filter));
  compiledRules.set(filter, { json, compiled });
  return compiled;
}

/**
 * `LIMIT <n> OFFSET ?`: the page size is written into the SQL text, the offset bound. On SQLite a
 * bound LIMIT marks the statement expired on every rebind (its value feeds the planner), so each
 * list re-parsed and re-planned its SQL: 8 % of a list's CPU, 40 → 31 µs per execution measured on
 * 20k documents. `n` is a validated page size (+1), so the statements it makes are few and safe.
 */
function limitClause(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`limitClause: not a row count: ${n}`);
  return `LIMIT ${n} OFFSET ?`;
}

/** The 404 of a document (a path id is any string: cut it short in the message). */
const missing = (collection: string, id: string) => notFound(`Document '${id.slice(0, 200)}' not found in collection '${collection}'`);

function toDocument(id: string, data: JsonObject, createdAt: string, updatedAt: string): Document {
  return { id, ...data, createdAt, updatedAt } as Document;
}

const fromRow = (r: DocumentRow): Document => toDocument(r.id, JSON.parse(r.data) as JsonObject, r.created_at, r.updated_at);
const jsonOfRow = (r: DocumentRow): DocumentJson => documentJson(r.id, r.data, r.created_at, r.updated_at);
/** A row as the API returns it, only the projected fields when there is a projection. */
const shownRow = (r: DocumentRow, projection: Projection | undefined): DocumentJson =>
  projection ? documentJson(r.id, JSON.stringify(project(JSON.parse(r.data) as JsonObject, projection)), r.created_at, r.updated_at) : jsonOfRow(r);

/** The user's fields of a body: system fields are not stored in `data`. */
function userFields(body: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(body)) if (!SYSTEM_FIELDS.includes(k)) out[k] = v;
  return out;
}

/**
 * A new document under a public key's create rule (API.md §10): 403 `forbidden` when the rule
 * does not match it, as the list would see it (system fields included), or when it carries its
 * own id and the rule names no `id` (a 409 would tell whether a hidden document has that id).
 */
function checkCreate(scope: Scope, doc: Document, ownId: boolean, collection: string, index?: number): void {
  const which = index === undefined ? 'The document' : `Document ${index} of the bulk`;
  // Third version: a UUID in canonical lower-case form is allowed whatever the rule says about `id`
  // (an offline replica makes its own ids, §3.1); it reveals nothing a guess could find.
  if (ownId && !scope.namesId && !CANONICAL_UUID.test(doc.id)) {
    throw new ApiError(
      'forbidden',
      `${which} carries its own id, which the create rule of collection '${collection}' does not allow: let the service choose it`,
    );
  }
  if (!scope.matches(doc)) throw new ApiError('forbidden', `${which} is not allowed by the create rule of collection '${collection}'`);
}

/** A UUID as RFC 9562 writes it, lower-case (API.md §10, third version). */
const CANONICAL_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The stored document is one the operation's rule and the read rule both match (else: 404, as if it did not exist). */
const visible = (scopes: Scopes, doc: Document) => scopes.operation.matches(doc) && (scopes.read?.matches(doc) ?? true);

/** A bulk naming one id twice: 409 naming it (the insert itself would only see one of the two). */
function refuseRepeatedIds(items: Array<{ id: string }>, collection: string): void {
  const seen = new Set<string>();
  for (const { id } of items) {
    if (seen.has(id)) throw new ApiError('conflict', `The id '${id}' appears more than once in the request for collection '${collection}'`);
    seen.add(id);
  }
}

/** A document of a create or a bulk, checked and serialised; `generated`: the service chose its id. */
interface NewDocument {
  id: string;
  data: JsonObject;
  text: string;
  generated: boolean;
}
/** A new document with the version its insert stamps. */
type VersionedNew = NewDocument & { version: string };

/**
 * Per shared transaction of a commit group (its state object), what each write hook prefetched:
 * the writes of one group run one after another on one connection, under the database's lock,
 * so the first one's read (e.g. the database's webhooks) serves them all, saving a round trip
 * per write. Outside a group (SQLite; a lone transaction) every write reads for itself.
 */
const prefetchedInGroup = new WeakMap<object, Map<WriteHook, Promise<unknown>>>();

function prefetchOnce(hook: WriteHook, tx: Transaction, databaseId: string): Promise<unknown> {
  const state = tx.group?.state;
  if (typeof state !== 'object' || state === null) return hook.prefetch(tx, databaseId);
  let byHook = prefetchedInGroup.get(state);
  if (!byHook) prefetchedInGroup.set(state, (byHook = new Map()));
  let read = byHook.get(hook);
  if (!read) {
    read = hook.prefetch(tx, databaseId);
    byHook.set(hook, read);
    // A failed read is not kept: the member fails (and may run again), the next one reads anew.
    read.catch(() => byHook.delete(hook));
  }
  return read;
}

/** The service behind the §1 routes. Every write records its change in the same transaction. */
export class DocumentsService {
  private readonly counts = new CountCache();
  private readonly readById: PointRead;
  /** `WHERE` of one document by its key (key-sql.ts). */
  private readonly oneDocument: string;

  constructor(private readonly deps: DocumentsDeps) {
    this.readById = pointReads(deps.store);
    this.oneDocument = byId(deps.store.dialect);
  }

  private now(): string {
    return isoAt(this.deps.clock);
  }

  private get store(): Store {
    return this.deps.store;
  }

  /** Serialises user data, enforcing the document size limit (413). */
  private serialize(data: JsonObject): string {
    const text = JSON.stringify(data);
    if (Buffer.byteLength(text) > this.deps.limits.documentBytes) {
      throw new ApiError(
        'payload_too_large',
        `A document may be at most ${this.deps.limits.documentBytes} bytes serialised (the server's LIMIT_DOCUMENT_BYTES)`,
      );
    }
    return text;
  }

  private prepareNew(body: unknown, index?: number): NewDocument {
    const where = index === undefined ? '' : `/documents/${index}`;
    if (!isObject(body)) throw new ApiError('validation_failed', 'A document is a JSON object', [{ path: where || '/', message: 'must be an object' }]);
    checkFields(body, where);
    const generated = body.id === undefined;
    const id = generated ? newId() : checkDocumentId(body.id);
    const data = userFields(body);
    return { id, data, text: this.serialize(data), generated };
  }

  /**
   * Runs a writing transaction: the change, its hooks' reads, the change log, the hooks' writes;
   * announces the changes after COMMIT. In the database's commit group: on PostgreSQL the writes
   * of a database waiting together share one transaction and one COMMIT (changes/append.ts).
   * `record`: runs last inside the transaction with the answer (an idempotency key's, §1.2).
   */
  private async write<T>(databaseId: string, fn: WriteStep<T>, record?: (tx: Transaction, result: T) => Promise<void>): Promise<T> {
    return this.store.transaction(
      async (tx) => {
        const stamp = new VersionStamp(await nextEventId(tx, this.store.dialect, databaseId));
        const { result, changes } = await fn(tx, stamp);
        await this.logChanges(tx, databaseId, changes, stamp);
        if (record) await record(tx, result);
        return result;
      },
      changeGroup(databaseId, this.store.dialect),
    );
  }

  /**
   * Runs several steps in one transaction of the database's commit group, each seeing the ones
   * before it, their events numbered in step order (API.md §1.2 batch): all committed or none.
   */
  async writeAll<T>(databaseId: string, steps: Array<WriteStep<T>>, record?: (tx: Transaction, results: T[]) => Promise<void>): Promise<T[]> {
    return this.store.transaction(
      async (tx) => {
        const stamp = new VersionStamp(await nextEventId(tx, this.store.dialect, databaseId));
        const results: T[] = [];
        for (const step of steps) {
          const { result, changes } = await step(tx, stamp);
          await this.logChanges(tx, databaseId, changes, stamp);
          results.push(result);
        }
        if (record) await record(tx, results);
        return results;
      },
      changeGroup(databaseId, this.store.dialect),
    );
  }

  /** A step's changes into the search index, the hooks and the change log, with the versions its writes stamped. */
  private async logChanges(tx: Transaction, databaseId: string, changes: NewChange[], stamp: VersionStamp): Promise<void> {
    await indexChanges(tx, this.store.dialect, databaseId, changes);
    const hooks: Array<{ hook: WriteHook; prefetched: unknown }> = [];
    for (const hook of this.deps.inTransaction ?? []) {
      const prefetched = await prefetchOnce(hook, tx, databaseId);
      if (prefetched !== undefined) hooks.push({ hook, prefetched });
    }
    const events = await appendChanges(tx, this.store.dialect, databaseId, changes);
    stamp.check(events);
    for (const { hook, prefetched } of hooks) await hook.apply(tx, prefetched, events);
    if (events.length) tx.afterCommit(() => this.deps.onChange(events));
  }

  /**
   * Inserts documents (all or nothing); 409 when an id is taken. In a commit group, documents whose
   * ids the service generated go in at the group's end, all in one statement (changes/append.ts
   * deferDocuments): their ids cannot be taken, so nothing here waits for an answer. `now`: a
   * batch's later steps must find the rows, so it inserts them at once.
   */
  private async insert(tx: Transaction, databaseId: string, collection: string, items: VersionedNew[], now: string, defer = true) {
    if (defer && items.every((d) => d.generated) && deferDocuments(tx, databaseId, collection, items, now)) return;
    const jp = this.store.dialect.jsonParam;
    for (let start = 0; start < items.length; start += 500) {
      const chunk = items.slice(start, start + 500);
      const params: Param[] = chunk.flatMap((d) => [databaseId, collection, d.id, d.text, now, now, d.version]);
      const inserted = await tx.all<{ id: string }>(
        `INSERT INTO documents (database_id, collection, id, data, created_at, updated_at, version) VALUES ${chunk.map(() => `(?, ?, ?, ${jp}, ?, ?, ?)`).join(', ')}
         ON CONFLICT (database_id, collection, id) DO NOTHING RETURNING id`,
        params,
      );
      if (inserted.length !== chunk.length) {
        const got = new Set(inserted.map((r) => r.id));
        const taken = chunk.find((d) => !got.has(d.id))?.id;
        throw new ApiError('conflict', `A document with id '${taken}' already exists in collection '${collection}'`);
      }
    }
  }

  /** Inserts one document; `scope`: a public key's create rule, checked before anything is written. */
  async create(databaseId: string, collection: string, body: unknown, scope?: Scope, options: WriteOptions<Written> = {}): Promise<Written> {
    return this.write(databaseId, this.createStep(databaseId, collection, body, scope, true), options.record);
  }

  /** The step of a create (also a batch's `create`): checks first, then the insert; `defer`: may wait for the group's end. */
  createStep(databaseId: string, collection: string, body: unknown, scope: Scope | undefined, defer: boolean): WriteStep<Written> {
    const item = this.prepareNew(body);
    const now = this.now();
    const doc = toDocument(item.id, item.data, now, now);
    if (scope) checkCreate(scope, doc, (body as JsonObject).id !== undefined, collection);
    return async (tx, stamp) => {
      const version = stamp.take();
      await this.insert(tx, databaseId, collection, [{ ...item, version }], now, defer);
      return {
        result: { json: documentJson(item.id, item.text, now, now), version },
        changes: [{ collection, type: 'document.created', document: doc, previous: null, timestamp: now }],
      };
    };
  }

  /** Inserts documents all or nothing; answers `{"documents":[…]}` as JSON text. `scope`: as for create, every document. */
  async bulkCreate(databaseId: string, collection: string, bodies: unknown[], scope?: Scope, options: WriteOptions<string> = {}): Promise<string> {
    if (bodies.length > this.deps.limits.bulkDocuments) {
      throw new ApiError(
        'payload_too_large',
        `A bulk request takes at most ${this.deps.limits.bulkDocuments} documents (the server's LIMIT_BULK_DOCUMENTS): split it`,
      );
    }
    const items = bodies.map((b, i) => this.prepareNew(b, i));
    refuseRepeatedIds(items, collection);
    const now = this.now();
    const docs = items.map((d) => toDocument(d.id, d.data, now, now));
    if (scope) for (const [i, doc] of docs.entries()) checkCreate(scope, doc, (bodies[i] as JsonObject).id !== undefined, collection, i);
    const result = `{"documents":${documentArrayJson(items.map((d) => documentJson(d.id, d.text, now, now)))}}`;
    if (docs.length === 0) {
      if (options.record) await this.store.transaction((tx) => options.record!(tx, result));
      return result;
    }
    return this.write(
      databaseId,
      async (tx, stamp) => {
        // One event per document in input order, consecutive ids: the versions taken in that order.
        await this.insert(
          tx,
          databaseId,
          collection,
          items.map((d) => ({ ...d, version: stamp.take() })),
          now,
        );
        return { result, changes: docs.map((document) => ({ collection, type: 'document.created' as const, document, previous: null, timestamp: now })) };
      },
      options.record,
    );
  }

  /** One document and its version; `read`: a public key's read rule (a document it does not match is 404); `fields`: a projection (§1.1). */
  async get(databaseId: string, collection: string, id: string, read?: Scope, fields?: string): Promise<Written> {
    const projection = parseProjection(fields);
    if (!isDocumentId(id)) throw missing(collection, id);
    const row = await this.readById(databaseId, collection, id);
    if (!row || (read?.filter && !read.matches(fromRow(row)))) throw missing(collection, id);
    return { json: shownRow(row, projection), version: row.version };
  }

  /**
   * A PATCH of one document (§1, §1.2): a JSON Merge Patch, or an update document of operators
   * applied to the locked current version. Under a public key's rules (§10), checked on the
   * locked current version: a document the update or read rule does not match is 404; a result
   * the update rule does not match is 403 `forbidden`; a result the read rule hides is written
   * and answered without a document (204, no body). `ifMatch`: 412 unless the current version is named.
   */
  async patch(databaseId: string, collection: string, id: string, body: unknown, scopes?: Scopes, options: WriteOptions<Written> = {}): Promise<Written> {
    return this.write(databaseId, this.updateStep(databaseId, collection, id, body, scopes, options.ifMatch), options.record);
  }

  /** The step of a PATCH (also a batch's `update`): the body is checked before the transaction. */
  updateStep(databaseId: string, collection: string, id: string, patch: unknown, scopes: Scopes | undefined, ifMatch?: IfMatch): WriteStep<Written> {
    if (!isObject(patch)) throw new ApiError('validation_failed', 'A merge patch is a JSON object', [{ path: '/', message: 'must be an object' }]);
    const update = parseUpdate(patch);
    if (!update) {
      checkFields(patch);
      if (patch.id !== undefined && patch.id !== id) {
        throw new ApiError('validation_failed', 'The body id must equal the path id', [{ path: '/id', message: 'must equal the id in the path' }]);
      }
    }
    if (!isDocumentId(id)) throw missing(collection, id);
    const changes = update ? undefined : userFields(patch);
    const { jsonParam } = this.store.dialect;
    return async (tx, stamp) => {
      const row = await this.lockedRow(tx, databaseId, collection, id);
      if (!row) throw missing(collection, id);
      const before = fromRow(row);
      if (scopes && !visible(scopes, before)) throw missing(collection, id);
      if (ifMatch && !satisfies(ifMatch, row.version)) throw preconditionFailed(row.version, before, `Document '${id}'`);
      const now = this.now();
      const current = JSON.parse(row.data) as JsonObject;
      const data = update ? applyUpdate(current, update, now) : (mergePatch(current, changes) as JsonObject);
      const doc = toDocument(id, data, row.created_at, now);
      if (scopes && !scopes.operation.matches(doc)) {
        throw new ApiError('forbidden', `The update rule of collection '${collection}' does not allow the document this update would make`);
      }
      if (scopes?.fields && changedOutside(before, doc, scopes.fields)) {
        throw new ApiError('forbidden', `The update rule of collection '${collection}' lets this update change only ${scopes.fields.join(', ')}`);
      }
      const text = this.serialize(data);
      const version = stamp.take();
      await tx.run(`UPDATE documents SET data = ${jsonParam}, updated_at = ?, version = ? WHERE ${this.oneDocument}`, [
        text,
        now,
        version,
        databaseId,
        collection,
        id,
      ]);
      const hidden = scopes?.read !== undefined && !scopes.read.matches(doc);
      return {
        result: { json: hidden ? undefined : documentJson(id, text, row.created_at, now), version },
        changes: [{ collection, type: 'document.updated', document: doc, previous: before, timestamp: now }],
      };
    };
  }

  /** The current row of a document, locked until COMMIT, with its version. */
  private lockedRow(tx: Transaction, databaseId: string, collection: string, id: string): Promise<VersionedRow | undefined> {
    const { jsonText, lockRows } = this.store.dialect;
    return tx.get<VersionedRow>(
      `SELECT id, ${jsonText('data')} AS data, created_at, updated_at, CAST(version AS TEXT) AS version FROM documents WHERE ${this.oneDocument}${lockRows}`,
      [databaseId, collection, id],
    );
  }

  /** Deletes one document; under a public key's rules (§10), one the delete or read rule does not match is 404; `ifMatch`: 412 unless named. */
  async delete(databaseId: string, collection: string, id: string, scopes?: Scopes, options: WriteOptions<Written | undefined> = {}): Promise<void> {
    await this.write(databaseId, this.deleteStep(databaseId, collection, id, scopes, options.ifMatch), options.record);
  }

  /** The step of a DELETE (also a batch's `delete`). */
  deleteStep(databaseId: string, collection: string, id: string, scopes: Scopes | undefined, ifMatch?: IfMatch): WriteStep<undefined> {
    if (!isDocumentId(id)) throw missing(collection, id);
    const { jsonText } = this.store.dialect;
    const key = [databaseId, collection, id];
    return async (tx, stamp) => {
      // Under rules or a precondition the current version is read (and locked) first, and judged before it goes.
      const judged = scopes !== undefined || ifMatch !== undefined;
      const row = judged
        ? await this.lockedRow(tx, databaseId, collection, id)
        : await tx.get<DocumentRow>(`DELETE FROM documents WHERE ${this.oneDocument} RETURNING id, ${jsonText('data')} AS data, created_at, updated_at`, key);
      if (!row) throw missing(collection, id);
      const doc = fromRow(row);
      if (judged) {
        if (scopes && !visible(scopes, doc)) throw missing(collection, id);
        const version = (row as VersionedRow).version;
        if (ifMatch && !satisfies(ifMatch, version)) throw preconditionFailed(version, doc, `Document '${id}'`);
        await tx.run(`DELETE FROM documents WHERE ${this.oneDocument}`, key);
      }
      stamp.take();
      return { result: undefined, changes: [{ collection, type: 'document.deleted', document: doc, previous: null, timestamp: this.now() }] };
    };
  }

  /**
   * A batch's `check` (§1.2): the document as GET would see it (404 when missing or hidden by the
   * read rule), read and locked in the batch's transaction; 412 at another version. Writes nothing.
   */
  checkStep(databaseId: string, collection: string, id: string, read: Scope | undefined, ifMatch: IfMatch): WriteStep<Written> {
    if (!isDocumentId(id)) throw missing(collection, id);
    return async (tx) => {
      const row = await this.lockedRow(tx, databaseId, collection, id);
      if (!row) throw missing(collection, id);
      const doc = fromRow(row);
      if (read && !read.matches(doc)) throw missing(collection, id);
      if (!satisfies(ifMatch, row.version)) throw preconditionFailed(row.version, doc, `Document '${id}'`);
      return { result: { json: undefined, version: row.version }, changes: [] };
    };
  }

  /**
   * A page of a collection with the total of the (filtered) set, as JSON text. `read`: a public
   * key's read rule (§10), whose filter is ANDed in SQL before the caller's, as a barrier: the page,
   * the total and the sort only ever see the documents it lets through. Answered from the
   * PageCache when the same list was answered at the database's current version.
   */
  async list(databaseId: string, collection: string, q: ListQuery, read: Scope | undefined, caller: Caller): Promise<string> {
    await this.deps.cursors.ready();
    if (q.search || !this.deps.pages) return (await this.readPage(databaseId, collection, q, read, caller)).text;
    // The caller is part of the key: the answer holds a cursor only it may use.
    return this.deps.pages.answer(databaseId, [collection, q, caller.kind, caller.user], read?.filter, () =>
      this.readPage(databaseId, collection, q, read, caller),
    );
  }

  /** `list`, read from the store. */
  private async readPage(databaseId: string, collection: string, q: ListQuery, read: Scope | undefined, caller: Caller): Promise<Page> {
    const { dialect } = this.store;
    const { cursors } = this.deps;
    const sortField = parseField(q.sortBy ?? 'createdAt', (m) => new ApiError('validation_failed', `sortBy: ${m}`, [{ path: '/sortBy', message: m }]));
    const projection = parseProjection(q.fields);
    // Full-text search (search.ts): a condition like a filter's, and the order by rank unless sortBy is given.
    const searched = await searchClause(this.store, dialect, databaseId, collection, q.search);
    if (q.cursor !== undefined && q.offset !== undefined) {
      throw new ApiError('invalid_cursor', 'cursor and offset exclude each other: the cursor says where the page starts');
    }
    const sort =
      searched && q.sortBy === undefined
        ? { keys: [searched.rankKey], nullable: [false], desc: false }
        : sortOf(dialect.json, sortField, q.sortOrder === 'desc');
    // A cursor is bound to everything the order and the set depend on, and to its caller; limit and fields may change between pages.
    // The effective sort: no sortBy means createdAt (or the rank, under a search), so both spellings share cursors.
    const binding = cursors.binding([
      databaseId,
      collection,
      q.sortBy ?? (searched ? undefined : 'createdAt'),
      q.sortOrder,
      q.filter,
      q.search || undefined,
      `${caller.kind}:${caller.user ?? ''}`,
    ]);
    const after = q.cursor === undefined ? undefined : cursors.decode(q.cursor, binding, sort.nullable);
    const rule = read?.filter === undefined ? undefined : ruleSql(dialect.json, read.filter);
    const own = q.filter === undefined ? undefined : compileFilter(dialect.json, q.filter);
    const filters = [rule, own, searched && { ...searched, paths: [] }].filter((f) => f !== undefined);
    const filter = filters.length
      ? { sql: filters.map((f) => `(${f.sql})`).join(' AND '), params: filters.flatMap((f) => f.params), paths: filters.flatMap((f) => f.paths) }
      : undefined;
    // The fields this list filters or sorts by ask for their automatic index (indexes.ts counts the
    // asks), here and each time the same list is answered from the PageCache. Only a secret key's
    // or an operator's: anyone may send a public key's filters and sorts, and four databases'
    // public keys spent the indexes of everyone. Of a public key's list, only the fields its read
    // rule filters on ask (the rule was written with the secret key; rule-indexes.ts asks for them
    // when it is saved, and these asks build them once documents hold the fields).
    let askForIndexes: (() => void) | undefined;
    const asked = caller.kind === 'secret' ? filter?.paths : rule?.paths;
    const sortAsked = caller.kind === 'secret' && 'path' in sortField ? sortField.path : undefined;
    if (asked?.length || sortAsked) {
      const byCreatedAt = !(searched && q.sortBy === undefined) && 'column' in sortField && sortField.column === 'created_at';
      const wanted = { filter: asked ?? [], sort: sortAsked, byCreatedAt };
      askForIndexes = () => void this.deps.indexer.ensure(databaseId, collection, wanted);
      askForIndexes();
    }
    const where = `${inCollection(dialect)}${filter ? ` AND ${filter.sql}` : ''}`;
    const params: Param[] = [databaseId, collection, ...(filter?.params ?? [])];
    // A ranked search's page starts from its matches (search.ts), each document looked up by key.
    const unsearched = [rule, own].filter((f) => f !== undefined);
    const present = `EXISTS (SELECT 1 FROM documents WHERE ${inCollection(dialect)} AND id = search.id${unsearched.map((f) => ` AND (${f.sql})`).join('')})`;
    const presentParams: Param[] = [databaseId, collection, ...unsearched.flatMap((f) => f.params)];
    const offset = q.offset ?? 0;
    // The total rides along with the page as a column (one query instead of two): the collection's
    // counter when unfiltered, else the database's version, which keys the CountCache. As text
    // either way: the version is the 64-bit event counter (changes/read.ts).
    const extra = filter
      ? { sql: '(SELECT CAST(last_event_id AS TEXT) FROM databases WHERE id = ?)', params: [databaseId] }
      : { sql: '(SELECT CAST(count AS TEXT) FROM collections WHERE database_id = ? AND name = ?)', params: [databaseId, collection] };
    const totalOf = async (known: string | null | undefined) =>
      filter ? await this.filteredTotal(databaseId, known ?? '0', where, params) : Number(known ?? 0);
    const answer = (documents: DocumentJson[], total: number, nextCursor: string | null): Page => ({
      text: `{"documents":${documentArrayJson(documents)},"total":${total},"limit":${q.limit},"offset":${offset},"nextCursor":${JSON.stringify(nextCursor)}}`,
      onHit: askForIndexes,
    });
    if (q.limit === 0) {
      // Count only: no page query.
      return answer([], await totalOf((await this.store.get<{ v: string | null }>(`SELECT ${extra.sql} AS v`, extra.params))?.v), null);
    }
    // One row more than the page tells whether there is a next page (nextCursor null on the last).
    type Row = DocumentRow & { extra: string | null } & Record<string, unknown>;
    // A search's first page counts its matches in the same query (all of them are ranked anyway): one
    // full-text lookup instead of two. Later pages find the count in the CountCache. (Only the
    // query that reads the page: with `withExtra`; the probe of its rows' sizes counts nothing.)
    const counted = searched !== undefined && after === undefined;
    // With a projection, only the named fields leave the store (projection.ts).
    const userColumns = projection ? projectionColumns(dialect.name, projection) : `${dialect.jsonText('data')} AS data`;
    const select = (range: { sql: string; params: Param[]; order: string }, n: number, skip: number, withExtra = true, columns = userColumns) =>
      searched
        ? searchedSelect(searched, range, n, skip, withExtra, columns)
        : {
            sql: `SELECT id, ${columns ? `${columns}, ` : ''}created_at, updated_at${withExtra ? `, ${extra.sql} AS extra` : ''}${keyColumns(sort)}${counted && withExtra ? ', count(*) OVER () AS matched' : ''} FROM documents
         WHERE ${where}${range.sql ? ` AND ${range.sql}` : ''} ORDER BY ${range.order} ${limitClause(n)}`,
            params: [...(withExtra ? extra.params : []), ...params, ...range.params, skip],
          };
    // A search: the page's ids, sort keys and the count come from narrow rows (a search may match
    // most of a collection, and every match is counted), and only the page's rows are read whole,
    // by key. Ranked, the rows are the matches (ranked in the pass that finds them), each document's
    // presence (and the rule's and filter's verdict) looked up by its key: by key, so that no estimate
    // can turn a lookup into a scan per row (a new tenant's rows have no statistics yet). With sortBy,
    // the documents that match, as any list. The columns split at ', ' (field names are identifiers:
    // projection.ts).
    const searchedSelect = (
      s: SearchClause,
      range: { sql: string; params: Param[]; order: string },
      n: number,
      skip: number,
      withExtra: boolean,
      userColumns: string,
    ) => {
      const ranked = q.sortBy === undefined;
      const from = ranked
        ? { sql: `${s.ranked.sql} WHERE (${present}) IS TRUE`, params: [...s.ranked.params, ...presentParams] }
        : { sql: `documents WHERE ${where}`, params };
      const dir = sort.desc ? ' DESC' : '';
      const keys = sort.keys.map((_, i) => `k${i}`);
      const columns = [...(userColumns ? userColumns.split(', ') : []), 'created_at', 'updated_at'];
      const byKey = (column: string) => {
        const [expression, name = column] = column.split(' AS ');
        return `(SELECT ${expression} FROM documents WHERE ${inCollection(dialect)} AND id = page.id) AS ${name}`;
      };
      return {
        sql: `SELECT id, ${columns.map(byKey).join(', ')}${withExtra ? `, ${extra.sql} AS extra` : ''}${keys.map((k) => `, ${k}`).join('')}${counted && withExtra ? ', matched' : ''}
          FROM (SELECT id${keyColumns(sort)}${counted && withExtra ? ', count(*) OVER () AS matched' : ''} FROM ${from.sql}${range.sql ? ` AND ${range.sql}` : ''}
            ORDER BY ${range.order} ${limitClause(n)}) AS page
          ORDER BY ${[...keys, 'id'].map((k) => k + dir).join(', ')}`,
        params: [...columns.flatMap(() => [databaseId, collection]), ...(withExtra ? extra.params : []), ...from.params, ...range.params, skip],
      };
    };
    // Bounded pages (§1.1): the page stops growing once its documents' JSON passes LIMIT_PAGE_BYTES,
    // the document that crosses it included. Where `limit` documents could pass it, the sizes of
    // the next rows are read first (narrow rows), and only the rows of the page (and the one after
    // it, for the cursor) are read whole: no answer's memory grows with limit × document size.
    let want = q.limit;
    let room = this.deps.limits.pageBytes;
    const mayPass = q.limit * this.deps.limits.documentBytes > room;
    /** How many of the next `n` rows of `range` to read: the page's (up to the one that crosses the limit) and one more. */
    const fitting = async (range: { sql: string; params: Param[]; order: string }, n: number, skip: number): Promise<number> => {
      if (!mayPass) return n;
      const probe = select(range, n, skip, false, `${dialect.jsonBytes('data')} AS size`);
      const sizes = await this.store.all<{ size: number | string }>(probe.sql, probe.params).catch(refuseForged);
      for (const [i, row] of sizes.entries()) {
        if (room < 0) {
          want -= n - 1 - i; // the page passed the limit with the row before this one
          return i + 1;
        }
        if (i < n - 1) room -= Number(row.size);
      }
      return n;
    };
    let rows: Row[];
    if (!after) {
      const whole = { sql: '', params: [], order: orderClause(sort) };
      const first = select(whole, await fitting(whole, q.limit + 1, offset), offset);
      rows = await this.store.all<Row>(first.sql, first.params);
    } else {
      // Keyset: the ranges after the cursor's position (keyset.ts), each read in index order, a page
      // at most, so a deep page costs what the first one does. Read in turn until the page is full:
      // as a rule one range (the cursor says which ranges were empty when its page was read), two or
      // three where the page crosses the end of a tie or of a type class.
      rows = [];
      let read = 0;
      for (const range of keysetRanges(sort, after.values, after.id, after.from, dialect.keyParam)) {
        if (rows.length > want) break;
        const next = select(range, await fitting(range, want - rows.length + 1, 0), 0, rows.length === 0);
        rows.push(...(await this.store.all<Row>(next.sql, next.params).catch(refuseForged)));
        read++;
      }
      // A document moved by a concurrent update may show in two ranges: once is enough. One range
      // (the rule) can't repeat a row: no set of ids to build then (hashing the ids was ~3 % of a cursor page's CPU).
      if (read > 1) {
        const seen = new Set<string>();
        rows = rows.filter((row) => !seen.has(row.id) && seen.add(row.id)).slice(0, want + 1);
      }
    }
    const page = rows.slice(0, want);
    const known = rows.length ? rows[0].extra : (await this.store.get<{ v: string | null }>(`SELECT ${extra.sql} AS v`, extra.params))?.v;
    const last = rows.length > want ? page[page.length - 1] : undefined;
    const lastValues = last && keyValues(sort, last);
    const nextCursor =
      last && lastValues ? cursors.encode(binding, { values: lastValues, id: last.id, from: firstDifference(lastValues, keyValues(sort, rows[want])) }) : null;
    const matched = counted && rows.length ? Number(rows[0].matched) : undefined;
    if (matched !== undefined) this.counts.set(this.counts.key(databaseId, known ?? '0', where, params), matched);
    return answer(
      page.map((r) => (projection ? documentJson(r.id, projectedText(projection, r), r.created_at, r.updated_at) : jsonOfRow(r))),
      matched ?? (await totalOf(known)),
      nextCursor,
    );
  }

  /** Counts a filtered set once per version of the database (CountCache). */
  private async filteredTotal(databaseId: string, version: string, where: string, params: Param[]): Promise<number> {
    const key = this.counts.key(databaseId, version, where, params);
    const cached = this.counts.get(key);
    if (cached !== undefined) return cached;
    const row = await this.store.get<{ n: number }>(`SELECT count(*) AS n FROM documents WHERE ${where}`, params);
    const total = row?.n ?? 0;
    this.counts.set(key, total);
    return total;
  }

  /** Every collection of a database that holds documents, with its count; `shown`: only those it accepts (a public key's, §10). */
  async collections(databaseId: string, shown?: (collection: string) => boolean): Promise<Array<{ name: string; count: number }>> {
    const all = await this.store.all<{ name: string; count: number }>('SELECT name, count FROM collections WHERE database_id = ? AND count > 0 ORDER BY name', [
      databaseId,
    ]);
    return shown ? all.filter((c) => shown(c.name)) : all;
  }
}
