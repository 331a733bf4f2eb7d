import { AuthService } from './auth.js';
import { CollectionService } from './collection.js';
import { Http, type CallOptions, type FetchLike, type RetryOptions } from './http.js';
import { RealtimeService, type RealtimeOptions } from './realtime.js';
import { defaultSessionStore, type SessionStore } from './session-store.js';
import type { CollectionInfo } from './types.js';
import { WebhooksService } from './webhooks.js';
import type { WebSocketConstructor } from './websocket.js';

/** Options of `createClient`. */
export interface ClientOptions {
  /** The server, e.g. `http://localhost:8700` (a trailing `/v1` is fine too). */
  url: string;
  /** An API key: `svc_pk_…` (public: browsers, read-only documents) or `svc_sk_…` (secret: servers only). */
  key: string;
  /** Where the end user's session lives (default: localStorage in browsers, memory elsewhere). */
  sessionStore?: SessionStore;
  /** The fetch to use (default: the global one). */
  fetch?: FetchLike;
  /** The WebSocket class for realtime (default: the global one, or the `ws` package in Node 20). */
  WebSocket?: WebSocketConstructor;
  /** How 429 answers are retried. */
  retry?: RetryOptions;
  /** Reconnect and liveness timing of realtime subscriptions. */
  realtime?: Omit<RealtimeOptions, 'WebSocket'>;
}

/** An svc client: `collection()`, `auth`, `realtime`, `webhooks`. Create it with `createClient`. */
export class SvcClient {
  /** End-user accounts (§2). */
  readonly auth: AuthService;
  /** Realtime subscriptions (§3). */
  readonly realtime: RealtimeService;
  /** Webhook management (§4): secret key, server side. */
  readonly webhooks: WebhooksService;
  private readonly http: Http;

  constructor(opts: ClientOptions) {
    const fetchFn = opts.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.http = new Http(opts.url, opts.key, fetchFn, opts.retry);
    this.auth = new AuthService(this.http, opts.sessionStore ?? defaultSessionStore(), opts.key);
    this.realtime = new RealtimeService(this.http, { ...opts.realtime, WebSocket: opts.WebSocket });
    this.webhooks = new WebhooksService(this.http);
  }

  /** `http(s)://host:port/v1` */
  get baseUrl(): string {
    return this.http.baseUrl;
  }

  /** The documents of a collection, typed with your document shape. */
  collection<T extends object = Record<string, unknown>>(name: string): CollectionService<T> {
    return new CollectionService<T>(this.http, name);
  }

  /** Every collection of the database with its document count. */
  async collections(opts?: CallOptions): Promise<CollectionInfo[]> {
    const r = await this.http.send<{ collections: CollectionInfo[] }>({ method: 'GET', path: '/collections', signal: opts?.signal });
    return r.collections;
  }
}

/**
 * Creates a client.
 *
 * @example
 * import { createClient } from '@svc/client';
 * const svc = createClient({ url: 'http://localhost:8700', key: 'svc_pk_…' });
 */
export function createClient(opts: ClientOptions): SvcClient {
  return new SvcClient(opts);
}
