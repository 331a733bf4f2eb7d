import type { CallOptions, Http } from './http.js';
import type {
  CreatedWebhook,
  CreateWebhookParams,
  DeliveriesParams,
  Delivery,
  DeliveryDetail,
  DeliveryList,
  UpdateWebhookParams,
  Webhook,
  WebhookSecret,
} from './types.js';

/**
 * Webhook management (API.md §4). Needs a SECRET key: use it on servers only, never in a browser.
 *
 * @example
 * const hook = await client.webhooks.create({ url: 'https://example.com/hook', events: ['document.created'] });
 * saveSecret(hook.secret); // shown only now and by rotateSecret
 */
export class WebhooksService {
  constructor(private readonly http: Http) {}

  async list(opts?: CallOptions): Promise<Webhook[]> {
    const r = await this.http.send<{ webhooks: Webhook[] }>({ method: 'GET', path: '/webhooks', signal: opts?.signal });
    return r.webhooks;
  }

  get(id: string, opts?: CallOptions): Promise<Webhook> {
    return this.http.send({ method: 'GET', path: this.path(id), signal: opts?.signal });
  }

  /** Creates a webhook; the answer carries its signing `secret` (shown only here and by rotateSecret). */
  create(params: CreateWebhookParams, opts?: CallOptions): Promise<CreatedWebhook> {
    return this.http.send({ method: 'POST', path: '/webhooks', body: params, signal: opts?.signal });
  }

  /** Changes any of `url`, `events`, `collections`, `description`, `enabled`. */
  update(id: string, params: UpdateWebhookParams, opts?: CallOptions): Promise<Webhook> {
    return this.http.send({ method: 'PATCH', path: this.path(id), body: params, signal: opts?.signal });
  }

  async delete(id: string, opts?: CallOptions): Promise<void> {
    await this.http.send({ method: 'DELETE', path: this.path(id), signal: opts?.signal });
  }

  /** A new signing secret; later attempts are signed with it. */
  rotateSecret(id: string, opts?: CallOptions): Promise<WebhookSecret> {
    return this.http.send({ method: 'POST', path: `${this.path(id)}/rotate-secret`, signal: opts?.signal });
  }

  /** Sends a `webhook.test` event; answers the queued delivery. */
  async test(id: string, opts?: CallOptions): Promise<Delivery> {
    const r = await this.http.send<{ delivery: Delivery }>({ method: 'POST', path: `${this.path(id)}/test`, signal: opts?.signal });
    return r.delivery;
  }

  /** Deliveries of a webhook, newest first: `{ deliveries, total }`. */
  deliveries(id: string, params: DeliveriesParams = {}, opts?: CallOptions): Promise<DeliveryList> {
    return this.http.send({ method: 'GET', path: `${this.path(id)}/deliveries`, query: { ...params }, signal: opts?.signal });
  }

  /** One delivery with its `attemptLog`. */
  delivery(id: string, deliveryId: string, opts?: CallOptions): Promise<DeliveryDetail> {
    return this.http.send({ method: 'GET', path: `${this.path(id)}/deliveries/${encodeURIComponent(deliveryId)}`, signal: opts?.signal });
  }

  /** Queues a new attempt of a finished delivery; 409 `conflict` while one is pending. */
  async retry(id: string, deliveryId: string, opts?: CallOptions): Promise<Delivery> {
    const r = await this.http.send<{ delivery: Delivery }>({
      method: 'POST',
      path: `${this.path(id)}/deliveries/${encodeURIComponent(deliveryId)}/retry`,
      signal: opts?.signal,
    });
    return r.delivery;
  }

  private path(id: string): string {
    return `/webhooks/${encodeURIComponent(id)}`;
  }
}
