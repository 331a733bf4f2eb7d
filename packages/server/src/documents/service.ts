import { ApiError, notFound } from '../errors.ts';
import { newId } from '../ids/ids.ts';
import type { Clock } from '../infra/clock.ts';
import { isoAt } from '../auth/tokens.ts';
import { isObject, mergePatch, type JsonObject } from '../json/merge-patch.ts';
import type { Limits } from '../config.ts';
import type { CommitGroup, Param, Queryable, Store, Transaction } from '../store/store.ts';
import { appendChanges, changeGroup, deferDocuments, nextEventId } from '../changes/append.ts';
import type { ChangeEvent, ChangeListener, NewChange } from '../changes/events.ts';
import { preconditionFailed, satisfies, type IfMatch } from './preconditions.ts';
import { applyUpdate, parseUpdate } from './update-operators.ts';
import { VersionStamp, changedOutside, type VersionedRow, type WriteOptions, type WriteStep, type Written } from './versions.ts';
import type { AutoIndexer } from './indexes.ts';
import { checkDocumentId, isDocumentId } from './names.ts';
import { checkFields } from './fields.ts';
import { CountCache } from './count-cache.ts';
import { type Caller, type ListDeps, type ListQuery, readPage } from './list.ts';
import type { PageCache } from './page-cache.ts';
import { documentArrayJson, documentJson, type DocumentJson } from './document-json.ts';
import type { Scope, Scopes } from './rule-access.ts';
import { withDefaults } from '../rules/defaults.ts';
import { indexChanges } from './search.ts';
import type { CursorCodec } from './cursor.ts';
import { parseProjection, project, type Projection } from './projection.ts';
import { pointReads, type DocumentRow, type PointRead } from './point-reads.ts';
import { byId } from './key-sql.ts';

/** A document as the API returns it: the user's fields with `id`, `createdAt`, `updatedAt` beside them. */
export type Document = JsonObject & { id: string; createdAt: string; updatedAt: string };

export type { Caller, ListQuery } from './list.ts';

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
  /**
   * Reads what `apply` needs; undefined when this write needs nothing of the hook (apply is
   * skipped). In a commit group it may run in the group's `begin`, right after its lock (so only
   * statements, no transaction callbacks).
   */
  prefetch(tx: Queryable, databaseId: string): Promise<Prefetched | undefined>;
  /** Writes the side effect once the changes have their ids. */
  apply(tx: Transaction, prefetched: Prefetched, events: ChangeEvent[]): Promise<void>;
}

const SYSTEM_FIELDS = ['id', 'createdAt', 'updatedAt'];

/** A new document, one row per statement (store.ts insertRows 1); a taken id inserts nothing. */
const INSERT_ONE_DOCUMENT = `INSERT INTO documents (database_id, collection, id, data, created_at, updated_at, version) VALUES (?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (database_id, collection, id) DO NOTHING`;

const missing = (collection: string, id: string) => notFound(`Document '${id.slice(0, 200)}' not found in collection '${collection}'`);

function toDocument(id: string, data: JsonObject, createdAt: string, updatedAt: string): Document {
  return { id, ...data, createdAt, updatedAt } as Document;
}

const fromRow = (r: DocumentRow): Document => toDocument(r.id, JSON.parse(r.data) as JsonObject, r.created_at, r.updated_at);
const jsonOfRow = (r: DocumentRow): DocumentJson => documentJson(r.id, r.data, r.created_at, r.updated_at);
/** A row as the API returns it, only the projected fields when there is a projection. */
const shownRow = (r: DocumentRow, projection: Projection | undefined): DocumentJson =>
  projection ? documentJson(r.id, JSON.stringify(project(JSON.parse(r.data) as JsonObject, projection)), r.created_at, r.updated_at) : jsonOfRow(r);

/** The user's fields of a body: system fields are not stored in `data`. The body itself when it has none (no copy). */
function userFields(body: JsonObject): JsonObject {
  if (!Object.hasOwn(body, 'id') && !Object.hasOwn(body, 'createdAt') && !Object.hasOwn(body, 'updatedAt')) return body;
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

/**
 * A document of a create or a bulk, checked and serialised; `generated`: the service chose its id;
 * `version`: the version its insert stamps, set inside the write ('' until then).
 */
interface VersionedNew {
  id: string;
  data: JsonObject;
  text: string;
  generated: boolean;
  version: string;
}

/**
 * Per shared transaction of a commit group (its state object), what each write hook prefetched:
 * the writes of one group run one after another on one connection, under the database's lock,
 * so one read (e.g. the database's webhooks) serves them all, saving a round trip per write.
 * Outside a group (a lone transaction) every write reads for itself.
 */
const prefetchedInGroup = new WeakMap<object, Map<WriteHook, Promise<unknown>>>();

/** Keeps `read` as what `hook` prefetched for the group of `state`; a failed read is not kept: the member fails (and may run again), the next one reads anew. */
function keepPrefetched(state: object, hook: WriteHook, read: Promise<unknown>): void {
  let byHook = prefetchedInGroup.get(state);
  if (!byHook) prefetchedInGroup.set(state, (byHook = new Map()));
  byHook.set(hook, read);
  read.catch(() => byHook.delete(hook));
}

function prefetchOnce(hook: WriteHook, tx: Transaction, databaseId: string): Promise<unknown> {
  const state = tx.group?.state;
  if (typeof state !== 'object' || state === null) return hook.prefetch(tx, databaseId);
  const known = prefetchedInGroup.get(state)?.get(hook);
  if (known) return known;
  const read = hook.prefetch(tx, databaseId);
  keepPrefetched(state, hook, read);
  return read;
}

/**
 * The database's commit group with the hooks' reads made by its `begin`, asked for right after
 * the lock's statement: on PostgreSQL they go in the same message (BEGIN, the lock, the reads:
 * store/postgres/queryable.ts BeginningQueryable), so a group pays no round trip of its own for
 * them, and each still runs after the lock was granted, as a member's read would.
 */
function groupWithPrefetch(group: CommitGroup, hooks: WriteHook[] | undefined, databaseId: string): CommitGroup {
  if (!hooks?.length) return group;
  return {
    ...group,
    async begin(q) {
      const begun = group.begin(q);
      const reads = hooks.map((hook) => hook.prefetch(q, databaseId));
      // A read that fails with the lock's message fails `begin` too; none is left unobserved.
      for (const read of reads) read.catch(() => undefined);
      const state = await begun;
      if (typeof state === 'object' && state !== null) for (const [i, hook] of hooks.entries()) keepPrefetched(state, hook, reads[i]);
      return state;
    },
  };
}

/** The service behind the §1 routes. Every write records its change in the same transaction. */
export class DocumentsService {
  /** What a list reads with (list.ts): the store and the list's helpers, and the totals remembered per database version. */
  private readonly listDeps: ListDeps;
  private readonly readById: PointRead;
  /** `WHERE` of one document by its key (key-sql.ts). */
  private readonly oneDocument: string;

  constructor(private readonly deps: DocumentsDeps) {
    this.readById = pointReads(deps.store);
    this.oneDocument = byId(deps.store.dialect);
    this.listDeps = { store: deps.store, limits: deps.limits, indexer: deps.indexer, cursors: deps.cursors, counts: new CountCache() };
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
    // A UTF-16 code unit is at most 3 bytes of UTF-8: short texts need no count.
    if (text.length * 3 > this.deps.limits.documentBytes && Buffer.byteLength(text) > this.deps.limits.documentBytes) {
      throw new ApiError(
        'payload_too_large',
        `A document may be at most ${this.deps.limits.documentBytes} bytes serialised (the server's LIMIT_DOCUMENT_BYTES)`,
      );
    }
    return text;
  }

  private prepareNew(body: unknown, index?: number): VersionedNew {
    const where = index === undefined ? '' : `/documents/${index}`;
    if (!isObject(body)) throw new ApiError('validation_failed', 'A document is a JSON object', [{ path: where || '/', message: 'must be an object' }]);
    checkFields(body, where);
    const generated = body.id === undefined;
    const id = generated ? newId() : checkDocumentId(body.id);
    const data = userFields(body);
    return { id, data, text: this.serialize(data), generated, version: '' };
  }

  /**
   * Runs a writing transaction: the change, its hooks' reads, the change log, the hooks' writes;
   * announces the changes after COMMIT. In the database's commit group: on PostgreSQL the writes
   * of a database waiting together share one transaction and one COMMIT (changes/append.ts).
   * `record`: runs last inside the transaction with the answer (an idempotency key's, §1.2).
   */
  private async write<T>(databaseId: string, fn: WriteStep<T>, record?: (tx: Transaction, result: T) => Promise<void>): Promise<T> {
    return this.store.transaction(async (tx) => {
      const stamp = new VersionStamp(await nextEventId(tx, this.store.dialect, databaseId));
      const { result, changes } = await fn(tx, stamp);
      await this.logChanges(tx, databaseId, changes, stamp);
      if (record) await record(tx, result);
      return result;
    }, this.changeGroup(databaseId));
  }

  /** The database's commit group, with the write hooks' reads made by its `begin`. */
  private changeGroup(databaseId: string): CommitGroup {
    return groupWithPrefetch(changeGroup(databaseId, this.store.dialect), this.deps.inTransaction, databaseId);
  }

  /**
   * Runs several steps in one transaction of the database's commit group, each seeing the ones
   * before it, their events numbered in step order (API.md §1.2 batch): all committed or none.
   */
  async writeAll<T>(databaseId: string, steps: Array<WriteStep<T>>, record?: (tx: Transaction, results: T[]) => Promise<void>): Promise<T[]> {
    return this.store.transaction(async (tx) => {
      const stamp = new VersionStamp(await nextEventId(tx, this.store.dialect, databaseId));
      const results: T[] = [];
      for (const step of steps) {
        const { result, changes } = await step(tx, stamp);
        await this.logChanges(tx, databaseId, changes, stamp);
        results.push(result);
      }
      if (record) await record(tx, results);
      return results;
    }, this.changeGroup(databaseId));
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
  private async insert(tx: Transaction, databaseId: string, collection: string, items: VersionedNew[], now: string, defer = true): Promise<boolean> {
    if (defer && items.every((d) => d.generated) && deferDocuments(tx, databaseId, collection, items, now)) return true;
    const { jsonParam: jp, insertRows } = this.store.dialect;
    if (insertRows === 1 && jp === '?') {
      // One prepared statement run per row (SQLite, store.ts insertRows); a taken id changes no row.
      for (const d of items) {
        if ((await tx.run(INSERT_ONE_DOCUMENT, [databaseId, collection, d.id, d.text, now, now, d.version])) === 0) {
          throw new ApiError('conflict', `A document with id '${d.id}' already exists in collection '${collection}'`);
        }
      }
      return false;
    }
    for (let start = 0; start < items.length; start += insertRows) {
      const chunk = items.slice(start, start + insertRows);
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
    return false;
  }

  /** Inserts one document; `scope`: a public key's create rule, checked (after its defaults are added) before anything is written. */
  async create(databaseId: string, collection: string, body: unknown, scope?: Scope, options: WriteOptions<Written> = {}): Promise<Written> {
    return this.write(databaseId, this.createStep(databaseId, collection, body, scope, true), options.record);
  }

  /** The step of a create (also a batch's `create`): its defaults added, checks first, then the insert; `defer`: may wait for the group's end. */
  createStep(databaseId: string, collection: string, given: unknown, scope: Scope | undefined, defer: boolean): WriteStep<Written> {
    const body = withDefaults(given, scope?.defaults);
    const item = this.prepareNew(body);
    const now = this.now();
    const doc = toDocument(item.id, item.data, now, now);
    if (scope) checkCreate(scope, doc, (body as JsonObject).id !== undefined, collection);
    return async (tx, stamp) => {
      const version = stamp.take();
      // Deferred, the document's record also writes its event (changes/append.ts deferDocuments).
      const fromDeferredDocument = await this.insert(tx, databaseId, collection, [{ ...item, version }], now, defer);
      return {
        result: { json: documentJson(item.id, item.text, now, now), version },
        changes: [{ collection, type: 'document.created', document: doc, previous: null, timestamp: now, fromDeferredDocument }],
      };
    };
  }

  /** Inserts documents all or nothing; answers `{"documents":[…]}` as JSON text. `scope`: as for create, every document. */
  async bulkCreate(databaseId: string, collection: string, given: unknown[], scope?: Scope, options: WriteOptions<string> = {}): Promise<string> {
    if (given.length > this.deps.limits.bulkDocuments) {
      throw new ApiError(
        'payload_too_large',
        `A bulk request takes at most ${this.deps.limits.bulkDocuments} documents (the server's LIMIT_BULK_DOCUMENTS): split it`,
      );
    }
    const bodies = scope?.defaults ? given.map((b) => withDefaults(b, scope.defaults)) : given;
    const items = bodies.map((b, i) => this.prepareNew(b, i));
    refuseRepeatedIds(items, collection);
    const now = this.now();
    const docs = items.map((d) => toDocument(d.id, d.data, now, now));
    if (scope) for (const [i, doc] of docs.entries()) checkCreate(scope, doc, (bodies[i] as JsonObject).id !== undefined, collection, i);
    // Each document's JSON text, built once: the answer, and the event's document in the log.
    const texts = items.map((d) => documentJson(d.id, d.text, now, now));
    const result = `{"documents":${documentArrayJson(texts)}}`;
    if (docs.length === 0) {
      if (options.record) await this.store.transaction((tx) => options.record!(tx, result));
      return result;
    }
    return this.write(
      databaseId,
      async (tx, stamp) => {
        // One event per document in input order, consecutive ids: the versions taken in that order.
        for (const d of items) d.version = stamp.take();
        // Deferred, the documents' records also write their events (changes/append.ts deferDocuments).
        const fromDeferredDocument = await this.insert(tx, databaseId, collection, items, now);
        const changes = new Array<NewChange>(docs.length);
        for (let i = 0; i < docs.length; i++) {
          changes[i] = fromDeferredDocument
            ? { collection, type: 'document.created', document: docs[i], previous: null, timestamp: now, fromDeferredDocument }
            : { collection, type: 'document.created', document: docs[i], previous: null, timestamp: now, documentText: texts[i] };
        }
        return { result, changes };
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
    if (q.search || !this.deps.pages) return (await readPage(this.listDeps, databaseId, collection, q, read, caller)).text;
    // The caller is part of the key: the answer holds a cursor only it may use.
    return this.deps.pages.answer(databaseId, [collection, q, caller.kind, caller.user], read?.filter, () =>
      readPage(this.listDeps, databaseId, collection, q, read, caller),
    );
  }

  /** Every collection of a database that holds documents, with its count; `shown`: only those it accepts (a public key's, §10). */
  async collections(databaseId: string, shown?: (collection: string) => boolean): Promise<Array<{ name: string; count: number }>> {
    const all = await this.store.all<{ name: string; count: number }>('SELECT name, count FROM collections WHERE database_id = ? AND count > 0 ORDER BY name', [
      databaseId,
    ]);
    return shown ? all.filter((c) => shown(c.name)) : all;
  }
}
