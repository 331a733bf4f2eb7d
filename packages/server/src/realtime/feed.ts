import type { Store } from '../store/store.ts';
import { lastChangeId, readChanges } from '../changes/read.ts';
import type { ChangeEvent } from '../changes/events.ts';
import { FULL_VIEW, type EventView, type Viewer } from './visibility.ts';

/** Something that receives a database's changes, in id order, each once. */
export interface FeedSubscriber {
  /** Whom a socket subject to rules watches as; absent: it sees every event as it happened. */
  readonly viewer?: Viewer;
  /** One event, with the view of its batch: what each socket is shown of it (visibility.ts). */
  deliver(event: ChangeEvent, view: EventView): void;
}

/**
 * Builds the view of a batch of a database's events (views.ts); `ruled`: some subscriber is
 * subject to rules. Synchronous when nothing needs reading, so such a batch is delivered at once.
 */
export type ViewOf = (databaseId: string, events: ChangeEvent[], ruled: boolean) => EventView | Promise<EventView>;

/** How long an out-of-order event waits for the ones before it before the gap is read from the log. */
const GAP_WAIT_MS = 50;
/** How long a batch whose view could not be built (the store failed) waits before it is tried again. */
const VIEW_RETRY_MS = 1000;

/**
 * One database's change stream on this instance, in id order without gaps or duplicates.
 *
 * The bus may reorder batches (two PostgreSQL transactions committing back to back can be
 * announced in either order) or, with Redis, drop them. Event ids are gap-free per database and
 * handed out in commit order (changes/append.ts), so the feed always knows the next id it
 * needs: later events wait in `pending`, and a gap that doesn't close by itself is read from the
 * change log, where every committed event is.
 *
 * Events in order then go through `queue`, where each batch gets its view (what the rules let each
 * socket see) before it is delivered; one batch at a time, so the order holds while a view is read.
 */
class DatabaseFeed {
  /** The last id delivered to subscribers; undefined until the feed read its starting point. */
  lastId: bigint | undefined;
  readonly ready: Promise<void>;
  readonly subscribers = new Set<FeedSubscriber>();
  /** Subscribers with a viewer (subject to rules): while there are none, no view needs reading. */
  ruled = 0;
  /** The last id put in order (queued or delivered). */
  private orderedId: bigint | undefined;
  private readonly pending = new Map<bigint, ChangeEvent>();
  /** In order, after `lastId`, waiting for their view. */
  private readonly queue: ChangeEvent[] = [];
  /** Set while a batch's view is being read (or waits to be read again): later batches wait behind it. */
  private viewing = false;
  private gapTimer: NodeJS.Timeout | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private filling = false;
  private closed = false;

  constructor(
    private readonly store: Store,
    readonly databaseId: string,
    private readonly viewOf: ViewOf,
    private readonly onError: (e: unknown) => void,
  ) {
    this.ready = lastChangeId(store, databaseId).then((last) => {
      this.lastId = this.orderedId = last ?? 0n;
      this.drain();
    });
  }

  accept(event: ChangeEvent): void {
    const id = BigInt(event.id);
    if (this.orderedId !== undefined && id <= this.orderedId) return;
    this.pending.set(id, event);
    if (this.orderedId !== undefined) this.drain();
  }

  private drain(): void {
    let next = this.orderedId! + 1n;
    for (let e = this.pending.get(next); e; e = this.pending.get(next)) {
      this.pending.delete(next);
      this.orderedId = next;
      this.queue.push(e);
      next += 1n;
    }
    for (const id of this.pending.keys()) if (id <= this.orderedId!) this.pending.delete(id);
    if (this.pending.size > 0 && !this.gapTimer) {
      this.gapTimer = setTimeout(() => {
        this.gapTimer = undefined;
        void this.catchUp();
      }, GAP_WAIT_MS);
    }
    this.flush();
  }

  /** Delivers the queued events, batch by batch, each with its view. */
  private flush(): void {
    while (!this.viewing && !this.closed && this.queue.length > 0) {
      const batch = this.queue.splice(0);
      const view = this.viewOf(this.databaseId, batch, this.ruled > 0);
      if (!(view instanceof Promise)) {
        this.deliver(batch, view);
        continue;
      }
      this.viewing = true;
      view.then(
        (v) => {
          this.viewing = false;
          this.deliver(batch, v);
          this.flush();
        },
        (e: unknown) => {
          // Nothing is delivered without knowing who may see it: the batch waits and is tried again.
          this.onError(e);
          this.queue.unshift(...batch);
          this.retryTimer = setTimeout(() => {
            this.retryTimer = undefined;
            this.viewing = false;
            this.flush();
          }, VIEW_RETRY_MS);
        },
      );
    }
  }

  private deliver(batch: ChangeEvent[], view: EventView): void {
    if (this.closed) return;
    for (const e of batch) {
      this.lastId = BigInt(e.id);
      for (const s of this.subscribers) s.deliver(e, view);
    }
  }

  /** Reads from the log every committed event after the last one put in order. */
  async catchUp(): Promise<void> {
    if (this.filling || this.orderedId === undefined) return;
    this.filling = true;
    try {
      for (;;) {
        const batch = await readChanges(this.store, this.store.dialect, this.databaseId, String(this.orderedId), { limit: 1000 });
        for (const e of batch) this.accept(e);
        if (batch.length < 1000) break;
      }
    } finally {
      this.filling = false;
    }
  }

  /** Catches up when the committed counter is ahead of what the bus brought (a dropped message). */
  async poll(): Promise<void> {
    if (this.orderedId === undefined) return;
    const committed = await lastChangeId(this.store, this.databaseId);
    if (committed !== undefined && committed > this.orderedId) await this.catchUp();
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.gapTimer);
    clearTimeout(this.retryTimer);
  }
}

/**
 * The feeds of every database that has subscribers on this instance. Fed by the bus; `pollAll`,
 * run every few seconds by the feature's jobs (and after a bus reconnect), makes a dropped bus
 * message cost latency, never an event.
 */
export class FeedHub {
  private readonly feeds = new Map<string, DatabaseFeed>();

  /**
   * @param onError hears a failed catch-up or view read (the feed goes on: it polls and retries)
   * @param viewOf builds each batch's view; by default every subscriber sees every event
   */
  constructor(
    private readonly store: Store,
    private readonly onError: (e: unknown) => void = () => undefined,
    private readonly viewOf: ViewOf = () => FULL_VIEW,
  ) {}

  /** Hands a batch from the bus to the feed of its database, if anyone listens there. */
  accept(events: ChangeEvent[]): void {
    for (const e of events) this.feeds.get(e.databaseId)?.accept(e);
  }

  /** Polls every feed; resolves when all of them are done (a failure goes to `onError`). */
  async pollAll(): Promise<void> {
    await Promise.all([...this.feeds.values()].map((feed) => feed.poll().catch(this.onError)));
  }

  /**
   * Adds a subscriber; resolves with the id after which it will receive every event. Everything
   * up to that id is in the change log (replay reads it from there).
   */
  async subscribe(databaseId: string, subscriber: FeedSubscriber): Promise<{ lastId: bigint; unsubscribe: () => void }> {
    let feed = this.feeds.get(databaseId);
    if (!feed) this.feeds.set(databaseId, (feed = new DatabaseFeed(this.store, databaseId, this.viewOf, this.onError)));
    try {
      await feed.ready;
    } catch (e) {
      // The store failed (an outage) before the feed knew where to start: drop it, so the next
      // subscriber starts a new one instead of awaiting this failure forever.
      if (this.feeds.get(databaseId) === feed) this.feeds.delete(databaseId);
      throw e;
    }
    const current = this.feeds.get(databaseId);
    if (current && current !== feed) return this.subscribe(databaseId, subscriber);
    if (!current) this.feeds.set(databaseId, feed); // the last subscriber left while we waited
    // No await between reading lastId and joining: nothing can be delivered in between.
    const f = feed;
    f.subscribers.add(subscriber);
    if (subscriber.viewer) f.ruled += 1;
    return {
      lastId: f.lastId!,
      unsubscribe: () => {
        if (!f.subscribers.delete(subscriber)) return;
        if (subscriber.viewer) f.ruled -= 1;
        if (f.subscribers.size === 0 && this.feeds.get(databaseId) === f) {
          f.close();
          this.feeds.delete(databaseId);
        }
      },
    };
  }

  close(): void {
    for (const f of this.feeds.values()) f.close();
    this.feeds.clear();
  }
}
