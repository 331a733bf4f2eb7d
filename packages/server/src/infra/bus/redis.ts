import type { ChangeEvent } from '../../changes/events.ts';
import type { Bus } from './bus.ts';
import { closeRedis, redisClient } from '../redis.ts';

const CHANNEL = 'svc:changes';

/**
 * Redis pub/sub between instances. Every instance, the publisher included, hears each batch
 * through Redis, so all instances see the same stream. Pub/sub drops messages while a
 * connection is down; `onReconnect` listeners then catch up from the change log.
 *
 * Redis going away never blocks or fails a write: a publish is fire-and-forget on a client that
 * queues nothing and times out (infra/redis.ts), and realtime reads the change log on its own poll
 * until messages flow again.
 */
export function redisBus(url: string): Bus {
  const pub = redisClient(url);
  const sub = redisClient(url);
  const listeners: Array<(events: ChangeEvent[]) => void> = [];
  const reconnectListeners: Array<() => void> = [];
  let connectedBefore = false;
  sub.on('ready', () => {
    const reconnected = connectedBefore;
    connectedBefore = true;
    // Subscribes on every new connection: the client queues no commands, so one sent while
    // Redis was away would be lost. A failed SUBSCRIBE drops the connection (socket time-out)
    // and the next 'ready' tries again.
    sub.subscribe(CHANNEL).then(
      () => {
        if (reconnected) for (const l of reconnectListeners) l();
      },
      () => undefined,
    );
  });
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
      await Promise.all([closeRedis(sub), closeRedis(pub)]);
    },
  };
}
