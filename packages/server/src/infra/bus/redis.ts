import { Redis } from 'ioredis';
import type { ChangeEvent } from '../../changes/events.ts';
import type { Bus } from './bus.ts';

const CHANNEL = 'svc:changes';

/**
 * Redis pub/sub between instances. Every instance, the publisher included, hears each batch
 * through Redis, so all instances see the same stream. Pub/sub drops messages while a
 * connection is down; `onReconnect` listeners then catch up from the change log.
 */
export function redisBus(url: string): Bus {
  const pub = new Redis(url, { maxRetriesPerRequest: null });
  const sub = new Redis(url, { maxRetriesPerRequest: null });
  pub.on('error', () => undefined);
  sub.on('error', () => undefined);
  const listeners: Array<(events: ChangeEvent[]) => void> = [];
  const reconnectListeners: Array<() => void> = [];
  let subscribedOnce = false;
  sub.on('ready', () => {
    if (subscribedOnce) for (const l of reconnectListeners) l();
    subscribedOnce = true;
  });
  void sub.subscribe(CHANNEL).catch(() => undefined);
  sub.on('message', (_channel: string, message: string) => {
    let events: ChangeEvent[];
    try {
      events = JSON.parse(message) as ChangeEvent[];
    } catch {
      return;
    }
    for (const l of listeners) l(events);
  });
  return {
    publish: (events) => void pub.publish(CHANNEL, JSON.stringify(events)).catch(() => undefined),
    subscribe: (l) => void listeners.push(l),
    onReconnect: (l) => void reconnectListeners.push(l),
    close: async () => {
      await Promise.all([sub.quit().catch(() => undefined), pub.quit().catch(() => undefined)]);
    },
  };
}
