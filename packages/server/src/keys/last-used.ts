import type { Store } from '../store/store.ts';

/**
 * Keeps `lastUsedAt` without a write per request: uses are remembered in memory and written in
 * one batch every `intervalMs` (and at shutdown). A listing may lag by up to that interval.
 */
export class LastUsedTracker {
  private pending = new Map<string, string>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly store: Store, intervalMs = 30_000) {
    this.timer = setInterval(() => void this.flush().catch(() => undefined), intervalMs);
    this.timer.unref();
  }

  touch(keyId: string): void {
    this.pending.set(keyId, new Date().toISOString());
  }

  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    await this.store.transaction(async (tx) => {
      for (const [id, at] of batch) await tx.run('UPDATE api_keys SET last_used_at = ? WHERE id = ?', [at, id]);
    });
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
