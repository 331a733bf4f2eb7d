import pg from 'pg';
import type { Param, Queryable, Row, Statement, Transaction } from '../store.ts';
import { literal, withLiterals, type PgStatements } from './statements.ts';
import { isConnectionError, mayHaveRun, storeError } from './errors.ts';
import { CommitOutcomeUnknown, StoreUnavailable } from '../errors.ts';

type Client = pg.Pool | pg.ClientBase;

async function query<T>(client: Client, statements: PgStatements, sql: string, params: Param[]): Promise<pg.QueryResult<T & pg.QueryResultRow>> {
  const text = statements.text(sql);
  try {
    return await client.query<T & pg.QueryResultRow>({ name: statements.name(text, params.length), text, values: params as unknown[] });
  } catch (e) {
    throw storeError(e);
  }
}

/** Statements on one pooled client (inside a transaction) or on the pool. */
export class PgQueryable implements Queryable {
  constructor(
    private readonly client: Client,
    protected readonly statements: PgStatements,
  ) {}
  /** Runs one statement; the one place every statement of this queryable goes through. */
  protected exec<T>(sql: string, params: Param[]): Promise<pg.QueryResult<T & pg.QueryResultRow>> {
    return query<T>(this.client, this.statements, sql, params);
  }
  async all<T = Row>(sql: string, params: Param[] = []): Promise<T[]> {
    return (await this.settled<T>(sql, params, !READS.test(sql))).rows;
  }
  async get<T = Row>(sql: string, params: Param[] = []): Promise<T | undefined> {
    return (await this.settled<T>(sql, params, !READS.test(sql))).rows[0];
  }
  async run(sql: string, params: Param[] = []): Promise<number> {
    return (await this.settled(sql, params, true)).rowCount ?? 0;
  }
  /**
   * `exec`, where on the pool a write commits by itself: cut off after it was sent, it may have
   * committed (CommitOutcomeUnknown, not StoreUnavailable's "not committed"). `run` may write
   * whatever its SQL; `get` and `all` write when their SQL is not a SELECT (INSERT … RETURNING).
   */
  private async settled<T>(sql: string, params: Param[], writes: boolean): Promise<pg.QueryResult<T & pg.QueryResultRow>> {
    try {
      return await this.exec<T>(sql, params);
    } catch (e) {
      if (writes && e instanceof StoreUnavailable && this.client instanceof pg.Pool && mayHaveRun(e)) throw new CommitOutcomeUnknown(e.cause);
      throw e;
    }
  }
}

/**
 * A transaction's first statements: those asked for in the same turn (before the next tick) go
 * in one message with BEGIN (the simple-query protocol, their parameters written in as literals),
 * saving the round trip of a BEGIN of its own, and one per statement after the first; later ones
 * run as usual. Each statement of the message still runs after the one before it, with its own
 * snapshot (READ COMMITTED), as they would one message each: a read sent after a lock sees what
 * committed before the lock was granted. A failure fails every statement of the message (those
 * after the failing one did not run). `begun()` sends BEGIN alone if no statement came.
 */
export class BeginningQueryable extends PgQueryable {
  private started = false;
  /** The statements of the message not sent yet, each with its caller's settling. */
  private batch: Array<{ sql: string; resolve: (r: pg.QueryResult) => void; reject: (e: unknown) => void }> | undefined;
  constructor(
    private readonly session: pg.ClientBase,
    statements: PgStatements,
  ) {
    super(session, statements);
  }
  protected override exec<T>(sql: string, params: Param[]): Promise<pg.QueryResult<T & pg.QueryResultRow>> {
    if (this.started && !this.batch) return super.exec<T>(sql, params);
    this.started = true;
    return new Promise((resolve, reject) => {
      const entry = { sql: withLiterals(sql, params), resolve: resolve as (r: pg.QueryResult) => void, reject };
      if (this.batch) return void this.batch.push(entry);
      this.batch = [entry];
      process.nextTick(() => void this.send());
    });
  }
  private async send(): Promise<void> {
    const batch = this.batch!;
    this.batch = undefined;
    try {
      // One result per statement, BEGIN's first.
      const results = (await this.session.query(`BEGIN; ${batch.map((b) => b.sql).join('; ')}`)) as unknown as pg.QueryResult[];
      for (const [i, b] of batch.entries()) b.resolve(results[i + 1]);
    } catch (e) {
      const error = storeError(e);
      for (const b of batch) b.reject(error);
    }
  }
  /** The transaction is open: BEGIN went with the first statements, or goes now. */
  async begun(): Promise<void> {
    if (this.started) return;
    this.started = true;
    await this.session.query('BEGIN');
  }
}

/** A statement that only reads (and perhaps locks): svc's data-modifying statements begin with INSERT, UPDATE, DELETE or WITH. */
export const READS = /^\s*SELECT\b/i;
const WRITES = new Set(['INSERT', 'UPDATE', 'DELETE']);

/**
 * One transaction on its pooled client (alone, or a member of a group commit), with the callbacks
 * to run once it committed, and what a group commit must know to let it fail on its own without
 * a savepoint (group-commit.ts): whether it may have changed anything, or had a statement fail.
 */
export class PgTransaction extends PgQueryable implements Transaction {
  readonly committed: Array<() => void> = [];
  /** onRollback callbacks (members of a group only). */
  readonly undo: Array<() => void> = [];
  /** Some statement may have changed a row: anything but a SELECT, or an INSERT/UPDATE/DELETE that counted rows. */
  private wrote = false;
  /** Some statement failed: PostgreSQL has aborted the transaction (or the connection is gone). */
  failed = false;
  readonly onRollback?: (fn: () => void) => void;

  constructor(
    client: pg.ClientBase,
    statements: PgStatements,
    readonly group?: { readonly key: string; readonly state: unknown },
  ) {
    super(client, statements);
    if (group) this.onRollback = (fn) => void this.undo.push(fn);
  }

  /** Whether anything may need undoing: a row changed, or group state added to. */
  get changed(): boolean {
    return this.wrote || this.undo.length > 0;
  }

  protected override async exec<T>(sql: string, params: Param[]): Promise<pg.QueryResult<T & pg.QueryResultRow>> {
    try {
      const r = await super.exec<T>(sql, params);
      if (!READS.test(sql) && !(WRITES.has(r.command) && r.rowCount === 0)) this.wrote = true;
      return r;
    } catch (e) {
      this.failed = true;
      throw e;
    }
  }
  afterCommit(fn: () => void): void {
    this.committed.push(fn);
  }
}

/** A checked-out client, and whether its connection failed (then the pool must discard it). */
export interface Session {
  client: pg.PoolClient;
  /** Set once the connection is known to be unusable. */
  broken: Error | undefined;
}

/**
 * Runs `fn` on a pooled client and gives the client back: with the error when its connection
 * failed, so the pool discards it. A checked-out client has no listener of the pool's: a
 * connection lost between two statements would otherwise be an uncaught 'error' event.
 */
export async function withSession<T>(pool: pg.Pool, fn: (s: Session) => Promise<T>): Promise<T> {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (e) {
    throw storeError(e);
  }
  const session: Session = { client, broken: undefined };
  const lost = (e: Error) => {
    session.broken = e;
  };
  client.on('error', lost);
  try {
    return await fn(session);
  } finally {
    client.off('error', lost);
    client.release(session.broken);
  }
}

/** COMMIT; a connection lost on the way leaves it open whether it committed (CommitOutcomeUnknown). */
export async function commit(client: pg.ClientBase): Promise<void> {
  await client.query('COMMIT').catch(commitFailed);
}

function commitFailed(e: unknown): never {
  if (!isConnectionError(e)) throw e;
  throw mayHaveRun(e) ? new CommitOutcomeUnknown(e) : new StoreUnavailable(e);
}

/**
 * `last`, then COMMIT. Where `last` is a prepared statement of this connection already, both go in
 * one message (`EXECUTE <name>(<literals>); COMMIT`, the simple-query protocol: one round trip,
 * the plan reused); else `last` goes alone first (which prepares it, once it recurs). A failure of
 * `last` skips the COMMIT, as two messages would; a connection lost on the way leaves it open
 * whether it committed (CommitOutcomeUnknown).
 */
export async function commitWith(client: pg.ClientBase, statements: PgStatements, last: Statement | undefined): Promise<void> {
  if (last) {
    const text = statements.text(last.sql);
    const name = statements.name(text, last.params.length);
    const prepared = (client as { connection?: { parsedStatements?: Record<string, string> } }).connection?.parsedStatements;
    if (name === undefined || prepared?.[name] !== text) {
      await query(client, statements, last.sql, last.params);
    } else {
      await client.query(executeAndCommit(name, last.params)).catch(commitFailed);
      return;
    }
  }
  await commit(client);
}

/**
 * `EXECUTE <name>(<literals>); COMMIT` built by one join, so it is one flat string: a template
 * around the literals would be a rope that pg, measuring its bytes, copies whole once more (the
 * literals hold a commit group's JSON records, hundreds of kilobytes).
 */
function executeAndCommit(name: string, params: Param[]): string {
  const parts = ['EXECUTE ', name, '('];
  for (let i = 0; i < params.length; i++) parts.push(i ? ', ' : '', literal(params[i]));
  parts.push('); COMMIT');
  return parts.join('');
}

/**
 * Ends a transaction that failed with `e` and returns the error to report: after a connection
 * failure no ROLLBACK (it would wait out its own time-out on a dead connection; the server rolls
 * back an uncommitted transaction whose connection ends) and the session is marked broken.
 */
export async function abort(s: Session, e: unknown): Promise<unknown> {
  if (e instanceof CommitOutcomeUnknown || isConnectionError(e)) {
    s.broken ??= e as Error;
    return storeError(e);
  }
  if (!s.broken)
    await s.client.query('ROLLBACK').catch((r: Error) => {
      s.broken = r;
    });
  return e;
}
