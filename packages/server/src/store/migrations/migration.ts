import type { Dialect } from '../store.ts';

/**
 * One numbered migration, applied once at start on both dialects (apply.ts). Each lives in its
 * own file, `NNNN-<name>.ts` (NNNN = its version), listed in index.ts. Never edit one that has
 * shipped: add the next number. `statements` returns its statements for the dialect at hand.
 *
 * Timestamps are stored as ISO 8601 text with milliseconds (`2026-11-22T10:00:00.000Z`): the
 * exact strings the API returns, ordered the same way by both engines.
 */
export interface Migration {
  version: number;
  name: string;
  statements(d: Dialect): string[];
}
