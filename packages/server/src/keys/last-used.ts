import type { Feature } from '../feature.ts';
import type { Jobs } from '../infra/jobs.ts';
import type { Clock } from '../infra/clock.ts';
import type { Store } from '../store/store.ts';

/** How often remembered uses are written (a listing may lag by up to this). */
const LAST_USED_FLUSH_MS = 30_000;

/**
 * Keeps `lastUsedAt` without a write per request: uses are remembered in memory and written in
 * one batch by `flush()`, which the app runs every LAST_USED_FLUSH_MS (a job) and at shutdown.
 */
export class LastUsedTracker {
  /** Key id → when it was last used (ms); formatted only when written, not on every request. */
  private pending = new Map<string, number>();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  touch(keyId: string): void {
    this.pending.set(keyId, this.clock.now());
  }

  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    await this.store.transaction(async (tx) => {
      for (const [id, at] of batch) await tx.run('UPDATE api_keys SET last_used_at = ? WHERE id = ?', [new Date(at).toISOString(), id]);
    });
  }
}

/** The last-used tracker as a feature: flushed by a job every LAST_USED_FLUSH_MS and once on close. */
export function createKeyUsage(deps: { store: Store; clock: Clock; jobs: Jobs }): Feature & { tracker: LastUsedTracker } {
  const tracker = new LastUsedTracker(deps.store, deps.clock);
  return {
    tracker,
    routes: () => undefined,
    start: () => deps.jobs.every('key last-used', LAST_USED_FLUSH_MS, () => tracker.flush()),
    stop: () => tracker.flush(),
  };
}
