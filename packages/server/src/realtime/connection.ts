import type { WebSocket } from 'ws';
import type { Store } from '../store/store.ts';
import { firstRetainedChangeId, lastChangeId, readChanges } from '../changes/read.ts';
import type { ChangeEvent } from '../changes/events.ts';
import type { FeedHub, FeedSubscriber } from './feed.ts';
import type { RealtimeGrant } from './tokens.ts';
import type { EventView, Viewer } from './visibility.ts';
import type { ViewSource } from './views.ts';
import type { UserFacts } from './user-facts.ts';
import { loadRules, resolveRule, ruleFor } from '../rules/rules.ts';

/** Close code for a client that reads too slowly; it may reconnect with `after=<last id>`. */
export const CLOSE_SLOW_CONSUMER = 4008;

/** Close code for a socket whose grant ended (key revoked, token expired, session ended): it needs a new token. */
export const CLOSE_GRANT_ENDED = 4401;

/** Live events held while a replay runs, at most. */
const MAX_HELD_EVENTS = 10_000;
const REPLAY_PAGE = 500;
const CLOSE_GRACE_MS = 30_000;

export interface ConnectionDeps {
  store: Store;
  hub: FeedHub;
  /** The views of replayed pages: the same rules code as live events (views.ts). */
  views: ViewSource;
  /** The facts of the users that sockets watch as. */
  facts: UserFacts;
  maxBufferBytes: number;
}

/**
 * One realtime socket: `ready`, then the replay after `after` (if asked), then live events, each
 * once and in id order.
 *
 * The seam: the connection joins the database's feed first and learns the id L after which the
 * feed will hand it every event; live events are held while the replay reads (after, L] from the
 * change log; then the held events follow. Every event is sent once because `lastSent` only grows.
 *
 * What each event shows this socket comes from the view of its batch (visibility.ts): under the
 * rules when the token was asked for with a public key (API.md §10), as is otherwise. Replays
 * build their views with the same ViewSource as the live feed.
 */
export class RealtimeConnection implements FeedSubscriber {
  /** Whom this socket watches as when rules apply to it; undefined for a secret key or an operator. */
  readonly viewer: Viewer | undefined;
  private lastSent = 0n;
  private held: Array<[ChangeEvent, EventView]> | undefined = [];
  private readonly collections: Set<string>;
  private unsubscribe: (() => void) | undefined;
  private releaseUser: (() => void) | undefined;
  private closed = false;

  constructor(
    private readonly ws: WebSocket,
    private readonly grant: RealtimeGrant,
    private readonly deps: ConnectionDeps,
  ) {
    this.collections = new Set(grant.collections);
    this.viewer = grant.subjectToRules ? { userId: grant.userId } : undefined;
    ws.on('close', () => this.stop());
    ws.on('message', (data, isBinary) => this.onMessage(data.toString(), isBinary));
  }

  async start(after: bigint | undefined): Promise<void> {
    // The user's facts are known before the first event can arrive: every view can read them at once.
    if (this.viewer?.userId !== undefined) {
      this.releaseUser = await this.deps.facts.hold(this.grant.databaseId, this.viewer.userId);
      if (this.closed) return this.stop();
    }
    const { lastId, unsubscribe } = await this.deps.hub.subscribe(this.grant.databaseId, this);
    this.unsubscribe = unsubscribe;
    if (this.closed) return this.stop();
    // `ready` only once the feed hands this socket every event after lastId: a write the client
    // makes after reading `ready` commits after lastId was read, so the client sees it.
    const unreadable = await this.unreadable();
    if (this.closed) return this.stop();
    this.sendJson({ type: 'ready', collections: this.grant.collections, ...(unreadable.length ? { unreadable } : {}) });
    this.lastSent = lastId;
    if (after !== undefined) await this.replay(after, lastId);
    const held = this.held ?? [];
    this.held = undefined;
    for (const [e, view] of held) this.deliver(e, view);
  }

  /**
   * The collections whose `read` rule lets this socket see nothing at all, whatever is written: the
   * rule is false or absent, or it needs a signed-in user and the token belongs to nobody. Said in
   * `ready`, so an app whose socket is open but will stay silent learns why. A filter
   * rule with a user may also match nothing; that depends on the documents, and is not said.
   */
  private async unreadable(): Promise<string[]> {
    if (!this.viewer) return [];
    const rules = await loadRules(this.deps.store, this.grant.databaseId);
    const signedOut = this.viewer.userId === undefined;
    return this.grant.collections.filter((c) => {
      const access = resolveRule(ruleFor(rules, c, 'read'), undefined);
      return access.kind === 'none' || (access.kind === 'session' && signedOut);
    });
  }

  /** Sends the retained events in (after, upTo], or `reset` when some of them are gone. */
  private async replay(after: bigint, upTo: bigint): Promise<void> {
    const { store } = this.deps;
    if (after > upTo) {
      // Ahead of this instance's feed: fine if the id exists (another instance saw it first).
      const committed = await lastChangeId(store, this.grant.databaseId);
      if (committed !== undefined && after <= committed) this.lastSent = after;
      else this.sendJson({ type: 'reset', reason: 'unknown event id: reload and reconnect without after' });
      return;
    }
    if (after === upTo) return;
    const first = await firstRetainedChangeId(store, this.grant.databaseId);
    if (first === undefined || first > after + 1n) {
      this.sendJson({ type: 'reset', reason: 'events after this id are no longer retained: reload and reconnect without after' });
      return;
    }
    let cursor = after;
    while (cursor < upTo && !this.closed) {
      const page = await readChanges(store, store.dialect, this.grant.databaseId, String(cursor), {
        limit: REPLAY_PAGE,
        upTo: String(upTo),
        collections: this.grant.collections,
      });
      const view = await this.deps.views.viewOf(this.grant.databaseId, page, this.viewer !== undefined);
      for (const e of page) {
        await this.drained();
        this.sendEvent(e, view);
      }
      if (page.length < REPLAY_PAGE) break;
      cursor = BigInt(page[page.length - 1].id);
    }
  }

  deliver(event: ChangeEvent, view: EventView): void {
    if (this.held) {
      this.held.push([event, view]);
      if (this.held.length > MAX_HELD_EVENTS) this.closeSlow();
      return;
    }
    const id = BigInt(event.id);
    if (id <= this.lastSent) return;
    if (this.collections.has(event.collection)) this.sendEvent(event, view);
    this.lastSent = id;
  }

  /** Sends what the view shows this socket of an event, if anything. */
  private sendEvent(e: ChangeEvent, view: EventView): void {
    const text = view.message(e, this.viewer);
    if (text !== undefined) this.sendText(text);
  }

  /**
   * Live messages are never queued behind a backlog: if what was sent before is still over the
   * limit, the client is not keeping up and is closed. One large message alone is fine.
   */
  private sendJson(message: object): void {
    this.sendText(JSON.stringify(message));
  }

  private sendText(text: string): void {
    if (this.closed) return;
    if (this.ws.bufferedAmount > this.deps.maxBufferBytes) {
      this.closeSlow();
      return;
    }
    this.ws.send(text);
  }

  /** The replay reads at the client's pace: it waits for the backlog to drain (a stalled client is cut after a grace period). */
  private async drained(): Promise<void> {
    const deadline = Date.now() + CLOSE_GRACE_MS;
    while (!this.closed && this.ws.bufferedAmount > this.deps.maxBufferBytes) {
      if (Date.now() > deadline) return this.closeSlow();
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  /** Closes the socket with a code and a reason (at most 123 bytes); nothing is sent after it. */
  end(code: number, reason: string): void {
    if (this.closed) return;
    this.stop();
    this.ws.close(code, reason);
  }

  /** Past the buffer limit the socket is closed rather than letting memory grow. */
  private closeSlow(): void {
    if (this.closed) return;
    this.ws.close(CLOSE_SLOW_CONSUMER, 'slow consumer: reconnect with after=<last event id>');
    this.stop();
    // The close frame waits behind the unsent data; a client that never reads gets cut after a grace period.
    setTimeout(() => this.ws.terminate(), CLOSE_GRACE_MS).unref();
  }

  private onMessage(text: string, isBinary: boolean): void {
    if (isBinary) return;
    let message: { type?: unknown };
    try {
      message = JSON.parse(text) as { type?: unknown };
    } catch {
      this.sendJson({ type: 'error', message: 'messages are JSON objects such as {"type":"ping"}' });
      return;
    }
    if (message?.type === 'ping') this.sendJson({ type: 'pong' });
  }

  private stop(): void {
    this.closed = true;
    this.held = undefined;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.releaseUser?.();
    this.releaseUser = undefined;
  }
}
