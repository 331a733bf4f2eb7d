import { LRUCache } from 'lru-cache';
import type { Param } from '../store/store.ts';

/**
 * Totals of filtered lists, remembered until the database changes. A filtered `total` must count
 * the matching rows (tens of milliseconds at 100k documents); the key includes the database's
 * last event id, which every write bumps in its transaction, so a cached total is exact on every
 * instance without any invalidation message. Bounded: the least recently used go first.
 */
export class CountCache {
  private readonly entries: LRUCache<string, number>;
  constructor(max = 2000) {
    this.entries = new LRUCache({ max });
  }

  key(databaseId: string, lastEventId: string, where: string, params: readonly Param[]): string {
    return `${databaseId}\u0000${lastEventId}\u0000${where}\u0000${JSON.stringify(params)}`;
  }

  get(key: string): number | undefined {
    return this.entries.get(key);
  }

  set(key: string, total: number): void {
    this.entries.set(key, total);
  }
}
