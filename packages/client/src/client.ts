import { AuthService } from './auth.js';
import { CollectionService } from './collection.js';
import { FilesService } from './files.js';
import { Http, type CallOptions, type FetchLike, type RetryOptions, type Sender, type WriteOptions } from './http.js';
import { RealtimeService, type RealtimeOptions } from './realtime.js';
import { RulesService } from './rules.js';
import { UsersService } from './users.js';
import { UserSession } from './session.js';
import { defaultSessionStore, type SessionStore } from './session-store.js';
import type { BatchOperation, BatchResult, CollectionInfo } from './types.js';
import { WebhooksService } from './webhooks.js';
import type { WebSocketConstructor } from './websocket.js';

/** Options of `createClient`. */
export interface ClientOptions {
  /** The server, e.g. `http://localhost:8700` (a trailing `/v1` is fine too). */
  url: string;
  /**
   * An API key: `svc_pk_…` (public: browsers; documents as the database's rules allow the signed-in
   * user) or `svc_sk_…` (secret: servers only; not subject to rules).
   */
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

/** An svc client: `collection()`, `auth`, `realtime`, `rules`, `users`, `webhooks`. Create it with `createClient`. */
export class SvcClient {
  /** End-user accounts (§2). */
  readonly auth: AuthService;
  /** Realtime subscriptions (§3). */
  readonly realtime: RealtimeService;
  /** Access rules (§10): secret key, server side. */
  readonly rules: RulesService;
  /** Webhook management (§4): secret key, server side. */
  readonly webhooks: WebhooksService;
  /** The app's users (§2.1): list, change (appMetadata, disabled, …), delete; secret key, server side. */
  readonly users: UsersService;
  private readonly http: Http;
  /** How document calls are sent: as the signed-in user with a public key, with the key alone with a secret one. */
  private readonly documents: Sender;

  constructor(opts: ClientOptions) {
    const fetchFn = opts.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.http = new Http(opts.url, opts.key, fetchFn, opts.retry);
    const session = new UserSession(this.http, opts.sessionStore ?? defaultSessionStore());
    // Rules bind only public keys (§10), so only they send the user's session on documents and
    // realtime: a secret-key backend that also signs users in keeps acting with its key alone, and
    // a stale session can never fail (or sign out) one of its calls.
    const asUser = !opts.key.startsWith('svc_sk_');
    this.documents = asUser ? session : this.http;
    this.auth = new AuthService(this.http, session, opts.key);
    this.realtime = new RealtimeService(this.http, { ...opts.realtime, WebSocket: opts.WebSocket }, asUser ? session : undefined);
    this.rules = new RulesService(this.http);
    this.webhooks = new WebhooksService(this.http);
    this.users = new UsersService(this.http);
  }

  /** `http(s)://host:port/v1` */
  get baseUrl(): string {
    return this.http.baseUrl;
  }

  /** The documents of a collection, typed with your document shape. */
  collection<T extends object = Record<string, unknown>>(name: string): CollectionService<T> {
    return new CollectionService<T>(this.documents, name, this.realtime);
  }

  /**
   * Applies up to 100 operations in order, in one transaction, all or nothing (API.md §1.2);
   * later operations see earlier ones. A failing operation rejects with its SvcError, whose
   * `details[0].path` is `operations.<index>`. Sent with an Idempotency-Key.
   *
   * @example
   * await svc.batch([
   *   { op: 'check', collection: 'stock', id: 'sku-1', ifMatch: version },
   *   { op: 'update', collection: 'stock', id: 'sku-1', patch: { $inc: { left: -1 } } },
   *   { op: 'create', collection: 'orders', document: { sku: 'sku-1' } },
   * ]);
   */
  async batch(operations: BatchOperation[], opts?: WriteOptions): Promise<BatchResult[]> {
    const r = await this.documents.send<{ results: BatchResult[] }>({
      method: 'POST',
      path: '/batch',
      body: { operations },
      signal: opts?.signal,
      idempotent: opts?.idempotencyKey ? { key: opts.idempotencyKey } : true,
    });
    return r.results;
  }

  /** The files of a bucket (§12): upload, list, get, url, download, update, remove. */
  files(bucket: string): FilesService {
    return new FilesService(this.documents, bucket);
  }

  /** Every collection of the database with its document count (with a public key: those whose `read` rule is `true`). */
  async collections(opts?: CallOptions): Promise<CollectionInfo[]> {
    const r = await this.documents.send<{ collections: CollectionInfo[] }>({ method: 'GET', path: '/collections', signal: opts?.signal });
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
