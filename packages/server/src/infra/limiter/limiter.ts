import type { RedisHealth } from '../redis.ts';

/** The outcome of counting one request against a fixed window. */
export interface LimitResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the window resets. */
  resetSeconds: number;
}

/**
 * Counts requests per key in fixed windows (one minute unless told otherwise). One implementation
 * per deployment shape, picked once from config: `local` (one process) or `redis` (shared by every
 * instance).
 */
export interface Limiter {
  /** Counts one request against `limit` per `windowSeconds` (default 60) for `key` (the local limiter answers synchronously). */
  consume(key: string, limit: number, windowSeconds?: number): LimitResult | Promise<LimitResult>;
  /**
   * Gives back one request counted by `consume` with the same arguments, in the current window (an
   * attempt reserved up front that turned out not to count, e.g. a sign-in with the right password).
   */
  refund(key: string, limit: number, windowSeconds?: number): void | Promise<void>;
  /** The shared backend's health (Redis), for /ready and the log; absent when counting is local anyway. */
  readonly health?: RedisHealth;
  close(): Promise<void>;
}
