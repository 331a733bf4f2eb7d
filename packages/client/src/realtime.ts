import { SvcError } from './errors.js';
import type { Http } from './http.js';
import type { UserSession } from './session.js';
import type { StoredSession } from './session-store.js';
import type { Doc, RealtimeToken } from './types.js';
import { messageText, resolveWebSocket, type WebSocketConstructor, type WebSocketLike } from './websocket.js';

/** A change in a subscribed collection (API.md §3). */
export interface RealtimeEvent<T extends object = Record<string, unknown>> {
  /** Decimal integer string, increasing in commit order within the database. */
  id: string;
  event: 'document.created' | 'document.updated' | 'document.deleted';
  collection: string;
  /** For `document.deleted`: the document as it was. */
  document: Doc<T>;
  timestamp: string;
}

/** `connecting` (first time), `open` (ready received), `reconnecting` (after a drop), `closed` (unsubscribed or a fatal error). */
export type RealtimeState = 'connecting' | 'open' | 'reconnecting' | 'closed';

/** What `onState` learns besides the state. */
export interface RealtimeStateInfo {
  /** Failed attempts since the last successful connection. */
  attempt: number;
  /** Why the previous connection or attempt ended, or (with `closed`) the fatal error. */
  error?: unknown;
  /** The id of the last event delivered (the resume point). */
  lastEventId?: string;
  /**
   * With `open`: the collections this socket will receive nothing from, because their `read` rule
   * refuses public keys, or needs a signed-in user and nobody is signed in. Sign in (the socket
   * moves to the new session by itself) or change the rules.
   */
  unreadable?: string[];
}

/** Options of `subscribe`. */
export interface SubscribeOptions {
  onState?: (state: RealtimeState, info: RealtimeStateInfo) => void;
  /**
   * The server could not replay everything since the last event (retention passed, or an unknown
   * id): events were missed. Reload what you display; the subscription itself goes on live.
   */
  onReset?: (reason: string) => void;
  /** Start after this event id (e.g. one saved before a page reload) instead of "from now". */
  after?: string;
}

/** Timing of reconnects and liveness checks (milliseconds). */
export interface RealtimeOptions {
  WebSocket?: WebSocketConstructor;
  /** First reconnect delay (default 250); doubled per failed attempt, with jitter. */
  reconnectInitialMs?: number;
  /** Longest reconnect delay (default 15000). */
  reconnectMaxMs?: number;
  /** A `ping` is sent after this long without a message (default 25000)… */
  pingIntervalMs?: number;
  /** …and the connection is dropped if nothing answers within this (default 10000). */
  pongTimeoutMs?: number;
}

/** A token is renewed when it expires within this margin. */
const TOKEN_MARGIN_MS = 60_000;

/** Token-request failures that retrying cannot fix (bad key, bad collection names). */
function isFatal(e: unknown): boolean {
  return e instanceof SvcError && e.status >= 400 && e.status < 500 && e.status !== 408 && e.status !== 429;
}

/** The socket close code of §10: its key was revoked, its token expired or its user's session ended. */
const CLOSE_UNAUTHORIZED = 4401;

/** A realtime token and the session token it was asked for with (null: nobody's). */
type HeldToken = RealtimeToken & { session: string | null };

/**
 * One subscription: its socket, its resume point and its reconnect loop. Every event is delivered
 * once and in order: after a drop it reconnects with `after=<last id>`, and ids at or below the
 * last delivered one are ignored.
 */
class Subscription<T extends object> {
  private lastId: bigint | undefined;
  private token: HeldToken | undefined;
  /** Bumped when the signed-in user changes: a connection attempt started before it starts over. */
  private sessionGeneration = 0;
  private stopWatchingSession: (() => void) | undefined;
  /** Whether the last token request carried a session. */
  private askedWithSession = false;
  private ws: WebSocketLike | undefined;
  private attempt = 0;
  private opened = false;
  private stopped = false;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private pingTimer: ReturnType<typeof setTimeout> | undefined;
  private lastState: RealtimeState | undefined;

  constructor(
    private readonly http: Http,
    /** The end user's session (public keys), whose token goes with every token request; none for a secret key. */
    private readonly session: UserSession | undefined,
    private readonly collections: string[],
    private readonly onEvent: (e: RealtimeEvent<T>) => void,
    private readonly opts: SubscribeOptions,
    private readonly cfg: RealtimeOptions,
  ) {
    if (opts.after !== undefined) this.lastId = BigInt(opts.after);
  }

  start(): void {
    this.stopWatchingSession = this.session?.onTokenChange(() => this.userChanged());
    void this.connect(undefined);
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.stopWatchingSession?.();
    clearTimeout(this.retryTimer);
    this.detach()?.close(1000, 'unsubscribed');
    this.state('closed');
  }

  private async connect(previousError: unknown): Promise<void> {
    if (this.stopped) return;
    this.state(this.opened ? 'reconnecting' : 'connecting', previousError);
    let ws: WebSocketLike;
    const generation = this.sessionGeneration;
    try {
      const token = await this.freshToken();
      const WS = await resolveWebSocket(this.cfg.WebSocket);
      if (this.stopped) return;
      if (generation !== this.sessionGeneration) return void this.connect(previousError); // a token for the new user
      ws = new WS(this.lastId === undefined ? token.url : `${token.url}&after=${this.lastId}`);
    } catch (e) {
      // A stale session was just forgotten (SIGNED_OUT): the next token is asked for without it.
      if (e instanceof SvcError && e.code === 'invalid_session' && this.askedWithSession) return this.retry(e);
      if (isFatal(e) || (e instanceof SvcError && e.code === 'websocket_unavailable')) return this.fail(e);
      return this.retry(e);
    }
    this.ws = ws;
    let ready = false;
    ws.onmessage = (m) => {
      this.armPing();
      this.onMessage(messageText(m.data), () => {
        ready = true;
      });
    };
    ws.onclose = (ev) => {
      this.detach();
      // Refused before `ready`, or closed because the token or its session ended: ask for a new one.
      if (!ready || ev.code === CLOSE_UNAUTHORIZED) this.token = undefined;
      this.retry(
        new SvcError({ status: 0, code: 'connection_closed', message: `Realtime connection closed (${ev.code}${ev.reason ? `: ${ev.reason}` : ''})` }),
      );
    };
    ws.onerror = () => undefined; // a close event always follows
  }

  private onMessage(text: string, markReady: () => void): void {
    let msg: { type?: string; id?: string; reason?: string; unreadable?: string[] };
    try {
      msg = JSON.parse(text) as typeof msg;
    } catch {
      return;
    }
    if (msg.type === 'ready') {
      markReady();
      this.opened = true;
      this.attempt = 0;
      this.state('open', undefined, Array.isArray(msg.unreadable) && msg.unreadable.length ? msg.unreadable : undefined);
    } else if (msg.type === 'event' && typeof msg.id === 'string') {
      const id = BigInt(msg.id);
      if (this.lastId !== undefined && id <= this.lastId) return;
      this.lastId = id;
      try {
        this.onEvent(msg as unknown as RealtimeEvent<T>);
      } catch (e) {
        queueMicrotask(() => {
          throw e;
        }); // the caller's bug; the feed goes on
      }
    } else if (msg.type === 'reset') {
      // The ids we hold mean nothing to the server any more; continue live from here.
      this.lastId = undefined;
      this.opts.onReset?.(msg.reason ?? 'reset');
    }
  }

  /** Browsers cannot see WebSocket pings, so liveness is checked with §3's ping/pong messages. */
  private armPing(): void {
    clearTimeout(this.pingTimer);
    const ws = this.ws;
    if (!ws || this.stopped) return;
    this.pingTimer = setTimeout(() => {
      try {
        ws.send(JSON.stringify({ type: 'ping' }));
      } catch {
        /* closing already */
      }
      this.pingTimer = setTimeout(() => {
        if (this.ws !== ws) return;
        this.detach();
        ws.close(4000, 'no pong');
        this.retry(new SvcError({ status: 0, code: 'connection_timeout', message: 'The realtime connection stopped answering' }));
      }, this.cfg.pongTimeoutMs ?? 10_000);
    }, this.cfg.pingIntervalMs ?? 25_000);
  }

  /**
   * The held token while it is valid for a while yet and belongs to the user signed in now; else a
   * new one, asked for with the current session (§10: the token then belongs to that user).
   */
  private async freshToken(): Promise<RealtimeToken> {
    const session: StoredSession | null = (await this.session?.get()) ?? null;
    const t = this.token;
    if (t && t.session === (session?.token ?? null) && Date.parse(t.expiresAt) - Date.now() > TOKEN_MARGIN_MS) return t;
    this.askedWithSession = session !== null;
    const req = { method: 'POST', path: '/realtime/token', body: { collections: this.collections } } as const;
    const token = this.session ? await this.session.sendWith<RealtimeToken>(session, req) : await this.http.send<RealtimeToken>(req);
    this.token = { ...token, session: session?.token ?? null };
    return this.token;
  }

  /** Another user signed in, or the user signed out: reconnect at once with a token for whoever is signed in now. */
  private userChanged(): void {
    this.sessionGeneration++;
    this.token = undefined;
    if (this.stopped || !this.ws) return; // an attempt under way or scheduled picks up the new session itself
    this.detach()?.close(1000, 'signed-in user changed');
    clearTimeout(this.retryTimer);
    this.attempt = 0;
    void this.connect(undefined);
  }

  /** Exponential backoff with jitter (half fixed, half random), so many clients don't reconnect in step. */
  private retry(error: unknown): void {
    if (this.stopped) return;
    const base = this.cfg.reconnectInitialMs ?? 250;
    const max = this.cfg.reconnectMaxMs ?? 15_000;
    const delay = Math.min(max, base * 2 ** Math.min(this.attempt, 20));
    this.attempt++;
    this.state(this.opened ? 'reconnecting' : 'connecting', error);
    this.retryTimer = setTimeout(() => void this.connect(error), delay / 2 + Math.random() * (delay / 2));
  }

  private fail(error: unknown): void {
    this.stopped = true;
    this.stopWatchingSession?.();
    this.state('closed', error);
  }

  /** Forgets the current socket (its late events are ignored) and returns it. */
  private detach(): WebSocketLike | undefined {
    clearTimeout(this.pingTimer);
    const ws = this.ws;
    this.ws = undefined;
    if (ws) ws.onmessage = ws.onclose = null;
    return ws;
  }

  private state(state: RealtimeState, error?: unknown, unreadable?: string[]): void {
    if (state === this.lastState) return;
    this.lastState = state;
    this.opts.onState?.(state, { attempt: this.attempt, error, lastEventId: this.lastId?.toString(), ...(unreadable ? { unreadable } : {}) });
  }
}

/** Realtime subscriptions (API.md §3). */
export class RealtimeService {
  /**
   * `session`: the end user's session for a public-key client (its token goes with every token
   * request, and a change of user renews the connection); undefined for a secret key.
   */
  constructor(
    private readonly http: Http,
    private readonly cfg: RealtimeOptions,
    private readonly session?: UserSession,
  ) {}

  /**
   * Listens to changes in `collections`. Fetches a token, connects, and keeps the feed going across
   * drops (reconnect with backoff and jitter, resume with `after`, renew an expired token), so every
   * event arrives exactly once and in order. Returns the function that ends the subscription.
   *
   * @example
   * const unsubscribe = client.realtime.subscribe(['posts'], (e) => console.log(e.event, e.document),
   *   { onState: (s) => setOnline(s === 'open') });
   */
  subscribe<T extends object = Record<string, unknown>>(
    collections: string[],
    onEvent: (event: RealtimeEvent<T>) => void,
    opts: SubscribeOptions = {},
  ): () => void {
    const sub = new Subscription<T>(this.http, this.session, collections, onEvent, opts, this.cfg);
    sub.start();
    return () => sub.stop();
  }
}
