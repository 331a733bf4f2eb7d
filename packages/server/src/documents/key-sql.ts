import type { Dialect } from '../store/store.ts';

/**
 * The conditions that pick documents by key, their values bound through the dialect's `keyParam`
 * (store.ts says why SQLite binds them as `+?`): every statement on `documents` that looks rows up
 * by database, collection and id spells them here.
 */
export const inCollection = (d: Dialect): string => `database_id = ${d.keyParam} AND collection = ${d.keyParam}`;

/** One document: `inCollection` and its id. */
export const byId = (d: Dialect): string => `${inCollection(d)} AND id = ${d.keyParam}`;
