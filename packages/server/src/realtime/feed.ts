import type { Store } from '../store/store.ts';
import { lastChangeId, readChanges } from '../changes/read.ts';
import type { ChangeEvent } from '../changes/events.ts';

/** Something that receives a database's changes, in id order, each once. */
export interface FeedSubscriber {
  deliver(event: ChangeEvent): void;
}

/** How long an out-of-order event waits for the ones before it before the gap is read from the log. */
const GAP_WAIT_MS = 50;

/**
 * One database's change stream on this instance, in id order without gaps or duplicates.
 *
 * The bus may reorder batches (two PostgreSQL transactions committing back to back can be
 * announced in either order) or, with Redis, drop them. Event ids are gap-free per database and
 * handed out in commit order (changes/append.ts), so the feed always knows the next id it
 * needs: later events wait in `pending`, and a gap that doesn't close by itself is read from the
 * change log, where every committed event is.
 */
class DatabaseFeed {
  /** The last id delivered to subscribers; undefined until the feed read its starting point. */
  lastId: bigint | undefined;
  readonly ready: Promise<void>;
  readonly subscribers = new Set<FeedSubscriber>();
  private readonly pending = new Map<bigint, ChangeEvent>();
  private gapTimer: NodeJS.Timeout | undefined;
  private filling = false;

  constructor(private readonly store: Store, readonly databaseId: string) {
    this.ready = lastChangeId(store, databaseId).then((last) => {
      this.lastId = last ?? 0n;
      this.drain();
    });
  }

  accept(event: ChangeEvent): void {
    const id = BigInt(event.id);
    if (this.lastId !== undefined && id <= this.lastId) return;
    this.pending.set(id, event);
    if (this.lastId !== undefined) this.drain();
  }

  private drain(): void {
    const last = this.lastId!;
    let next = last + 1n;
    for (let e = this.pending.get(next); e; e = this.pending.get(next)) {
      this.pending.delete(next);
      this.lastId = next;
      for (const s of this.subscribers) s.deliver(e);
      next += 1n;
    }
    for (const id of this.pending.keys()) if (id <= this.lastId!) this.pending.delete(id);
    if (this.pending.size > 0 && !this.gapTimer) {
      this.gapTimer = setTimeout(() => {
        this.gapTimer = undefined;
        void this.catchUp();
      }, GAP_WAIT_MS);
    }
  }

  /** Reads from the log every committed event after the last delivered one. */
  async catchUp(): Promise<void> {
    if (this.filling || this.lastId === undefined) return;
    this.filling = true;
    try {
      for (;;) {
        const batch = await readChanges(this.store, this.store.dialect, this.databaseId, String(this.lastId), { limit: 1000 });
        for (const e of batch) this.accept(e);
        if (batch.length < 1000) break;
      }
    } finally {
      this.filling = false;
    }
  }

  /** Catches up when the committed counter is ahead of what the bus brought (a dropped message). */
  async poll(): Promise<void> {
    if (this.lastId === undefined) return;
    const committed = await lastChangeId(this.store, this.databaseId);
    if (committed !== undefined && committed > this.lastId) await this.catchUp();
  }

  close(): void {
    clearTimeout(this.gapTimer);
  }
}

/**
 * The feeds of every database that has subscribers on this instance. Fed by the bus; `pollAll`,
 * run every few seconds by the feature's jobs (and after a bus reconnect), makes a dropped bus
 * message cost latency, never an event.
 */
export class FeedHub {
  private readonly feeds = new Map<string, DatabaseFeed>();

  constructor(private readonly store: Store, private readonly onError: (e: unknown) => void = () => undefined) {}

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
    if (!feed) this.feeds.set(databaseId, (feed = new DatabaseFeed(this.store, databaseId)));
    await feed.ready;
    const current = this.feeds.get(databaseId);
    if (current && current !== feed) return this.subscribe(databaseId, subscriber);
    if (!current) this.feeds.set(databaseId, feed); // the last subscriber left while we waited
    // No await between reading lastId and joining: nothing can be delivered in between.
    const f = feed;
    f.subscribers.add(subscriber);
    return {
      lastId: f.lastId!,
      unsubscribe: () => {
        f.subscribers.delete(subscriber);
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
