import { setMaxListeners } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../infra/clock.ts';
import type { Queryable, Store } from '../store/store.ts';
import { claimDue, recordAttempt, releaseClaims, type Claimed, type DeliveryStatus } from './deliveries.ts';
import { signatureHeaders } from './signing.ts';
import { retryAfterMs, type Sender } from './sender.ts';
import { Slots } from './slots.ts';

interface DispatcherOptions {
  store: Store;
  sender: Sender;
  clock: Clock;
  log: FastifyBaseLogger;
  timeoutMs: number;
  retryBaseMs: number;
  maxAttempts: number;
  /** Auto-disable: this many failed deliveries in a row… */
  disableAfterFailures: number;
  /** …the first of them at least this old. */
  disableAfterMs: number;
  /** Attempts in flight in this instance: in all (default 64), per database (a quarter of it) and per webhook (16); see slots.ts. */
  maxInFlight?: number;
  maxPerDatabase?: number;
  maxPerWebhook?: number;
  /** The longest the dispatcher sleeps without a wake-up (finds other instances' work, expired leases). */
  pollMs?: number;
  /** Told of every finished attempt (metrics). */
  onAttempt?(outcome: 'succeeded' | 'retrying' | 'failed'): void;
}

/**
 * Delay before attempt `k + 1` of a series after `k` failed ones: `base · 2^(k−1)`, ±20 % jitter
 * so that a receiver's outage does not bring back every delivery at the same instant.
 */
export function backoffMs(base: number, failedAttempts: number, random = Math.random): number {
  return Math.round(base * 2 ** (failedAttempts - 1) * (0.8 + 0.4 * random()));
}

/**
 * The webhook dispatcher of one instance. It claims due deliveries with a lease (so several
 * instances share the queue without sending an attempt twice), runs their attempts concurrently
 * (bounded in all and per webhook), records each attempt and schedules the next. It never runs
 * inside a request: document writes only wake it after their commit.
 *
 * The lease is twice the attempt time-out plus a second: an attempt always ends (it is aborted at
 * the time-out) and is recorded well before another instance may take the row over, and a row
 * claimed by an instance that died is attempted again once its lease ends.
 */
export class Dispatcher {
  private readonly slots: Slots;
  private readonly pollMs: number;
  private readonly leaseMs: number;
  private readonly inFlight = new Map<string, { claim: Claimed; done: Promise<void> }>();
  private readonly abort = new AbortController();
  private running = false;
  private claiming: Promise<void> | undefined;
  private again = false;
  /** Whether the last claim left due rows behind (then a finished attempt claims more at once). */
  private backlog = false;
  private timer: NodeJS.Timeout | undefined;
  /** When the timer fires (wall time, ms), so the earlier of two schedules wins. */
  private timerAt = Infinity;
  /** The earliest retry this instance scheduled (epoch ms), to wake for it. */
  private nextLocalDue = Infinity;

  constructor(private readonly o: DispatcherOptions) {
    const total = o.maxInFlight ?? 64;
    this.slots = new Slots({ total, perDatabase: o.maxPerDatabase ?? Math.max(1, Math.floor(total / 4)), perWebhook: o.maxPerWebhook ?? 16 });
    this.pollMs = o.pollMs ?? 1000;
    this.leaseMs = 2 * o.timeoutMs + 1000;
    // Every attempt in flight listens to the shutdown signal (one listener each, removed when it ends).
    setMaxListeners(0, this.abort.signal);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.wake();
  }

  /** Claims due work soon (deliveries were just committed, a retry was asked for, a slot freed). */
  wake(): void {
    if (!this.running) return;
    if (this.claiming) {
      this.again = true;
      return;
    }
    this.schedule(0);
  }

  /** Runs a claim in `ms` unless one is already due sooner. */
  private schedule(ms: number): void {
    const at = Date.now() + ms;
    if (this.timer && this.timerAt <= at) return;
    clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.timerAt = Infinity;
      if (this.nextLocalDue <= this.o.clock.now()) this.nextLocalDue = Infinity;
      void this.tick();
    }, ms);
  }

  private tick(): Promise<void> {
    this.claiming = (async () => {
      do {
        this.again = false;
        try {
          await this.claimAll();
        } catch (e) {
          if (this.running) this.o.log.error({ err: e }, 'webhook dispatcher: claiming failed');
        }
      } while (this.again && this.running);
    })().finally(() => {
      this.claiming = undefined;
      this.sleep();
    });
    return this.claiming;
  }

  private sleep(): void {
    if (!this.running) return;
    const untilLocal = this.nextLocalDue - this.o.clock.now();
    this.schedule(Math.max(0, Math.min(this.pollMs, untilLocal)));
  }

  private async claimAll(): Promise<void> {
    while (this.running) {
      const now = this.o.clock.now();
      const plan = this.slots.plan();
      const { claimed, more, windowFull } = await claimDue(this.o.store, {
        now: new Date(now).toISOString(),
        leaseUntil: new Date(now + this.leaseMs).toISOString(),
        ...plan,
      });
      // Rows of a full webhook or database were not even looked at: finishing attempts must claim again.
      this.backlog = more || plan.skipWebhooks.length > 0 || plan.skipDatabases.length > 0;
      for (const c of claimed) this.launch(c);
      if (!this.running) return;
      // Claim again only after progress: rows were left behind either past the window or because
      // this claim filled their webhook or database, which the next claim skips in SQL. So
      // another database's due rows behind a busy one's are seen now, not at the next poll.
      if (claimed.length === 0 || !(windowFull || more)) return;
    }
  }

  private launch(c: Claimed): void {
    this.slots.acquire(c.webhookId, c.databaseId);
    const done = this.attempt(c)
      .catch((e) => this.o.log.error({ err: e, delivery: c.id }, 'webhook dispatcher: recording an attempt failed'))
      .finally(() => {
        this.inFlight.delete(c.id);
        this.slots.release(c.webhookId, c.databaseId);
        if (this.backlog) this.wake();
      });
    this.inFlight.set(c.id, { claim: c, done });
  }

  private async attempt(c: Claimed): Promise<void> {
    const startedAt = this.o.clock.now();
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'svc-webhooks/1',
      'x-service-event': c.event,
      'x-service-delivery': c.id,
      ...signatureHeaders(c.secret, c.id, c.payload, Math.floor(startedAt / 1000)),
    };
    const r = await this.o.sender.post(c.url, c.payload, headers, this.abort.signal);
    // Aborted by a shutdown before any answer: the claim is given back by stop(), uncounted.
    if (this.abort.signal.aborted && r.status === null) return;
    const ok = r.status !== null && r.status >= 200 && r.status < 300;
    const inSeries = c.attempts + 1 - c.seriesStart;
    const status: DeliveryStatus = ok ? 'succeeded' : inSeries >= this.o.maxAttempts ? 'failed' : 'pending';
    const now = this.o.clock.now();
    // A 429 or 503 may ask for a longer wait than the backoff (Retry-After, at most an hour).
    const next = status === 'pending' ? now + Math.max(backoffMs(this.o.retryBaseMs, inSeries), retryAfterMs(r, now)) : null;
    const error = r.error ?? (ok ? null : `HTTP ${r.status}`);
    const { store } = this.o;
    const record = (q: Queryable) =>
      recordAttempt(q, store.dialect, c, {
        at: new Date(startedAt).toISOString(),
        status,
        nextAttemptAt: next === null ? null : new Date(next).toISOString(),
        responseStatus: r.status,
        durationMs: r.durationMs,
        error,
        responseBody: r.body,
      });
    // The common case, a success for a webhook that wasn't failing, is one statement on PostgreSQL.
    const touchesWebhook = status !== 'pending' && (!ok || c.failureStreak > 0);
    const recorded =
      !touchesWebhook && store.dialect.writableCte
        ? await record(store)
        : await store.transaction(async (tx) => {
            const counted = await record(tx);
            if (counted && touchesWebhook) await this.noteOutcome(tx, c.webhookId, ok, now, error);
            return counted;
          });
    if (!recorded) {
      this.o.log.warn({ delivery: c.id }, 'webhook dispatcher: lease lost before the attempt was recorded');
      return;
    }
    if (next !== null && next < this.nextLocalDue) {
      this.nextLocalDue = next;
      if (!this.claiming) this.sleep();
    }
    this.o.onAttempt?.(status === 'pending' ? 'retrying' : status);
  }

  /**
   * The auto-disable rule: a webhook whose last `disableAfterFailures` deliveries all failed, the
   * first of them at least `disableAfterMs` ago, is disabled, with the reason in its record. A
   * succeeded delivery resets the count.
   */
  private async noteOutcome(tx: Queryable, webhookId: string, ok: boolean, now: number, error: string | null): Promise<void> {
    if (ok) {
      await tx.run('UPDATE webhooks SET failure_streak = 0, failing_since = NULL WHERE id = ? AND failure_streak > 0', [webhookId]);
      return;
    }
    const nowIso = new Date(now).toISOString();
    const row = await tx.get<{ streak: number; since: string; enabled: number }>(
      'UPDATE webhooks SET failure_streak = failure_streak + 1, failing_since = COALESCE(failing_since, ?) WHERE id = ? RETURNING failure_streak AS streak, failing_since AS since, enabled',
      [nowIso, webhookId],
    );
    if (row?.enabled !== 1) return;
    const streak = row.streak;
    if (streak < this.o.disableAfterFailures || now - Date.parse(row.since) < this.o.disableAfterMs) return;
    const reason =
      `Disabled automatically at ${nowIso}: the last ${streak} deliveries failed, the first at ${row.since}` +
      (error ? ` (last error: ${error.slice(0, 200)})` : '');
    await tx.run('UPDATE webhooks SET enabled = 0, disabled_reason = ?, updated_at = ? WHERE id = ?', [reason, nowIso, webhookId]);
    this.o.log.warn({ webhook: webhookId, streak }, 'webhook disabled after repeated failures');
  }

  /** Stops claiming, aborts the attempts in flight and gives their claims back (due again at once). */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    clearTimeout(this.timer);
    this.abort.abort();
    await this.claiming;
    const open = [...this.inFlight.values()];
    await Promise.all(open.map((f) => f.done));
    await releaseClaims(
      this.o.store,
      open.map((f) => f.claim),
    ).catch(() => undefined);
  }
}
