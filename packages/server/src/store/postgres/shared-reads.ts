import type { Param } from '../store.ts';

/**
 * Identical reads share one run when the second comes before the first was sent (request
 * collapsing, as a CDN does for one URL): a feed that many clients list at once, between writes
 * that keep its answers out of the list cache, costs PostgreSQL one statement per round instead of
 * one per client, and svc one round trip (docs/performance-notes.md, "Identical reads").
 *
 * Per statement text and parameters:
 * - `waiting`: the run not sent yet. A read that finds one joins it and gets its answer.
 * - `sent`: the run PostgreSQL is executing. A read never joins it: its snapshot may be older than
 *   the read (a write acknowledged to the reader before it asked could be missing). A read that
 *   finds only a sent run starts the waiting one, which is sent once the sent one settles.
 *
 * So every answer comes from a statement sent after its read was asked for, and it sees every
 * write committed before that: what an unshared read would see (read-your-writes holds, on every
 * instance). What it costs: a read that finds the same statement running waits for it first (at
 * most one run more); a lone read does not wait at all.
 *
 * Hand-written: the pg pool runs every query it is given; no maintained library collapses queries
 * with this freshness rule (a memoizing single-flight shares a run already sent).
 */
export class SharedReads<R> {
  private readonly slots = new Map<string, Slot<R>>();
  /** Runs sent, and reads answered by a run another read had asked for. */
  readonly tally = { runs: 0, joined: 0 };

  /**
   * `read`'s answer for this statement: a waiting run's, or a new run's (after the sent one
   * settles). `copy` makes a joining read's own copy of the answer (callers may change it).
   */
  run(sql: string, params: readonly Param[], read: () => Promise<R>, copy: (answer: R) => R): Promise<R> {
    const key = keyOf(sql, params);
    let slot = this.slots.get(key);
    if (slot?.waiting) {
      this.tally.joined += 1;
      return slot.waiting.then(copy);
    }
    if (!slot) this.slots.set(key, (slot = {}));
    const own = slot;
    const before = own.sent;
    let started!: Promise<R>;
    const go = async (): Promise<R> => {
      if (before) {
        await before.then(noop, noop);
        // From here on the statement is sent: later reads must not join it.
        own.waiting = undefined;
        own.sent = started;
      }
      this.tally.runs += 1;
      try {
        return await read();
      } finally {
        if (own.sent === started) own.sent = undefined;
        if (!own.sent && !own.waiting) this.slots.delete(key);
      }
    };
    started = go();
    // Without a run before it, the read went on at once (in the call above, up to its first
    // wait): it counts as sent, and nobody may join it.
    if (before) own.waiting = started;
    else own.sent = started;
    return started;
  }
}

interface Slot<R> {
  waiting?: Promise<R>;
  sent?: Promise<R>;
}

const noop = () => undefined;

/** The statement and its parameters as one string; a bigint is told apart from the number and the string it would print as. */
function keyOf(sql: string, params: readonly Param[]): string {
  let key = sql;
  for (const p of params) key += `\u0000${typeof p === 'bigint' ? `${p}n` : JSON.stringify(p)}`;
  return key;
}

/**
 * Whether a statement on the pool only reads, so that sharing its run changes nothing but its
 * cost: a SELECT that locks no row and calls none of PostgreSQL's functions that act (advisory
 * locks, notifications, sequences; `pg_` functions are left out wholesale, they are rare in svc's
 * reads).
 */
export function shareable(sql: string): boolean {
  return READ.test(sql) && !ACTS.test(sql);
}
const READ = /^\s*SELECT\b/i;
const ACTS = /\bFOR\s+(UPDATE|SHARE|NO\s+KEY\s+UPDATE|KEY\s+SHARE)\b|\bpg_\w+\s*\(|\b(nextval|setval)\s*\(/i;
