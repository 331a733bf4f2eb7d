import { ApiError, notFound } from '../errors.ts';
import { newId } from '../ids/ids.ts';
import type { Clock } from '../infra/clock.ts';
import type { ChangeEvent } from '../changes/events.ts';
import type { Param, Queryable, Store } from '../store/store.ts';
import { newSecret } from './signing.ts';
import { UrlNotAllowed, type UrlGuard } from './url-guard.ts';
import {
  attemptLog,
  eventPayload,
  findDelivery,
  insertDeliveries,
  listDeliveries,
  type AttemptLogEntry,
  type Delivery,
  type DeliveryStatus,
  type NewDelivery,
} from './deliveries.ts';
import type { CreateBody, UpdateBody } from './schemas.ts';

/** A webhook as the API returns it (§4), plus why the service disabled it, if it did. */
export interface Webhook {
  id: string;
  url: string;
  events: string[];
  collections: string[];
  description: string | null;
  enabled: boolean;
  disabledReason: string | null;
  createdAt: string;
  updatedAt: string;
}

interface WebhookRow {
  id: string;
  url: string;
  events: string;
  collections: string;
  description: string | null;
  enabled: number;
  disabled_reason: string | null;
  created_at: string;
  updated_at: string;
}

const COLUMNS = 'id, url, events, collections, description, enabled, disabled_reason, created_at, updated_at';

function toWebhook(r: WebhookRow): Webhook {
  return {
    id: r.id,
    url: r.url,
    events: JSON.parse(r.events),
    collections: JSON.parse(r.collections),
    description: r.description,
    enabled: r.enabled === 1,
    disabledReason: r.disabled_reason,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** A webhook's filters, as matching needs them. */
export interface HookFilter {
  id: string;
  events: string[];
  collections: string[];
}

/** Whether a webhook with these filters wants an event. */
export function matches(events: string[], collections: string[], e: ChangeEvent): boolean {
  return (events.includes('*') || events.includes(e.type)) && (collections.length === 0 || collections.includes(e.collection));
}

interface WebhooksServiceDeps {
  store: Store;
  guard: UrlGuard;
  clock: Clock;
  maxWebhooks: number;
  /** Told when deliveries are due now (after their transaction committed). */
  wake(): void;
}

/** The §4 routes' rules: webhooks, their deliveries, test deliveries and manual retries. */
export class WebhooksService {
  constructor(private readonly deps: WebhooksServiceDeps) {}

  private now(): string {
    return new Date(this.deps.clock.now()).toISOString();
  }

  private async checkUrl(url: string): Promise<void> {
    try {
      await this.deps.guard.check(url);
    } catch (e) {
      if (e instanceof UrlNotAllowed) throw new ApiError('url_not_allowed', e.message);
      throw e;
    }
  }

  private async row(q: Queryable, databaseId: string, id: string): Promise<WebhookRow> {
    const row = await q.get<WebhookRow>(`SELECT ${COLUMNS} FROM webhooks WHERE id = ? AND database_id = ?`, [id, databaseId]);
    if (!row) throw notFound(`Webhook '${id}' not found`);
    return row;
  }

  /** Creates a webhook; the answer is the only read of its secret besides rotate-secret. */
  async create(databaseId: string, body: CreateBody): Promise<Webhook & { secret: string }> {
    await this.checkUrl(body.url);
    const { store } = this.deps;
    const now = this.now();
    const id = newId();
    const secret = newSecret();
    await store.transaction(async (tx) => {
      // The database row lock serialises concurrent creates, so the limit holds on PostgreSQL too.
      await tx.get(`SELECT id FROM databases WHERE id = ?${store.dialect.lockRows}`, [databaseId]);
      const count = await tx.get<{ n: number }>('SELECT count(*) AS n FROM webhooks WHERE database_id = ?', [databaseId]);
      if ((count?.n ?? 0) >= this.deps.maxWebhooks) {
        throw new ApiError(
          'conflict',
          `A database may have at most ${this.deps.maxWebhooks} webhooks (the server's LIMIT_WEBHOOKS_PER_DATABASE): delete one first`,
        );
      }
      await tx.run(
        `INSERT INTO webhooks (id, database_id, url, events, collections, description, enabled, secret, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?)`,
        [id, databaseId, body.url, JSON.stringify(body.events ?? ['*']), JSON.stringify(body.collections ?? []), body.description ?? null, secret, now, now],
      );
    });
    return { ...(await this.get(databaseId, id)), secret };
  }

  async list(databaseId: string): Promise<Webhook[]> {
    const rows = await this.deps.store.all<WebhookRow>(`SELECT ${COLUMNS} FROM webhooks WHERE database_id = ? ORDER BY created_at, id`, [databaseId]);
    return rows.map(toWebhook);
  }

  async get(databaseId: string, id: string): Promise<Webhook> {
    return toWebhook(await this.row(this.deps.store, databaseId, id));
  }

  /** Changes any of url, events, collections, description, enabled. Enabling clears an automatic disable. */
  async update(databaseId: string, id: string, body: UpdateBody): Promise<Webhook> {
    await this.row(this.deps.store, databaseId, id);
    if (body.url !== undefined) await this.checkUrl(body.url);
    const sets: string[] = [];
    const params: Param[] = [];
    const set = (column: string, value: Param) => {
      sets.push(`${column} = ?`);
      params.push(value);
    };
    if (body.url !== undefined) set('url', body.url);
    if (body.events !== undefined) set('events', JSON.stringify(body.events));
    if (body.collections !== undefined) set('collections', JSON.stringify(body.collections));
    if (body.description !== undefined) set('description', body.description);
    if (body.enabled !== undefined) {
      set('enabled', body.enabled ? 1 : 0);
      if (body.enabled) sets.push('disabled_reason = NULL', 'failure_streak = 0', 'failing_since = NULL');
    }
    if (sets.length) {
      set('updated_at', this.now());
      await this.deps.store.run(`UPDATE webhooks SET ${sets.join(', ')} WHERE id = ? AND database_id = ?`, [...params, id, databaseId]);
    }
    // Held deliveries of a re-enabled webhook are due.
    if (body.enabled) this.deps.wake();
    return this.get(databaseId, id);
  }

  /** Deletes a webhook with its deliveries and their attempts. */
  async remove(databaseId: string, id: string): Promise<void> {
    const n = await this.deps.store.run('DELETE FROM webhooks WHERE id = ? AND database_id = ?', [id, databaseId]);
    if (n === 0) throw notFound(`Webhook '${id}' not found`);
  }

  /** A new secret: every later attempt, of pending deliveries too, is signed with it. */
  async rotateSecret(databaseId: string, id: string): Promise<{ id: string; secret: string }> {
    const secret = newSecret();
    const n = await this.deps.store.run('UPDATE webhooks SET secret = ?, updated_at = ? WHERE id = ? AND database_id = ?', [
      secret,
      this.now(),
      id,
      databaseId,
    ]);
    if (n === 0) throw notFound(`Webhook '${id}' not found`);
    return { id, secret };
  }

  /** Queues a `webhook.test` delivery. */
  async test(databaseId: string, id: string): Promise<Delivery> {
    await this.row(this.deps.store, databaseId, id);
    const eventId = newId();
    const timestamp = this.now();
    const payload = JSON.stringify({ id: eventId, type: 'webhook.test', timestamp, database: databaseId });
    const [deliveryId] = await insertDeliveries(this.deps.store, [{ webhookId: id, eventId, event: 'webhook.test', payload }], timestamp);
    this.deps.wake();
    return (await findDelivery(this.deps.store, id, deliveryId))!;
  }

  async deliveries(
    databaseId: string,
    id: string,
    q: { limit: number; offset: number; status?: DeliveryStatus },
  ): Promise<{ deliveries: Delivery[]; total: number }> {
    await this.row(this.deps.store, databaseId, id);
    return listDeliveries(this.deps.store, id, q);
  }

  async delivery(databaseId: string, id: string, deliveryId: string): Promise<Delivery & { attemptLog: AttemptLogEntry[] }> {
    await this.row(this.deps.store, databaseId, id);
    const d = await findDelivery(this.deps.store, id, deliveryId);
    if (!d) throw notFound(`Delivery '${deliveryId}' not found for webhook '${id}'`);
    return { ...d, attemptLog: await attemptLog(this.deps.store, deliveryId) };
  }

  /**
   * Queues a finished delivery again, due now, for a new series of up to WEBHOOK_MAX_ATTEMPTS
   * attempts (same delivery id, so receivers can still de-duplicate). 409 while it is pending.
   */
  async retry(databaseId: string, id: string, deliveryId: string): Promise<Delivery> {
    await this.row(this.deps.store, databaseId, id);
    const now = this.now();
    const n = await this.deps.store.run(
      "UPDATE webhook_deliveries SET status = 'pending', series_start = attempts, next_attempt_at = ? WHERE id = ? AND webhook_id = ? AND status <> 'pending'",
      [now, deliveryId, id],
    );
    const d = await findDelivery(this.deps.store, id, deliveryId);
    if (!d) throw notFound(`Delivery '${deliveryId}' not found for webhook '${id}'`);
    if (n === 0) throw new ApiError('conflict', `Delivery '${deliveryId}' is still pending`);
    this.deps.wake();
    return d;
  }

  /** The enabled webhooks of a database, with their filters (read before a write's serialised tail). */
  async enabledHooks(tx: Queryable, databaseId: string): Promise<HookFilter[]> {
    const hooks = await tx.all<{ id: string; events: string; collections: string }>(
      'SELECT id, events, collections FROM webhooks WHERE database_id = ? AND enabled = 1',
      [databaseId],
    );
    return hooks.map((h) => ({ id: h.id, events: JSON.parse(h.events) as string[], collections: JSON.parse(h.collections) as string[] }));
  }

  /**
   * The in-transaction part of document writes: one pending delivery per event and matching
   * enabled webhook, committed with the change. Returns how many it queued.
   */
  async enqueue(tx: Queryable, hooks: HookFilter[], events: ChangeEvent[]): Promise<number> {
    const items: NewDelivery[] = [];
    for (const e of events) {
      let payload: string | undefined;
      for (const h of hooks) {
        if (!matches(h.events, h.collections, e)) continue;
        payload ??= eventPayload(e);
        items.push({ webhookId: h.id, eventId: e.id, event: e.type, payload });
      }
    }
    if (items.length) await insertDeliveries(tx, items, this.now());
    return items.length;
  }
}
