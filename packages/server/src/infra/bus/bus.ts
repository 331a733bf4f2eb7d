import type { ChangeEvent } from '../../changes/events.ts';

/**
 * Fans committed changes out to every instance. One implementation per deployment shape, picked
 * once from config: `local` (one process) or `redis` (pub/sub shared by every instance).
 *
 * Delivery is best effort and may reorder across transactions; realtime does not rely on it for
 * correctness: it orders by event id and fills any gap from the change log (realtime/feed.ts).
 */
export interface Bus {
  publish(events: ChangeEvent[]): void;
  /** Hears every published batch, from this and every other instance. */
  subscribe(listener: (events: ChangeEvent[]) => void): void;
  /** Called after the bus reconnects, when messages may have been missed. */
  onReconnect(listener: () => void): void;
  close(): Promise<void>;
}
