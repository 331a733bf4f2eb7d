import type { Filter } from '@svc/filter';
import type { Limits } from '../config.ts';
import { ApiError } from '../errors.ts';
import { bound, join, raw, type Sql, sql } from '../store/sql.ts';
import type { JsonSql, Store } from '../store/store.ts';
import type { CountCache } from './count-cache.ts';
import type { CursorCodec } from './cursor.ts';
import { documentArrayJson, documentJson } from './document-json.ts';
import type { AutoIndexer } from './indexes.ts';
import { inCollection, inNamedCollection } from './key-sql.ts';
import { firstDifference, keyColumns, keysetRanges, keyValues, orderClause, type Sort, sortOf } from './keyset.ts';
import type { Page } from './page-cache.ts';
import type { DocumentRow } from './point-reads.ts';
import { parseProjection, projectedText, projectionColumns } from './projection.ts';
import { type CompiledFilter, compileFilter, type Field, parseField } from './query.ts';
import type { Scope } from './rule-access.ts';
import { type SearchClause, searchClause } from './search.ts';

/**
 * A list (API.md §1, §1.1) as a plan of steps read in order, each small enough to read alone;
 * every SQL fragment carries its own parameters (store/sql.ts):
 *
 * 1. scope: the collection's rows;
 * 2. rule: a public key's read rule (§10), ANDed first, as a barrier: the page, the total and the
 *    sort only ever see the records it lets through;
 * 3. filter: the caller's `filter` (@svc/filter parses it, store/filter-sql.ts writes it);
 * 4. search: `search=`'s condition, and its rank as the order when no `sortBy` is given;
 * 5. sort: the keys of the order, `id` last;
 * 6. keyset: after a cursor, the ranges of rows past its position;
 * 7. page: the rows, one more for the next cursor, bounded by LIMIT_PAGE_BYTES;
 * 8. total: `totalPlan` alone decides how it is found.
 *
 * The plan (`listRows`) lists any `Listable` record: documents (`readPage`, below) and the file
 * records of a bucket (files/list.ts) speak the same language. Search and bounded pages are
 * documents' steps; a record kind without them skips them.
 */

/**
 * A kind of record the plan lists. Its table has the system columns `id`, `created_at` and
 * `updated_at`, and every other field in `data`, so filters, sorts and cursors mean on it what
 * they mean on documents.
 */
export interface Listable {
  table: 'documents' | 'files';
  /** 1. scope: the rows of one collection (a bucket), by key. */
  scope: Sql;
  /**
   * Where present, the scope for a list that filters (by its rule or its own filter) or sorts by
   * these fields, in place of `scope` (a collection named in the text when one of them has an index
   * of the collection's own: readPage).
   */
  scopeFor?: (fields: readonly string[][]) => Sql;
  /** The collection as its cursors are bound to it (a bucket's: `files/<bucket>`). */
  name: string;
  /** The unfiltered set's size kept by every write (`collections.count`); without one, the total is counted. */
  counter?: Sql;
}

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

/** What the plan reads with. */
export interface PlanDeps {
  store: Store;
  cursors: CursorCodec;
  counts: CountCache;
}

export interface ListDeps extends PlanDeps {
  limits: Limits;
  indexer: AutoIndexer;
}

/** A column of a page's rows besides id and the timestamps: an SQL expression and its name. */
export interface Column {
  expression: string;
  name: string;
}

/** What a record kind's list hands the plan, parsed and checked in the order its refusals come. */
export interface ListSteps {
  /** 5. sort: `sortBy` (default createdAt), parsed. */
  sortField: Field;
  /** 2. rule: the read rule's filter, parsed (its `$auth` operands resolved). */
  rule?: Filter;
  /** 4. search, documents only (search.ts). */
  searched?: SearchClause;
  /** 7. page: the columns of its rows besides id and the timestamps. */
  columns: Column[];
  /** 7. page, bounded: LIMIT_PAGE_BYTES and a row's largest size; without it, pages are bounded by `limit` alone. */
  bounded?: {
    pageBytes: number;
    rowBytes: number;
    /** A row's size: the length of its record's JSON text. */
    sizeOf: string;
    /** The page's column that holds the record's whole JSON text, where there is one: its length is the row's size. */
    textColumn?: string;
  };
  /** Who asks, as its cursors are bound to it (`secret:`, `public:<user>`). */
  caller: string;
  /** Told the compiled rule and filter before the page is read (documents ask for their indexes). */
  filtered?: (rule: CompiledFilter | undefined, own: CompiledFilter | undefined) => void;
}

/** A page of rows, the total of the (filtered) set, the offset it starts at and the next page's cursor. */
export interface ListedRows<R> {
  rows: R[];
  total: number;
  offset: number;
  nextCursor: string | null;
}

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
 * A read rule's filter as SQL, written once per parsed filter: rule-access.ts keeps one scope per
 * rule and per the values of its `$auth` operands, so a public key's lists reuse it (keyed by the
 * dialect's JSON spelling too: tests run both stores in one process). The result is only read.
 */
const compiledRules = new WeakMap<Filter, { json: JsonSql; compiled: CompiledFilter }>();
function ruleSql(json: JsonSql, filter: Filter): CompiledFilter {
  const known = compiledRules.get(filter);
  if (known?.json === json) return known.compiled;
  const compiled = compileFilter(json, filter);
  compiledRules.set(filter, { json, compiled });
  return compiled;
}

const asSql = (f: CompiledFilter): Sql => bound(f.sql, ...f.params);

/** The largest `integer` (octet_length's type): a capped read's cap never needs more. */
const MAX_INT4 = 2 ** 31 - 1;

/**
 * `LIMIT <n> OFFSET ?`: the page size is written into the SQL text, the offset bound. On SQLite a
 * bound LIMIT marks the statement expired on every rebind (its value feeds the planner), so each
 * list re-parsed and re-planned its SQL. `n` is a validated page size (+1), so the statements it
 * makes are few and safe. No offset (a first page, any page after a cursor): no OFFSET at all. On
 * PostgreSQL a bound OFFSET made every generic plan of a prepared list look costly (an unknown
 * offset is planned as a tenth of the rows), so each list was planned again on every run.
 */
function limitClause(n: number, offset: number): Sql {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`limitClause: not a row count: ${n}`);
  return offset === 0 ? raw(`LIMIT ${n}`) : sql`LIMIT ${raw(String(n))} OFFSET ${offset}`;
}

/**
 * How a list's total is found, decided here and nowhere else:
 * - `counter`: no filter, rule or search, and the record kind keeps a counter (documents: the
 *   collection's count): the counter, read with the page;
 * - `matched`: a search's first page: `count(*) OVER ()` in the page's own query (every match is
 *   ranked anyway), remembered for the later pages under the database's version;
 * - `counted`: otherwise, `count(*)` of the (filtered) set once per version of the database
 *   (CountCache; every write of a document or a file record bumps it), the version read with the page.
 * `known` is the column read with the page: the counter, or the version.
 */
type TotalPlan = { kind: 'counter' | 'matched' | 'counted'; known: Sql };
function totalPlan(databaseId: string, counter: Sql | undefined, filtered: boolean, searchedFirstPage: boolean): TotalPlan {
  if (!filtered && counter) return { kind: 'counter', known: counter };
  // As text: the version is the 64-bit event counter (changes/read.ts).
  return { kind: searchedFirstPage ? 'matched' : 'counted', known: sql`(SELECT CAST(last_event_id AS TEXT) FROM databases WHERE id = ${databaseId})` };
}

/** Counts a (filtered) set once per version of the database (CountCache). */
async function countedTotal(deps: PlanDeps, table: Listable['table'], databaseId: string, version: string, where: Sql): Promise<number> {
  const key = deps.counts.key(databaseId, version, `${table}\u0000${where.text}`, where.params);
  const cached = deps.counts.get(key);
  if (cached !== undefined) return cached;
  const row = await deps.store.get<{ n: number | string }>(`SELECT count(*) AS n FROM ${table} WHERE ${where.text}`, [...where.params]);
  const total = Number(row?.n ?? 0);
  deps.counts.set(key, total);
  return total;
}

/** A WHERE range of the page's rows and the ORDER BY within it (the whole list, or a keyset range). */
interface Range {
  where?: Sql;
  order: string;
}

/** The rows of a page the plan selects: id, the kind's columns, the timestamps, the sort keys. */
export type ListedRow = { id: string; created_at: string; updated_at: string; extra: string | null } & Record<string, unknown>;

/** Lists a record kind: steps 2 to 8 over `kind`'s scope (see the top of this file). */
export async function listRows<R extends ListedRow>(
  deps: PlanDeps,
  databaseId: string,
  kind: Listable,
  q: ListQuery,
  steps: ListSteps,
): Promise<ListedRows<R>> {
  const { store, cursors } = deps;
  const { dialect } = store;
  const { searched, sortField } = steps;
  const { table } = kind;
  const ranked = searched !== undefined && q.sortBy === undefined;
  if (q.cursor !== undefined && q.offset !== undefined) {
    throw new ApiError('invalid_cursor', 'cursor and offset exclude each other: the cursor says where the page starts');
  }

  // 5. sort.
  const sort: Sort = ranked ? { keys: [searched.rankKey], nullable: [false], desc: false } : sortOf(dialect.json, sortField, q.sortOrder === 'desc');

  // 6. keyset: a cursor is bound to everything the order and the set depend on, and to its caller;
  // limit and fields may change between pages. The effective sort: no sortBy means createdAt (or
  // the rank, under a search), so both spellings share cursors.
  const binding = cursors.binding([
    databaseId,
    kind.name,
    q.sortBy ?? (searched ? undefined : 'createdAt'),
    q.sortOrder,
    q.filter,
    q.search || undefined,
    steps.caller,
  ]);
  const after = q.cursor === undefined ? undefined : cursors.decode(q.cursor, binding, sort.nullable);

  // 2. rule, 3. filter: ANDed in this order after the scope, the search's condition last.
  const rule = steps.rule === undefined ? undefined : ruleSql(dialect.json, steps.rule);
  const own = q.filter === undefined ? undefined : compileFilter(dialect.json, q.filter);
  const scope = kind.scopeFor ? kind.scopeFor([...(rule?.paths ?? []), ...(own?.paths ?? []), ...('path' in sortField ? [sortField.path] : [])]) : kind.scope;
  const conditions = [rule && asSql(rule), own && asSql(own), searched?.where].filter((f) => f !== undefined);
  const filtered = conditions.length > 0;
  const where = filtered
    ? sql`${scope} AND ${join(
        conditions.map((c) => sql`(${c})`),
        ' AND ',
      )}`
    : scope;
  steps.filtered?.(rule, own);

  // 8. total: decided before the page is read, as the page's query carries what it needs.
  const total = totalPlan(databaseId, kind.counter, filtered, searched !== undefined && after === undefined);
  const offset = q.offset ?? 0;
  const totalOf = async (known: string | null | undefined, matched?: number): Promise<number> => {
    if (total.kind === 'counter') return Number(known ?? 0);
    if (matched !== undefined) {
      deps.counts.set(deps.counts.key(databaseId, known ?? '0', `${table}\u0000${where.text}`, where.params), matched);
      return matched;
    }
    return countedTotal(deps, table, databaseId, known ?? '0', where);
  };
  const readKnown = async () => (await store.get<{ v: string | null }>(`SELECT ${total.known.text} AS v`, [...total.known.params]))?.v;
  if (q.limit === 0) return { rows: [], total: await totalOf(await readKnown()), offset, nextCursor: null }; // count only: no page query

  // 7. page. One row more than the page tells whether there is a next page (nextCursor null on the last).
  const counted = total.kind === 'matched';
  const dir = sort.desc ? ' DESC' : '';
  const select = (range: Range, n: number, skip: number, withExtra = true, columns = steps.columns): Sql => {
    const extra = withExtra ? sql`, ${total.known} AS extra` : raw('');
    const matched = counted && withExtra;
    const rangeWhere = range.where ? sql` AND ${range.where}` : raw('');
    if (!searched) {
      const cols = raw(columns.map((c) => `${c.expression} AS ${c.name}, `).join(''));
      return sql`SELECT id, ${cols}created_at, updated_at${extra}${raw(keyColumns(sort))}${raw(matched ? ', count(*) OVER () AS matched' : '')} FROM ${raw(table)}
         WHERE ${where}${rangeWhere} ORDER BY ${raw(range.order)} ${limitClause(n, skip)}`;
    }
    // A search: the page's ids, sort keys and the count come from narrow rows (a search may match
    // most of a collection, and every match is counted), and only the page's rows are read whole,
    // by key. Ranked, the rows are the matches (ranked in the pass that finds them), each
    // document's presence (and the rule's and filter's verdict) looked up by its key: by key, so
    // that no estimate can turn a lookup into a scan per row. With sortBy, the documents that
    // match, as any list.
    const from = ranked ? sql`${searched.ranked} WHERE (${present}) IS TRUE` : sql`${raw(table)} WHERE ${where}`;
    const keys = sort.keys.map((_, i) => `k${i}`);
    const byKey = [...columns, { expression: 'created_at', name: 'created_at' }, { expression: 'updated_at', name: 'updated_at' }].map(
      (c) => sql`(SELECT ${raw(c.expression)} FROM ${raw(table)} WHERE ${scope} AND id = page.id) AS ${raw(c.name)}`,
    );
    return sql`SELECT id, ${join(byKey, ', ')}${extra}${raw(keys.map((k) => `, ${k}`).join(''))}${raw(matched ? ', matched' : '')}
          FROM (SELECT id${raw(keyColumns(sort))}${raw(matched ? ', count(*) OVER () AS matched' : '')} FROM ${from}${rangeWhere}
            ORDER BY ${raw(range.order)} ${limitClause(n, skip)}) AS page
          ORDER BY ${raw([...keys, 'id'].map((k) => k + dir).join(', '))}`;
  };
  // A ranked search's page starts from its matches (search.ts), each record looked up by key.
  const unsearched = [rule, own].filter((f) => f !== undefined);
  const present = sql`EXISTS (SELECT 1 FROM ${raw(table)} WHERE ${scope} AND id = search.id${join(
    unsearched.map((f) => sql` AND (${asSql(f)})`),
    '',
  )})`;

  // Bounded pages (§1.1): the page stops growing once its rows' JSON passes LIMIT_PAGE_BYTES,
  // the row that crosses it included. Where `limit` rows could pass it, only the rows of the page
  // (and the one after it, for the cursor) may leave the store whole: no answer's memory grows
  // with limit × row size.
  const { bounded } = steps;
  const mayPass = bounded !== undefined && q.limit * bounded.rowBytes > bounded.pageBytes;
  let want = q.limit;
  let room = bounded?.pageBytes ?? 0;
  /** Cuts rows read in order (each with its size) where the page passes the limit: the page, up to the row that crosses it, and one more. */
  const cut = <T>(rows: T[], sizeOf: (row: T) => number, n: number): T[] => {
    for (const [i, row] of rows.entries()) {
      if (room < 0) {
        want -= n - 1 - i; // the page passed the limit with the row before this one
        return rows.slice(0, i + 1);
      }
      if (i < n - 1) room -= sizeOf(row);
    }
    return rows;
  };
  /**
   * How a bounded list (whole records read, no search) reads its rows: `summed` (each row's size
   * and the sizes of the rows before it added up by a window over the page's rows, so that the
   * store sends only the rows up to the one after the crossing one), or `capped` (every row's size,
   * and its text only where it is at most `cap`: the page's room and two rows' largest size, shared
   * by the rows read, which is the most `summed` can send). A capped read is one plain pass over
   * the rows, without the window's, and `cut` says where the page ends from the sizes as before;
   * only when a row of the page came without its text is the list read again, summed.
   */
  let bounding: 'summed' | 'capped' = bounded?.textColumn !== undefined && !searched ? 'capped' : 'summed';
  /**
   * The next `n` rows of `range` (`withExtra`: with the total's column). Where the page may pass the
   * limit, a search first reads the sizes of the rows (narrow rows), then only those of the page
   * whole: two statements. Any other list does it in one (`bounding`), and `cut` says where the
   * page ends, as the sizes alone would: one round trip fewer per list on PostgreSQL than a size
   * read first.
   */
  const readRange = async (range: Range, n: number, skip: number, withExtra: boolean): Promise<R[]> => {
    // A data exception of a page read is a forged cursor's (refuseForged) only where there is a cursor.
    const guard = <T>(read: Promise<T>) => (after ? read.catch(refuseForged) : read);
    if (!mayPass || !bounded) {
      const s = select(range, n, skip, withExtra);
      return guard(store.all<R>(s.text, [...s.params]));
    }
    if (searched) {
      const probe = select(range, n, skip, false, [{ expression: bounded.sizeOf, name: 'size' }]);
      const sizes = await store.all<{ size: number | string }>(probe.text, [...probe.params]).catch(refuseForged);
      const s = select(range, cut(sizes, (r) => Number(r.size), n).length, skip, withExtra);
      return guard(store.all<R>(s.text, [...s.params]));
    }
    // The row's size (the whole record's, also where only some fields are read) beside its columns:
    // the length of its JSON text where the page reads that whole (not made a second time).
    const whole = bounded.textColumn;
    const inner = select(range, n, skip, withExtra, whole ? steps.columns : [...steps.columns, { expression: bounded.sizeOf, name: 'row_bytes' }]);
    const order = (t: string) => [...sort.keys.map((_, i) => `${t}.k${i}${dir}`), `${t}.id${dir}`].join(', ');
    let read: Sql;
    if (whole && bounding === 'capped') {
      const names = [
        'id',
        ...steps.columns.map((c) => c.name),
        'created_at',
        'updated_at',
        ...(withExtra ? ['extra'] : []),
        ...sort.keys.map((_, i) => `k${i}`),
      ];
      const cap = Math.min(Math.floor((room + 2 * bounded.rowBytes) / n), MAX_INT4);
      const cols = names.map((c) => (c === whole ? sql`CASE WHEN octet_length(p.${raw(c)}) <= ${cap} THEN p.${raw(c)} END AS ${raw(c)}` : raw(`p.${c}`)));
      read = sql`SELECT ${join(cols, ', ')}, octet_length(p.${raw(whole)}) AS row_bytes FROM (${inner}) AS p ORDER BY ${raw(order('p'))}`;
    } else {
      const sizes = raw(whole ? `, octet_length(p.${whole}) AS row_bytes` : '');
      const size = raw(whole ? `octet_length(p.${whole})` : 'p.row_bytes');
      read = sql`SELECT * FROM (SELECT p.*${sizes}, sum(${size}) OVER (ORDER BY ${raw(order('p'))} ROWS BETWEEN UNBOUNDED PRECEDING AND 2 PRECEDING) AS bytes_before
        FROM (${inner}) AS p) AS w WHERE bytes_before IS NULL OR bytes_before <= ${room} ORDER BY ${raw(order('w'))}`;
    }
    const rows = await guard(store.all<R & { row_bytes: number | string }>(read.text, [...read.params]));
    return cut(rows, (r) => Number(r.row_bytes), n);
  };
  /** The page's rows and the one after it (read in turn from the keyset's ranges after a cursor). */
  const readRows = async (): Promise<R[]> => {
    if (!after) return readRange({ order: orderClause(sort) }, q.limit + 1, offset, true);
    // Keyset: the ranges after the cursor's position (keyset.ts), each read in index order, a page
    // at most, so a deep page costs what the first one does. Read in turn until the page is full:
    // as a rule one range (the cursor says which ranges were empty when its page was read), two or
    // three where the page crosses the end of a tie or of a type class.
    let rows: R[] = [];
    let reads = 0;
    for (const k of keysetRanges(sort, after.values, after.id, after.from, dialect.keyParam)) {
      if (rows.length > want) break;
      rows.push(...(await readRange(k, want - rows.length + 1, 0, rows.length === 0)));
      reads++;
    }
    // A record moved by a concurrent update may show in two ranges: once is enough. One range
    // can't repeat a row: no set of ids to build then.
    if (reads > 1) {
      const seen = new Set<string>();
      rows = rows.filter((row) => !seen.has(row.id) && seen.add(row.id)).slice(0, want + 1);
    }
    return rows;
  };
  let rows = await readRows();
  const whole = bounded?.textColumn;
  if (mayPass && bounding === 'capped' && whole && rows.slice(0, want).some((r) => r[whole] === null)) {
    // A row of the page was larger than the cap (the row after the page needs only its keys): read again, summed.
    bounding = 'summed';
    want = q.limit;
    room = bounded?.pageBytes ?? 0;
    rows = await readRows();
  }
  const page = rows.slice(0, want);
  const known = rows.length ? rows[0].extra : await readKnown();
  const last = rows.length > want ? page[page.length - 1] : undefined;
  const lastValues = last && keyValues(sort, last);
  const nextCursor =
    last && lastValues ? cursors.encode(binding, { values: lastValues, id: last.id, from: firstDifference(lastValues, keyValues(sort, rows[want])) }) : null;
  const matched = counted && rows.length ? Number(rows[0].matched) : undefined;
  return { rows: page, total: await totalOf(known, matched), offset, nextCursor };
}

/** A page of a collection's documents with the total of the (filtered) set, as JSON text. */
export async function readPage(deps: ListDeps, databaseId: string, collection: string, q: ListQuery, read: Scope | undefined, caller: Caller): Promise<Page> {
  const { store } = deps;
  const { dialect } = store;
  // The steps are checked in the order their refusals have always come in: sortBy, fields,
  // search, cursor with offset, the cursor, then the filter.
  const sortField = parseField(q.sortBy ?? 'createdAt', (m) => new ApiError('validation_failed', `sortBy: ${m}`, [{ path: '/sortBy', message: m }]));
  const projection = parseProjection(q.fields);
  // 4. search (search.ts): a condition like a filter's, and the order by rank unless sortBy is given.
  const searched = await searchClause(store, dialect, databaseId, collection, q.search);

  // The fields this list filters or sorts by ask for their automatic index (indexes.ts counts the
  // asks), here and each time the same list is answered from the PageCache. Only a secret key's
  // or an operator's: anyone may send a public key's filters and sorts. Of a public key's list,
  // only the fields its read rule filters on ask (the rule was written with the secret key;
  // rule-indexes.ts asks for them when it is saved).
  let askForIndexes: (() => void) | undefined;
  const filtered = (rule: CompiledFilter | undefined, own: CompiledFilter | undefined): void => {
    const asked = caller.kind === 'secret' ? [...(rule?.paths ?? []), ...(own?.paths ?? [])] : rule?.paths;
    const sortAsked = caller.kind === 'secret' && 'path' in sortField ? sortField.path : undefined;
    if (!asked?.length && !sortAsked) return;
    const byCreatedAt = !(searched !== undefined && q.sortBy === undefined) && 'column' in sortField && sortField.column === 'created_at';
    const wanted = { filter: asked ?? [], sort: sortAsked, byCreatedAt };
    askForIndexes = () => void deps.indexer.ensure(databaseId, collection, wanted);
    askForIndexes();
  };

  // A list that filters or sorts by a field with an automatic index of the collection's own
  // (partial: indexes.ts) names the collection in the text, which lets the planner use that index;
  // any other list binds it, so its statements stay one text for all collections, and the planner
  // can't pick a partial index of some other field instead of the one its order needs. (Named in
  // every list of such a collection, SQLite sorted a collection's whole partial index by
  // `createdAt` for an unfiltered page of 20 once the statistics saw a larger collection beside
  // it: docs/performance-notes.md.)
  const scope = bound(inCollection(dialect), databaseId, collection);
  const documents: Listable = {
    table: 'documents',
    scope,
    scopeFor: (fields) => (deps.indexer.servesFields(collection, fields) ? bound(inNamedCollection(dialect, collection), databaseId) : scope),
    name: collection,
    counter: sql`(SELECT CAST(count AS TEXT) FROM collections WHERE database_id = ${databaseId} AND name = ${collection})`,
  };
  // With a projection, only the named fields leave the store (projection.ts).
  const columns = projection ? projectionColumns(dialect.json, projection) : [{ expression: dialect.jsonText('data'), name: 'data' }];
  const listed = await listRows<DocumentRow & ListedRow>(deps, databaseId, documents, q, {
    sortField,
    rule: read?.filter,
    searched,
    columns,
    bounded: {
      pageBytes: deps.limits.pageBytes,
      rowBytes: deps.limits.documentBytes,
      sizeOf: dialect.jsonBytes('data'),
      textColumn: projection ? undefined : 'data',
    },
    caller: `${caller.kind}:${caller.user ?? ''}`,
    filtered,
  });
  const page = listed.rows.map((r) =>
    projection ? documentJson(r.id, projectedText(projection, r), r.created_at, r.updated_at) : documentJson(r.id, r.data, r.created_at, r.updated_at),
  );
  return {
    text: `{"documents":${documentArrayJson(page)},"total":${listed.total},"limit":${q.limit},"offset":${listed.offset},"nextCursor":${JSON.stringify(listed.nextCursor)}}`,
    onHit: askForIndexes,
  };
}
