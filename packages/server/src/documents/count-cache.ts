import type { Param } from '../store/store.ts';

/**
 * Totals of filtered lists, remembered until the database changes. A filtered `total` must count
 * the matching rows (tens of milliseconds at 100k documents); the key includes the database's
 * last event id, which every write bumps in its transaction, so a cached total is exact on every
 * instance without any invalidation message. Bounded: the oldest entries go first.
 */
export class CountCache {
  private readonly entries = new Map<string, number>();
  constructor(private readonly max = 2000) {}

  key(databaseId: string, lastEventId: string, where: string, params: Param[]): string {
    return `${databaseId}\u0000${lastEventId}\u0000${where}\u0000${JSON.stringify(params)}`;
  }

  get(key: string): number | undefined {
    return this.entries.get(key);
  }

  set(key: string, total: number): void {
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, total);
  }
}
