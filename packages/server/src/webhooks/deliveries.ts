import { newId } from '../ids/ids.ts';
import type { ChangeEvent } from '../changes/events.ts';
import type { Dialect, Param, Queryable, Store } from '../store/store.ts';

/**
 * The durable queue: SQL over `webhook_deliveries` and `webhook_attempts`. A delivery is a row
 * from the moment its change commits; dispatchers claim due rows with a lease, and an attempt is
 * recorded only by the holder of the current lease.
 */
export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

/** A delivery as the API returns it (§4). */
export interface Delivery {
  id: string;
  webhookId: string;
  eventId: string;
  event: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: string | null;
  lastAttemptAt: string | null;
  responseStatus: number | null;
  createdAt: string;
}

/** One row of a delivery's `attemptLog`. */
export interface AttemptLogEntry {
  at: string;
  responseStatus: number | null;
  durationMs: number;
  error: string | null;
  responseBody: string | null;
}

interface DeliveryRow {
  id: string;
  webhook_id: string;
  event_id: string;
  event: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: string | null;
  last_attempt_at: string | null;
  response_status: number | null;
  created_at: string;
}

const COLUMNS = 'id, webhook_id, event_id, event, status, attempts, next_attempt_at, last_attempt_at, response_status, created_at';

function toDelivery(r: DeliveryRow): Delivery {
  return {
    id: r.id,
    webhookId: r.webhook_id,
    eventId: r.event_id,
    event: r.event,
    status: r.status,
    attempts: r.attempts,
    nextAttemptAt: r.status === 'pending' ? r.next_attempt_at : null,
    lastAttemptAt: r.last_attempt_at,
    responseStatus: r.response_status,
    createdAt: r.created_at,
  };
}

/** The POST body of a change's delivery (§4): the same bytes for every webhook and attempt. */
export function eventPayload(e: ChangeEvent): string {
  return JSON.stringify({
    id: e.id,
    type: e.type,
    timestamp: e.timestamp,
    database: e.databaseId,
    collection: e.collection,
    // Files (§12): the record as "file" (and "previous") in place of "document".
    ...(e.type.startsWith('file.') ? { file: e.document } : { document: e.document }),
    ...(e.type === 'document.updated' || e.type === 'file.updated' ? { previous: e.previous } : {}),
  });
}

/** A new pending delivery, due at once. */
export interface NewDelivery {
  webhookId: string;
  eventId: string;
  event: string;
  payload: string;
}

/** Inserts pending deliveries inside the caller's transaction; returns their ids. */
export async function insertDeliveries(tx: Queryable, items: NewDelivery[], now: string): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < items.length; start += 200) {
    const chunk = items.slice(start, start + 200);
    const params: Param[] = [];
    for (const d of chunk) {
      const id = newId();
      ids.push(id);
      params.push(id, d.webhookId, d.eventId, d.event, d.payload, now, now);
    }
    await tx.run(
      `INSERT INTO webhook_deliveries (id, webhook_id, event_id, event, payload, status, attempts, series_start, next_attempt_at, created_at)
       VALUES ${chunk.map(() => "(?, ?, ?, ?, ?, 'pending', 0, 0, ?, ?)").join(', ')}`,
      params,
    );
  }
  return ids;
}

/** One delivery of a webhook, or undefined. */
export async function findDelivery(q: Queryable, webhookId: string, deliveryId: string): Promise<Delivery | undefined> {
  const row = await q.get<DeliveryRow>(`SELECT ${COLUMNS} FROM webhook_deliveries WHERE id = ? AND webhook_id = ?`, [deliveryId, webhookId]);
  return row && toDelivery(row);
}

/** A page of a webhook's deliveries, newest first, with the total of the (filtered) set. */
export async function listDeliveries(
  q: Queryable,
  webhookId: string,
  opts: { limit: number; offset: number; status?: DeliveryStatus },
): Promise<{ deliveries: Delivery[]; total: number }> {
  const where = `webhook_id = ?${opts.status ? ' AND status = ?' : ''}`;
  const params: Param[] = opts.status ? [webhookId, opts.status] : [webhookId];
  const rows = await q.all<DeliveryRow>(`SELECT ${COLUMNS} FROM webhook_deliveries WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`, [
    ...params,
    opts.limit,
    opts.offset,
  ]);
  const total = await q.get<{ n: number }>(`SELECT count(*) AS n FROM webhook_deliveries WHERE ${where}`, params);
  return { deliveries: rows.map(toDelivery), total: total?.n ?? 0 };
}

/** Every recorded attempt of a delivery, oldest first. */
export async function attemptLog(q: Queryable, deliveryId: string): Promise<AttemptLogEntry[]> {
  const rows = await q.all<{ at: string; response_status: number | null; duration_ms: number; error: string | null; response_body: string | null }>(
    'SELECT at, response_status, duration_ms, error, response_body FROM webhook_attempts WHERE delivery_id = ? ORDER BY n',
    [deliveryId],
  );
  return rows.map((r) => ({ at: r.at, responseStatus: r.response_status, durationMs: r.duration_ms, error: r.error, responseBody: r.response_body }));
}

/** Pending deliveries of enabled webhooks (the queue depth metric). */
export async function queueDepth(q: Queryable): Promise<number> {
  const row = await q.get<{ n: number }>("SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'pending'");
  return row?.n ?? 0;
}

/** A claimed delivery with what its attempt needs: the webhook's URL and secret as they are now. */
export interface Claimed {
  id: string;
  webhookId: string;
  databaseId: string;
  eventId: string;
  event: string;
  payload: string;
  attempts: number;
  seriesStart: number;
  url: string;
  secret: string;
  leaseToken: string;
  /** The webhook's run of failed deliveries when claimed (0: a success has nothing to reset). */
  failureStreak: number;
}

interface ClaimOptions {
  now: string;
  leaseUntil: string;
  /** About how many rows the caller has room for: sizes the window of due rows looked at. */
  limit: number;
  /** Whether the caller takes a due row of this webhook and database now (it books the slot when it says yes). */
  take(webhookId: string, databaseId: string): boolean;
  /** Webhooks and databases with no room: their rows are not even looked at. */
  skipWebhooks: string[];
  skipDatabases: string[];
}

/**
 * Claims due deliveries of enabled webhooks in one transaction: the candidates are locked
 * (PostgreSQL: `FOR UPDATE SKIP LOCKED`, so concurrent dispatchers take disjoint rows and never
 * wait for each other), those the caller's `take` accepts get a lease, the rest stay as they
 * were. `more` says whether due rows were left behind.
 */
export async function claimDue(store: Store, opts: ClaimOptions): Promise<{ claimed: Claimed[]; more: boolean; windowFull: boolean }> {
  const token = newId();
  const window = Math.max(opts.limit * 2, 16);
  const list = (ids: string[]) => ids.map(() => '?').join(', ');
  return store.transaction(async (tx) => {
    const skipHooks = opts.skipWebhooks.length ? ` AND webhook_id NOT IN (${list(opts.skipWebhooks)})` : '';
    const skipDbs = opts.skipDatabases.length ? ` AND database_id NOT IN (${list(opts.skipDatabases)})` : '';
    // The database comes from a scalar subquery rather than a join: a join would lock (FOR UPDATE)
    // the webhooks' rows too, and dispatchers would then skip each other's webhooks.
    const candidates = await tx.all<{ id: string; webhook_id: string; database_id: string }>(
      `SELECT id, webhook_id, (SELECT database_id FROM webhooks w WHERE w.id = webhook_deliveries.webhook_id) AS database_id
       FROM webhook_deliveries
       WHERE status = 'pending' AND next_attempt_at <= ? AND (lease_until IS NULL OR lease_until <= ?)
         AND webhook_id IN (SELECT id FROM webhooks WHERE enabled = 1${skipDbs})${skipHooks}
       ORDER BY next_attempt_at LIMIT ?${store.dialect.claimRows}`,
      [opts.now, opts.now, ...opts.skipDatabases, ...opts.skipWebhooks, window],
    );
    const chosen: string[] = [];
    const hooks = new Set<string>();
    for (const c of candidates) {
      if (!opts.take(c.webhook_id, c.database_id)) continue;
      hooks.add(c.webhook_id);
      chosen.push(c.id);
    }
    const more = candidates.length > chosen.length || candidates.length === window;
    // Every candidate was taken and there may be more: only then is another claim worth its query.
    const windowFull = candidates.length === window && chosen.length === candidates.length;
    if (chosen.length === 0) return { claimed: [], more, windowFull };
    const rows = await tx.all<{ id: string; webhook_id: string; event_id: string; event: string; payload: string; attempts: number; series_start: number }>(
      `UPDATE webhook_deliveries SET lease_until = ?, lease_token = ? WHERE id IN (${list(chosen)})
       RETURNING id, webhook_id, event_id, event, payload, attempts, series_start`,
      [opts.leaseUntil, token, ...chosen],
    );
    const webhooks = await tx.all<{ id: string; database_id: string; url: string; secret: string; failure_streak: number }>(
      `SELECT id, database_id, url, secret, failure_streak FROM webhooks WHERE id IN (${list([...hooks])})`,
      [...hooks],
    );
    const byId = new Map(webhooks.map((w) => [w.id, w]));
    const claimed = rows.map((r) => {
      const w = byId.get(r.webhook_id)!;
      return {
        id: r.id,
        webhookId: r.webhook_id,
        databaseId: w.database_id,
        eventId: r.event_id,
        event: r.event,
        payload: r.payload,
        attempts: r.attempts,
        seriesStart: r.series_start,
        url: w.url,
        secret: w.secret,
        leaseToken: token,
        failureStreak: w.failure_streak,
      };
    });
    return { claimed, more, windowFull };
  });
}

/** The outcome of one attempt, as the dispatcher decided it. */
interface AttemptRecord {
  at: string;
  status: DeliveryStatus;
  nextAttemptAt: string | null;
  responseStatus: number | null;
  durationMs: number;
  error: string | null;
  responseBody: string | null;
}

/**
 * Records an attempt and the delivery's new state, if the lease is still ours (a dispatcher that
 * lost its lease records nothing); returns whether it counted. Where the dialect has writable
 * CTEs both writes are one statement, atomic by itself, so the caller needs no transaction for
 * it (one round trip per attempt on PostgreSQL); elsewhere run it in a transaction.
 */
export function recordAttempt(q: Queryable, dialect: Dialect, c: Claimed, a: AttemptRecord): Promise<boolean> {
  return (dialect.writableCte ? recordAttemptWithCte : recordAttemptStepwise)(q, c, a);
}

/** The UPDATE of a delivery after an attempt, only while the claim's lease is current. */
const UPDATE_DELIVERY = `UPDATE webhook_deliveries SET status = ?, attempts = ?, next_attempt_at = ?, last_attempt_at = ?, response_status = ?, lease_until = NULL, lease_token = NULL
   WHERE id = ? AND lease_token = ?`;

const updateParams = (c: Claimed, a: AttemptRecord): Param[] => [a.status, c.attempts + 1, a.nextAttemptAt, a.at, a.responseStatus, c.id, c.leaseToken];
const attemptParams = (c: Claimed, a: AttemptRecord): Param[] => [c.attempts + 1, a.at, a.responseStatus, a.durationMs, a.error, a.responseBody];

/** PostgreSQL: the delivery's update and its attempt row in one statement (atomic without a transaction). */
export async function recordAttemptWithCte(q: Queryable, c: Claimed, a: AttemptRecord): Promise<boolean> {
  const row = await q.get(
    `WITH d AS (${UPDATE_DELIVERY} RETURNING id)
     INSERT INTO webhook_attempts (delivery_id, n, at, response_status, duration_ms, error, response_body)
     SELECT d.id, CAST(? AS integer), ?, CAST(? AS integer), CAST(? AS integer), ?, ? FROM d RETURNING delivery_id`,
    [...updateParams(c, a), ...attemptParams(c, a)],
  );
  return row !== undefined;
}

/** SQLite: the update, then the attempt row when the update counted; the caller's transaction makes them one. */
export async function recordAttemptStepwise(q: Queryable, c: Claimed, a: AttemptRecord): Promise<boolean> {
  if ((await q.run(UPDATE_DELIVERY, updateParams(c, a))) === 0) return false;
  await q.run('INSERT INTO webhook_attempts (delivery_id, n, at, response_status, duration_ms, error, response_body) VALUES (?, ?, ?, ?, ?, ?, ?)', [
    c.id,
    ...attemptParams(c, a),
  ]);
  return true;
}

/** Gives claimed rows back without counting an attempt (shutdown): due again at once. */
export async function releaseClaims(store: Store, claims: Claimed[]): Promise<void> {
  for (const c of claims) {
    await store.run('UPDATE webhook_deliveries SET lease_until = NULL, lease_token = NULL WHERE id = ? AND lease_token = ?', [c.id, c.leaseToken]);
  }
}
