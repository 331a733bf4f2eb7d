import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import type { Invalidation, InvalidationLog } from './invalidation.ts';

/** The channel the store's triggers (migration 7) notify, and barriers travel on. */
export const CHANNEL = 'svc_invalidate';
/** The application_name of every listener connection: how a barrier finds the instances to wait for. */
const LISTENER_NAME = 'svc-invalidation';
/** How long a barrier waits for an instance that does not acknowledge. */
const BARRIER_TIMEOUT_MS = 3000;
/** While waiting, how often a barrier checks that the listeners it waits for still exist. */
const RECHECK_EVERY_MS = 200;
/** A listener query (LISTEN, a ping, an acknowledgement) unanswered for this long means the connection is lost. */
const QUERY_TIMEOUT_MS = 3000;

const QUIET: InvalidationLog = { warn: () => undefined, info: () => undefined };

/** A barrier this instance sent: the listeners still to acknowledge it (undefined until known) and those that already did. */
interface PendingBarrier {
  waiting: Set<number> | undefined;
  early: Set<number>;
  done: () => void;
}

/**
 * LISTEN/NOTIFY on a dedicated `pg.Client` (the store's pool is for requests). Messages are
 * space-separated words: tags (`key:<hash>`…) and `flush` from the triggers, `barrier:<nonce>`
 * from an instance ending credentials, `ack:<nonce>:<pid>` from every listener that heard it.
 * invalidation.ts explains the design.
 */
class PgInvalidation implements Invalidation {
  private live = false;
  epoch = 0;
  private client: pg.Client | undefined;
  private connecting: Promise<void> | undefined;
  private closed = false;
  /** Whether the loss of the listener was logged (once per outage, not once per attempt). */
  private down = false;
  private readonly listeners: Array<(tags: readonly string[] | 'all') => void> = [];
  private readonly barriers = new Map<string, PendingBarrier>();

  /** `onTheSide`: a short-lived listener that only runs one barrier (barrierOnTheSide). */
  constructor(
    private readonly url: string,
    private readonly log: InvalidationLog,
    private readonly onTheSide = false,
  ) {}

  current(): boolean {
    return this.live;
  }

  subscribe(listener: (tags: readonly string[] | 'all') => void): void {
    this.listeners.push(listener);
  }

  start(): Promise<void> {
    return this.maintain();
  }

  async maintain(): Promise<void> {
    if (this.closed) return;
    const client = this.client;
    if (!client) {
      await (this.connecting ??= this.connect().finally(() => (this.connecting = undefined)));
      return;
    }
    // TCP may not report a peer that vanished; an unanswered ping does (query_timeout).
    await client.query('SELECT 1').catch((err: unknown) => this.lost(client, err));
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.url,
      application_name: `${LISTENER_NAME}-starting`,
      keepAlive: true,
      connectionTimeoutMillis: QUERY_TIMEOUT_MS,
      query_timeout: QUERY_TIMEOUT_MS,
    });
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client));
    // The backend pid names this listener in acknowledgements and in pg_stat_activity.
    let pid = 0;
    client.on('notification', (m) => {
      if (m.channel === CHANNEL) this.heard(client, pid, m.payload ?? '');
    });
    try {
      await client.connect();
      pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
      await client.query(`LISTEN ${CHANNEL}`);
      // Named only now, when it hears every later commit, so barriers wait for it from now on;
      // it caches nothing before this (below), so a barrier that missed it misses nothing.
      await client.query(`SET application_name = '${LISTENER_NAME}'`);
    } catch (err) {
      void client.end().catch(() => undefined);
      if (!this.down) this.log.warn({ err }, 'credential caches are off: cannot LISTEN for invalidations (retrying)');
      this.down = true;
      return;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.live = true;
    // Nothing was heard while no connection listened: whatever a cache might hold goes.
    this.changed('all');
    if (this.down) this.log.info({}, 'credential caches are on again: listening for invalidations');
    this.down = false;
  }

  /** The listener connection failed or ended: caches off and emptied, barriers stop waiting. */
  private lost(client: pg.Client, err?: unknown): void {
    if (client !== this.client) return;
    this.client = undefined;
    this.live = false;
    this.changed('all');
    this.releaseBarriers();
    if (!this.closed) {
      if (!this.down) this.log.warn({ err }, 'credential caches are off: the invalidation listener was lost (reconnecting)');
      this.down = true;
      if (!this.onTheSide) void this.maintain(); // at once; then every MAINTAIN_EVERY_MS until it is back
    }
    void client.end().catch(() => undefined);
  }

  /** A message on `client` (the listener, or one still connecting), whose backend is `pid`. */
  private heard(client: pg.Client, pid: number, payload: string): void {
    const tags: string[] = [];
    const control: string[] = [];
    let all = false;
    for (const word of payload.split(' ')) {
      if (word === 'flush') all = true;
      else if (word.startsWith('barrier:') || word.startsWith('ack:')) control.push(word);
      else if (word) tags.push(word);
    }
    // Applied before any barrier of the same payload is acknowledged.
    if (all) this.changed('all');
    else if (tags.length > 0) this.changed(tags);
    for (const word of control) {
      if (word.startsWith('barrier:')) this.acknowledge(client, pid, word.slice('barrier:'.length));
      else this.acknowledged(word);
    }
  }

  private changed(tags: readonly string[] | 'all'): void {
    this.epoch += 1;
    for (const listener of this.listeners) listener(tags);
  }

  /** Every invalidation committed before this barrier has been applied here: say so. */
  private acknowledge(client: pg.Client, pid: number, nonce: string): void {
    const own = this.barriers.get(nonce);
    if (own) {
      this.received(own, pid);
      return;
    }
    client.query('SELECT pg_notify($1, $2)', [CHANNEL, `ack:${nonce}:${pid}`]).catch(() => undefined);
  }

  private acknowledged(word: string): void {
    const [, nonce, pid] = word.split(':');
    const pending = this.barriers.get(nonce);
    if (pending) this.received(pending, Number(pid));
  }

  private received(pending: PendingBarrier, pid: number): void {
    if (!pending.waiting) return void pending.early.add(pid);
    pending.waiting.delete(pid);
    if (pending.waiting.size === 0) pending.done();
  }

  private releaseBarriers(): void {
    for (const pending of this.barriers.values()) pending.done();
    this.barriers.clear();
  }

  async barrier(): Promise<void> {
    const client = this.client;
    if (!client) return this.barrierOnTheSide();
    const nonce = randomBytes(9).toString('base64url');
    let done!: () => void;
    const finished = new Promise<void>((resolve) => (done = resolve));
    const pending: PendingBarrier = { waiting: undefined, early: new Set(), done };
    this.barriers.set(nonce, pending);
    try {
      // The barrier and the list of listeners in one statement; this instance's own listener is
      // on the list and acknowledges by hearing its own barrier.
      const { rows } = await client.query<{ pids: number[] | null }>(
        `SELECT pg_notify($1, $2), (SELECT array_agg(pid) FROM pg_stat_activity
           WHERE datname = current_database() AND application_name = $3) AS pids`,
        [CHANNEL, `barrier:${nonce}`, LISTENER_NAME],
      );
      const waiting = new Set((rows[0]?.pids ?? []).filter((pid) => !pending.early.has(pid)));
      pending.waiting = waiting;
      const deadline = Date.now() + BARRIER_TIMEOUT_MS;
      while (waiting.size > 0 && this.client === client && Date.now() < deadline) {
        await Promise.race([finished, sleep(RECHECK_EVERY_MS)]);
        if (waiting.size > 0 && this.client === client) await this.forgetGone(client, waiting);
      }
      if (waiting.size === 0) return;
      if (this.client === client) {
        this.log.warn({ listeners: [...waiting] }, `invalidation barrier: no acknowledgement within ${BARRIER_TIMEOUT_MS} ms`);
        return;
      }
    } catch (err) {
      this.lost(client, err);
    } finally {
      this.barriers.delete(nonce);
    }
    // The listener was lost on the way: the acknowledgements still due can no longer be heard.
    await this.barrierOnTheSide();
  }

  /**
   * The barrier of an instance whose listener is down (it caches nothing meanwhile, but others
   * may): on a listener of its own, as the CLI does. Nothing to wait for if it cannot connect.
   */
  private async barrierOnTheSide(): Promise<void> {
    if (this.closed || this.onTheSide) return;
    const side = new PgInvalidation(this.url, QUIET, true);
    await side.start();
    try {
      await side.barrier();
    } finally {
      await side.close();
    }
  }

  /**
   * Stops waiting for listeners whose connection is gone: their instance, if it still runs,
   * emptied its caches when it lost the connection, and listens anew (caches emptied again)
   * under another pid.
   */
  private async forgetGone(client: pg.Client, waiting: Set<number>): Promise<void> {
    const { rows } = await client.query<{ pids: number[] | null }>('SELECT array_agg(pid) AS pids FROM pg_stat_activity WHERE pid = ANY($1::int[])', [
      [...waiting],
    ]);
    const alive = new Set(rows[0]?.pids ?? []);
    for (const pid of waiting) if (!alive.has(pid)) waiting.delete(pid);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.live = false;
    this.releaseBarriers();
    await this.connecting;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }
}

/** Invalidation through PostgreSQL LISTEN/NOTIFY on the store at `url`. */
export function postgresInvalidation(url: string, log: InvalidationLog): Invalidation {
  return new PgInvalidation(url, log);
}
