import type { Invalidation } from './invalidation.ts';

/**
 * No cache: every lookup goes to the store, so a revocation, from this process or another, holds
 * from the next request on. For a process that serves no requests (the `svc` CLI).
 */
export function uncached(): Invalidation {
  return {
    current: () => false,
    epoch: 0,
    subscribe: () => undefined,
    barrier: async () => undefined,
    start: async () => undefined,
    maintain: async () => undefined,
    close: async () => undefined,
  };
}
