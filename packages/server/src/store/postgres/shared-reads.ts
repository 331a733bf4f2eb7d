import type { Param } from '../store.ts';
import { READS } from './queryable.ts';

/**
 * Which reads on PostgreSQL's pool may share a run (infra/shared-runs.ts), and what makes two of
 * them the same read. A read asked for while an identical one runs waits for it, then goes in one
 * run with every identical read asked for meanwhile: the lists of one busy feed cost PostgreSQL one
 * statement and svc one round trip per round, instead of one per client.
 */

/**
 * Whether a statement on the pool only reads, so that sharing its run changes nothing but its
 * cost: a SELECT that locks no row and calls none of PostgreSQL's functions that act (advisory
 * locks, notifications, sequences; `pg_` functions are left out wholesale, they are rare in svc's
 * reads).
 */
export function shareable(sql: string): boolean {
  return READS.test(sql) && !ACTS.test(sql);
}
const ACTS = /\bFOR\s+(UPDATE|SHARE|NO\s+KEY\s+UPDATE|KEY\s+SHARE)\b|\bpg_\w+\s*\(|\b(nextval|setval)\s*\(/i;

/** The statement and its parameters as one string; a bigint is told apart from the number and the string it would print as. */
export function readKey(sql: string, params: readonly Param[]): string {
  let key = sql;
  for (const p of params) key += `\u0000${typeof p === 'bigint' ? `${p}n` : JSON.stringify(p)}`;
  return key;
}
