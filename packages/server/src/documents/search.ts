import { bound, raw, type Sql } from '../store/sql.ts';
import { LRUCache } from 'lru-cache';
import { ApiError, type ErrorDetail } from '../errors.ts';
import { isObject, type JsonObject } from '../json/merge-patch.ts';
import type { Dialect, Param, Queryable, Transaction } from '../store/store.ts';
import type { NewChange } from '../changes/events.ts';
import { groupSearchSettings } from '../changes/append.ts';
import { escapePointer } from './fields.ts';
import { collectionNameProblem, parseFieldPath } from './names.ts';

/**
 * Full-text search (API.md §1.1): `settings.search` names, per collection, the field paths whose
 * text `search=` looks in; `document_search` holds each such document's words, kept in the
 * writing transaction, and the dialect indexes them (FTS5 on SQLite, tsvector + GIN on
 * PostgreSQL: store/*\/search-sql.ts).
 *
 * Both stores answer alike because svc splits text into words itself, here, the same way for
 * both: a word is a run of Unicode letters, marks and digits (everything else separates words,
 * so `don't` is `don` and `t`, `e-mail` is `e` and `mail`), after NFKC normalisation and
 * lowercasing; a word longer than 64 characters keeps its first 64. The engines only store and
 * look up those words (prefix match); the rank is the same SQL on both:
 *
 *   rank = (occurrences in the document of words that start with a searched word) / (words in the document)
 *
 * summed over the searched words, higher first, ties by id (ascending). Numbers, booleans and
 * objects are not text: a field holding a string, or a list of strings, is searched.
 */

/** `settings.search` as stored: collection → field paths. */
export type SearchSettings = Record<string, string[]>;

const SEARCH_LIMITS = {
  /** Collections with search fields in one database. */
  collections: 100,
  /** Search fields of one collection. */
  fields: 16,
  /** Words of one `search=`. */
  words: 16,
  /** Characters of a word that count (longer ones are cut). */
  wordChars: 64,
  /** Characters of words indexed per document (past them, the rest of the text is not searchable). */
  documentChars: 100_000,
} as const;

const WORD = /[\p{L}\p{M}\p{N}]+/gu;

/** The words of a text, as both stores index them, appended to `out` while `budget.chars` lasts. */
export function tokenize(text: string, out: string[], budget: { chars: number }): void {
  for (const [match] of text.normalize('NFKC').toLowerCase().matchAll(WORD)) {
    if (budget.chars <= 0) return;
    let word = match;
    if (word.length > SEARCH_LIMITS.wordChars) {
      const points = Array.from(word);
      if (points.length > SEARCH_LIMITS.wordChars) word = points.slice(0, SEARCH_LIMITS.wordChars).join('');
    }
    budget.chars -= word.length;
    out.push(word);
  }
}

/** The distinct words of a `search=` value, in order. */
function searchWords(search: string): string[] {
  const words: string[] = [];
  tokenize(search, words, { chars: Number.POSITIVE_INFINITY });
  return [...new Set(words)];
}

/** The strings at a path: the value when it is one, the string elements of a list. */
function textsAt(doc: JsonObject, path: string[]): string[] {
  let value: unknown = doc;
  for (const segment of path) {
    if (!isObject(value) || !Object.hasOwn(value, segment)) return [];
    value = value[segment];
  }
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return [];
}

/** What `document_search` holds for a document: its words, each after a space, and how many; undefined when it has none. */
function documentWords(doc: JsonObject, fields: string[][]): { words: string; length: number } | undefined {
  const words: string[] = [];
  const budget = { chars: SEARCH_LIMITS.documentChars };
  for (const path of fields) for (const text of textsAt(doc, path)) tokenize(text, words, budget);
  return words.length ? { words: ` ${words.join(' ')}`, length: words.length } : undefined;
}

/**
 * Validates `settings.search` after the merge (null removed a collection): an object of
 * collection → non-empty list of distinct field paths. Problems go to `details`; answers the
 * value to store, or undefined when no collection is left.
 */
export function checkSearchSettings(value: unknown, details: ErrorDetail[]): SearchSettings | undefined {
  const at = '/settings/search';
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) {
    details.push({ path: at, message: 'must be an object: collection name → list of field paths' });
    return undefined;
  }
  const entries = Object.entries(value);
  if (entries.length > SEARCH_LIMITS.collections) details.push({ path: at, message: `must name at most ${SEARCH_LIMITS.collections} collections` });
  const out: SearchSettings = {};
  for (const [collection, fields] of entries) {
    const path = `${at}/${escapePointer(collection)}`;
    const problem = collectionNameProblem(collection);
    if (problem) {
      details.push({ path, message: `is not a collection name: ${problem}` });
      continue;
    }
    if (!Array.isArray(fields) || fields.length === 0 || fields.length > SEARCH_LIMITS.fields) {
      details.push({ path, message: `must be a list of 1 to ${SEARCH_LIMITS.fields} field paths (null removes the collection's search)` });
      continue;
    }
    fields.forEach((f, i) => {
      if (typeof f !== 'string' || !parseFieldPath(f)) {
        details.push({ path: `${path}/${i}`, message: 'must be a field path: segments of [A-Za-z_][A-Za-z0-9_]* joined by dots' });
      } else if (fields.indexOf(f) !== i) details.push({ path: `${path}/${i}`, message: 'is named twice' });
    });
    out[collection] = fields as string[];
  }
  return Object.keys(out).length ? out : undefined;
}

/** The collections whose search fields differ between two settings (added, changed or removed). */
export function changedSearchCollections(before: SearchSettings | undefined, after: SearchSettings | undefined): string[] {
  const names = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  return [...names].filter((c) => JSON.stringify(before?.[c] ?? null) !== JSON.stringify(after?.[c] ?? null));
}

/** Parsed `settings.search` texts, by text: writes of a database read the same text again and again. */
const parsed = new LRUCache<string, SearchSettings>({ max: 1000 });

/** The search fields of a collection, as segments, from the `settings.search` JSON text (or null). */
export function fieldsOf(searchJson: string | null | undefined, collection: string): string[][] | undefined {
  if (!searchJson) return undefined;
  let settings = parsed.get(searchJson);
  if (!settings) {
    settings = JSON.parse(searchJson) as SearchSettings;
    parsed.set(searchJson, settings);
  }
  const fields = Object.hasOwn(settings, collection) ? settings[collection] : undefined;
  return fields?.map((f) => f.split('.'));
}

/** The database's `settings.search` as JSON text, as the store holds it now. */
export async function readSearchSettings(q: Queryable, dialect: Dialect, databaseId: string): Promise<string | null> {
  return (await q.get<{ search: string | null }>(`SELECT ${dialect.search.settings} AS search FROM databases WHERE id = ?`, [databaseId]))?.search ?? null;
}

/** Rows per statement when writing `document_search` (5 parameters each). */
const CHUNK = 500;

/**
 * Writes the words of documents of a collection with search fields: a row per document that has
 * words, none for one that has not (an update that emptied its fields deletes it).
 */
export async function indexDocuments(q: Queryable, databaseId: string, collection: string, fields: string[][], docs: JsonObject[]): Promise<void> {
  const rows: Param[][] = [];
  const empty: string[] = [];
  for (const doc of docs) {
    const w = documentWords(doc, fields);
    if (w) rows.push([databaseId, collection, String(doc.id), w.words, w.length]);
    else empty.push(String(doc.id));
  }
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    await q.run(
      `INSERT INTO document_search (database_id, collection, id, words, length) VALUES ${chunk.map(() => '(?, ?, ?, ?, ?)').join(', ')}
       ON CONFLICT (database_id, collection, id) DO UPDATE SET words = excluded.words, length = excluded.length`,
      chunk.flat(),
    );
  }
  if (empty.length) await unindex(q, databaseId, collection, empty);
}

async function unindex(q: Queryable, databaseId: string, collection: string, ids: string[]): Promise<void> {
  for (let i = 0; i < ids.length; i += CHUNK) {
    const chunk = ids.slice(i, i + CHUNK);
    await q.run(`DELETE FROM document_search WHERE database_id = ? AND collection = ? AND id IN (${chunk.map(() => '?').join(', ')})`, [
      databaseId,
      collection,
      ...chunk,
    ]);
  }
}

/**
 * Keeps `document_search` in step with a write, in its transaction (so a write rolled back leaves
 * no words behind). A collection without search fields costs nothing on PostgreSQL (the commit
 * group read the settings with the counter: changes/append.ts) and one primary-key read on SQLite.
 */
export async function indexChanges(tx: Queryable & Pick<Transaction, 'group'>, dialect: Dialect, databaseId: string, changes: NewChange[]): Promise<void> {
  if (changes.length === 0) return;
  const { collection } = changes[0];
  const inGroup = groupSearchSettings(tx, databaseId);
  const fields = fieldsOf(inGroup === undefined ? await readSearchSettings(tx, dialect, databaseId) : inGroup, collection);
  if (!fields) return;
  const gone = changes.filter((c) => c.type === 'document.deleted').map((c) => String(c.document.id));
  // An update that leaves the searched texts as they were leaves the row too (a pending build still visits it).
  const unchanged = (c: NewChange) =>
    c.type === 'document.updated' && c.previous !== null && documentWords(c.previous, fields)?.words === documentWords(c.document, fields)?.words;
  const kept = changes.filter((c) => c.type !== 'document.deleted' && !unchanged(c)).map((c) => c.document);
  if (kept.length) await indexDocuments(tx, databaseId, collection, fields, kept);
  if (gone.length) await unindex(tx, databaseId, collection, gone);
}

/**
 * What `search=` adds to a list: a condition like a filter's (its parameters bound in order), and
 * for a ranked page the matches as a derived table `search` (`id`, `search_rank`).
 */
export interface SearchClause {
  /** The condition a document meets when it matches. */
  where: Sql;
  /** `(SELECT id, search_rank …) AS search`: the matches, each ranked in the one pass that finds them. */
  ranked: Sql;
  /** Ascending (the negated rank, so the best come first): the derived table's column. */
  rankKey: string;
}

/**
 * The clause of a `search=` on a list, or undefined when it is empty (ignored, §1.1). 400
 * `invalid_filter` on a collection without search fields, or with more than 16 words. A search
 * of no words at all (only punctuation) matches nothing.
 *
 * The rank is computed once per match, from the `document_search` row that matched (no second
 * lookup), with byte lengths (`octet_length`): the count of a needle is the same in bytes as in
 * characters, and PostgreSQL knows a compressed value's byte length without decompressing it.
 */
export async function searchClause(
  q: Queryable,
  dialect: Dialect,
  databaseId: string,
  collection: string,
  search: string | undefined,
): Promise<SearchClause | undefined> {
  if (search === undefined || search.trim() === '') return undefined;
  if (!fieldsOf(await readSearchSettings(q, dialect, databaseId), collection)) {
    throw new ApiError('invalid_filter', `Collection '${collection}' has no search fields: set settings.search.${collection} to the fields search= looks in`);
  }
  const words = searchWords(search);
  if (words.length > SEARCH_LIMITS.words) throw new ApiError('invalid_filter', `search takes at most ${SEARCH_LIMITS.words} words`);
  const rankKey = 'search_rank';
  if (words.length === 0) {
    return { where: raw('(1 = 0)'), ranked: raw('(SELECT id, 0 AS search_rank FROM document_search WHERE 1 = 0) AS search'), rankKey };
  }
  const { search: sql } = dialect;
  // The dialect's spellings (store/store.ts SearchSql) take the database, the collection and the query, in that order.
  const params = [databaseId, collection, sql.query(words)];
  // Words are letters, marks and digits only; quotes are doubled all the same.
  const needles = words.map((w) => `' ${w.replaceAll("'", "''")}'`);
  const occurrences = needles.map((n) => `(octet_length(s.words) - octet_length(replace(s.words, ${n}, ''))) / octet_length(${n})`).join(' + ');
  const rank = `-(CAST(${occurrences} AS ${sql.float}) / s.length)`;
  return {
    where: bound(sql.matches, ...params),
    ranked: bound(`(SELECT s.id AS id, ${rank} AS search_rank FROM ${sql.matching}${sql.fence}) AS search`, ...params),
    rankKey,
  };
}
