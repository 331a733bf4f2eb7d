import type { Dialect } from '../store/store.ts';

/**
 * The conditions that pick documents by key, their values bound through the dialect's `keyParam`
 * (store.ts says why SQLite binds them as `+?`): every statement on `documents` that looks rows up
 * by database, collection and id spells them here.
 */
export const inCollection = (d: Dialect): string => `database_id = ${d.keyParam} AND collection = ${d.keyParam}`;

/** One document: `inCollection` and its id. */
export const byId = (d: Dialect): string => `${inCollection(d)} AND id = ${d.keyParam}`;

/**
 * `collection = '<name>'`, the name as an SQL string literal: the WHERE of a collection's automatic
 * (partial) indexes (indexes.ts), and the same text in its lists. A planner uses a partial index
 * only where it can prove the query's WHERE implies the index's, which it cannot for a bound
 * parameter (SQLite never; PostgreSQL not in a prepared statement's generic plan). Names are
 * validated (names.ts: letters, digits, `_`, `-`), quoted all the same; both stores read a
 * backslash in '…' as itself (PostgreSQL's standard_conforming_strings), so doubling quotes is all.
 */
export const collectionIs = (collection: string): string => `collection = '${collection.replace(/'/g, "''")}'`;

/**
 * `inCollection` with the collection written into the text (`collectionIs`), for the lists of a
 * collection that has automatic indexes: one statement text per such collection and list shape,
 * so only those (a bounded number: the store's budget of indexes) are spelt so.
 */
export const inNamedCollection = (d: Dialect, collection: string): string => `database_id = ${d.keyParam} AND ${collectionIs(collection)}`;
