import { Redis } from 'ioredis';

/** How long one Redis command may go unanswered before svc gives up on it and on its connection. */
const REDIS_TIMEOUT_MS = 1000;

/**
 * A Redis client that never makes a request wait on a Redis that is away:
 * - enableOfflineQueue false: while disconnected a command fails at once instead of waiting in
 *   a queue (an outage would otherwise pile every command up in memory and replay them later);
 * - maxRetriesPerRequest 0: a command in flight when the connection drops fails at once;
 * - commandTimeout: a command a frozen server never answers fails after REDIS_TIMEOUT_MS,
 *   and socketTimeout then drops that connection, so the next commands fail fast instead of
 *   each waiting out the time-out, until a new connection is ready.
 * It reconnects forever, on ioredis's default backoff (at most 2 s apart).
 */
export function redisClient(url: string): Redis {
  const client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: REDIS_TIMEOUT_MS,
    socketTimeout: REDIS_TIMEOUT_MS,
    connectTimeout: REDIS_TIMEOUT_MS * 3,
    keepAlive: 10_000,
    // A subscriber re-subscribes itself on each 'ready' (bus/redis.ts); nothing else uses it.
    autoResubscribe: false,
  });
  // Connection errors are expected during an outage; RedisHealth reports them once, not per attempt.
  client.on('error', () => undefined);
  return client;
}

/** Whether Redis is there, for /ready and for the once-per-change log lines. */
export interface RedisHealth {
  /** Resolves true when Redis answers a PING now (within REDIS_TIMEOUT_MS), else false. */
  check(): Promise<boolean>;
  /**
   * Hears each change: `false` once when Redis goes away (or was unreachable from the start),
   * `true` once when it is back; never once per failed request or reconnection attempt. A
   * listener added while Redis is away hears `false` at once.
   */
  onChange(listener: (up: boolean) => void): void;
  /**
   * Resolves once the first connection attempt has ended, connected or not (a few seconds at
   * most), so an instance that starts while Redis is up counts in Redis from its first request.
   */
  readonly settled: Promise<void>;
}

/** Watches a client's connection; `close()` quits it without reporting the quit as an outage. */
export function watchRedis(client: Redis): RedisHealth & { close(): Promise<void> } {
  let state: 'starting' | 'up' | 'down' | 'closed' = 'starting';
  const listeners: Array<(up: boolean) => void> = [];
  let settle!: () => void;
  const settled = new Promise<void>((resolve) => (settle = resolve));
  const become = (next: 'up' | 'down') => {
    settle();
    if (state === 'closed' || state === next) return;
    const announce = state !== 'starting' || next === 'down';
    state = next;
    if (announce) for (const l of listeners) l(next === 'up');
  };
  client.on('ready', () => become('up'));
  client.on('close', () => become('down'));
  return {
    settled,
    async check() {
      if (client.status !== 'ready') return false;
      return client.ping().then(
        () => true,
        () => false,
      );
    },
    onChange(listener) {
      listeners.push(listener);
      if (state === 'down') listener(false);
    },
    async close() {
      state = 'closed';
      settle();
      await closeRedis(client);
    },
  };
}

/** Quits a client, also while Redis is away: QUIT needs a live connection (and waits at most REDIS_TIMEOUT_MS); disconnect stops the reconnecting. */
export async function closeRedis(client: Redis): Promise<void> {
  await client.quit().catch(() => undefined);
  client.disconnect();
}
