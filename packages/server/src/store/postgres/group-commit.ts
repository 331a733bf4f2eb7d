import type pg from 'pg';
import { type CommitGroup, runAfterCommit, type Transaction } from '../store.ts';
import type { PgStatements } from './statements.ts';
import { isConnectionError, violates } from './errors.ts';
import { abort, BeginningQueryable, commit, commitWith, PgQueryable, PgTransaction, withSession, type Session } from './queryable.ts';

/** A key's commit group and the transactions waiting for its next shared transaction. */
interface Queue {
  group: CommitGroup;
  members: Member[];
}

/** A transaction waiting for its group's next shared transaction. */
interface Member {
  fn: (tx: Transaction) => Promise<unknown>;
  /** Runs again after its group's `end` violated one of its `memberRows`: writes itself what it would leave to `end` (Transaction.group.alone). */
  alone?: boolean;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** What became of a member that ran: its value and transaction (callbacks), or its own error. */
type Outcome = { ok: true; value: unknown; tx: PgTransaction } | { ok: false; error: unknown };

/** A group's key and the state its `begin` returned for one shared transaction, as its members see it (Transaction.group). */
interface GroupRun {
  readonly key: string;
  readonly state: unknown;
  readonly alone?: boolean;
}

/** One attempt at a shared transaction: the members' outcomes, and its own error if it failed. */
interface Attempt {
  /** The outcomes of the members that ran, in order: the first ones, when the time budget stopped it. */
  outcomes: Outcome[];
  /** Set when the shared transaction did not commit: every member without an outcome of its own fails with it. */
  error?: unknown;
  /** Direct mode met a failure it can't undo alone: run the members again, each in a savepoint. */
  retry?: boolean;
  /** `end` violated one of the group's `memberRows` (nothing committed): the members go first in the next shared transaction, each alone. */
  requeue?: boolean;
}

/**
 * At most this many transactions share one COMMIT. Each runs in a savepoint when a group must run
 * again: each savepoint that writes takes a subtransaction id, and past 64 in one transaction
 * (PostgreSQL's PGPROC_MAX_CACHED_SUBXIDS) every other session's visibility checks must look them
 * up in pg_subtrans, which is slow.
 */
const MAX_GROUP_MEMBERS = 64;

/**
 * A shared transaction takes no further member once it has run this long; the rest go first in
 * the next one. It holds its `begin` lock (a database's event counter) until COMMIT, so this
 * bounds how long writers elsewhere wait for it (another instance's group waits at `begin`, under
 * the statement time-out) and how late its first writes become visible, whatever the writes are
 * (64 bulks of thousands of documents would hold it for seconds).
 */
export const GROUP_TIME_BUDGET_MS = 100;

/** Thrown inside an attempt when a direct-mode member failed after changing rows, or on a failed statement. */
class NeedsUndo {
  constructor(readonly error: unknown) {}
}

/**
 * Group commit on PostgreSQL (store.ts CommitGroup): per key, one shared transaction at a time
 * runs its members on this instance. Its members are the transactions waiting once its `begin`
 * returned (up to MAX_GROUP_MEMBERS); those asked for later wait and form the next, so under load
 * each COMMIT, and each `begin` (e.g. the lock on a database's event counter), is shared by many
 * writers; when idle a transaction starts at once (after the current turn of the event loop, so
 * requests parsed together go together). A shared transaction stops taking members after
 * GROUP_TIME_BUDGET_MS (the rest go first in the next one). The next one is begun as soon as its
 * predecessor's members have run, so its `begin` waits for that lock inside PostgreSQL (`turn`).
 * Members are settled in commit order.
 *
 * The members of a shared transaction run one after another on its connection. Direct mode
 * first, without savepoints (a SAVEPOINT and a RELEASE are two more round trips per member, and
 * the connection's round trips are what bounds a group's throughput): a member that fails having
 * changed nothing (no row, no group state: PgTransaction.changed) and had no statement fail (a 409
 * on insert, a 404) simply gets its error and the others go on. Any other failure, when there are
 * other members, rolls the shared transaction back and runs them all again, each in a SAVEPOINT:
 * there one that throws is rolled back to it, alone (its onRollback callbacks take its part of the
 * group state back out), and gets its error. So a member's `fn` may run twice (store.ts
 * CommitGroup says what it may do before COMMIT). If the shared transaction itself fails
 * (the connection, `begin`, `end` or the COMMIT), every member that had not failed on its own gets
 * that error: none is answered as committed; so does a connection-class failure of any member
 * (the connection lost, a statement time-out). Members are settled after the COMMIT, in order,
 * each after its afterCommit callbacks.
 */
export class GroupCommit {
  private readonly waiting = new Map<string, Queue>();
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly statements: PgStatements,
  ) {}

  /** Runs `fn` in the next shared transaction of `group`'s key. */
  run<T>(group: CommitGroup, fn: (tx: Transaction) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let queue = this.waiting.get(group.key);
      if (!queue) {
        this.waiting.set(group.key, (queue = { group, members: [] }));
        const q = queue;
        setImmediate(() => this.start(q));
      }
      queue.members.push({ fn, resolve: resolve as (v: unknown) => void, reject });
    });
  }

  /** Resolves once every shared transaction asked for so far has settled (before the pool closes). */
  async idle(): Promise<void> {
    while (this.running.size) await Promise.all(this.running);
  }

  /** Starts a turn; `after`: the previous turn's settling, which this one's must follow. */
  private start(queue: Queue, after?: Promise<void>): void {
    const done = this.turn(queue, after);
    this.running.add(done);
    void done.finally(() => this.running.delete(done));
  }

  /**
   * One shared transaction of the key (run again with savepoints if it must), over the members
   * waiting once `begin` returned. Once its members have run it starts the next one, if members
   * wait: that one's BEGIN and `begin` (the lock) wait in PostgreSQL for this one's COMMIT rather
   * than in svc, so no round trip separates the two (a database's writes commit one
   * group at a time, so the time between groups bounds its write rate).
   */
  private async turn(queue: Queue, after?: Promise<void>): Promise<void> {
    let next = false;
    let settled!: () => void;
    const settling = new Promise<void>((done) => (settled = done));
    const startNext = () => {
      if (!next && queue.members.length) {
        next = true;
        this.start(queue, settling);
      }
    };
    let members: Member[] = [];
    const take = () => (members = queue.members.splice(0, MAX_GROUP_MEMBERS));
    let attempt = await this.attempt(queue, take, false, startNext);
    if (attempt.retry) attempt = await this.attempt(queue, () => members, true, startNext);
    if (attempt.requeue) {
      // A row `end` wrote for one of them (an idempotency key) was taken, and nothing committed: they
      // run again first in a later shared transaction (so commit order stays settling order), each
      // writing its own rows, so that only the member whose row was taken fails.
      for (const m of members) m.alone = true;
      queue.members.unshift(...members);
      members = [];
    }
    // Members are answered, and their afterCommit callbacks run (events announced), in commit order.
    await after;
    settle(members, attempt);
    settled();
    startNext();
    if (!next) this.waiting.delete(queue.group.key);
  }

  /**
   * One shared transaction, direct or each member in a savepoint; never throws. `take` gives its
   * members once `begin` returned (or it failed); those the time budget leaves out go back to the
   * head of the queue, and `ran` is called once no more members will run.
   */
  private async attempt(queue: Queue, take: () => Member[], savepoints: boolean, ran: () => void): Promise<Attempt> {
    const { group } = queue;
    const outcomes: Outcome[] = [];
    let members: Member[] | undefined;
    try {
      return await withSession(this.pool, async (s) => {
        try {
          // BEGIN goes with begin's statements (the lock, and reads asked for with it): one message.
          const first = new BeginningQueryable(s.client, this.statements);
          const run = { key: group.key, state: await group.begin(first) };
          await first.begun();
          members = take();
          const started = performance.now();
          for (const m of members) {
            if (outcomes.length > 0 && performance.now() - started > GROUP_TIME_BUDGET_MS) break;
            outcomes.push(await (savepoints ? this.inSavepoint(s, run, m) : this.direct(s, run, m)));
          }
          // Members the time budget left out go first next time.
          queue.members.unshift(...members.splice(outcomes.length));
          if (outcomes.some((o) => o.ok)) {
            ran();
            // The group's last statement goes with COMMIT where it can (one round trip fewer per group).
            if (group.last) await commitWith(s.client, this.statements, group.last(run.state));
            else {
              await group.end(new PgQueryable(s.client, this.statements), run.state);
              await commit(s.client);
            }
          } else {
            ran();
            await s.client.query('ROLLBACK');
          }
          return { outcomes };
        } catch (e) {
          members ??= take();
          const error = e instanceof NeedsUndo ? e.error : e;
          const reported = await abort(s, error);
          // A lone member's failure is its own transaction's: nobody else to run again.
          if (e instanceof NeedsUndo && members.length > 1 && !s.broken) return { outcomes, retry: true };
          if (violates(e, group.memberRows) && !s.broken) return { outcomes, requeue: true };
          return { outcomes, error: reported };
        }
      });
    } catch (e) {
      members ??= take();
      return { outcomes, error: e }; // no connection
    }
  }

  /** A member straight in the shared transaction (no savepoint). */
  private async direct(s: Session, group: GroupRun, m: Member): Promise<Outcome> {
    const tx = new PgTransaction(s.client, this.statements, m.alone ? { ...group, alone: true } : group);
    try {
      return { ok: true, value: await m.fn(tx), tx };
    } catch (e) {
      if (isConnectionError(e)) throw e;
      if (tx.changed || tx.failed) throw new NeedsUndo(e);
      return { ok: false, error: e };
    }
  }

  /** A member in its savepoint: rolled back to it, alone, when it throws something the connection survives. */
  private async inSavepoint(s: Session, group: GroupRun, m: Member): Promise<Outcome> {
    await s.client.query('SAVEPOINT member');
    const tx = new PgTransaction(s.client, this.statements, m.alone ? { ...group, alone: true } : group);
    try {
      const value = await m.fn(tx);
      await s.client.query('RELEASE member');
      return { ok: true, value, tx };
    } catch (e) {
      if (s.broken || isConnectionError(e)) throw e;
      await s.client.query('ROLLBACK TO member; RELEASE member');
      for (const undo of tx.undo.reverse()) undo();
      return { ok: false, error: e };
    }
  }
}

/** Settles the members of an attempt: after its COMMIT each success runs its callbacks and resolves; every failure rejects. */
function settle(members: Member[], { outcomes, error }: Attempt): void {
  members.forEach((m, i) => {
    const o = outcomes[i];
    if (o && !o.ok) m.reject(o.error);
    else if (error !== undefined || !o) m.reject(error);
    else {
      runAfterCommit(o.tx.committed);
      m.resolve(o.value);
    }
  });
}
