/** The outcome of counting one request against a fixed window. */
export interface LimitResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the window resets. */
  resetSeconds: number;
}

/**
 * Counts requests per key in fixed one-minute windows. One implementation per deployment shape,
 * picked once from config: `local` (one process) or `redis` (shared by every instance).
 */
export interface Limiter {
  consume(key: string, limit: number): Promise<LimitResult>;
  close(): Promise<void>;
}
