import { filterPaths, parseFilter } from '@svc/filter';
import { isObject } from '../json/merge-patch.ts';
import type { Rules } from '../rules/types.ts';
import type { Store } from '../store/store.ts';
import type { AutoIndexer } from './indexes.ts';

/**
 * The fields a database's read rules filter on ask for their automatic indexes when the rules are
 * saved: every public-key list under such a rule filters on them, in the default
 * order, and they are chosen by whoever holds the secret key, so they may spend the database's
 * budget. (A public key's own filters and sorts never count as asks: anyone may send them.)
 */

const indexers = new Set<{ store: Store; indexer: AutoIndexer }>();

/** Registers the indexer of this process's documents feature on `store`; returns how to unregister it. */
export function hearRuleSaves(store: Store, indexer: AutoIndexer): () => void {
  const entry = { store, indexer };
  indexers.add(entry);
  return () => indexers.delete(entry);
}

/** The field paths a rule's filter names at its top (its `$auth` operands stand for any scalar). */
function ruleFilterPaths(rule: unknown): string[][] {
  if (!isObject(rule)) return [];
  try {
    return filterPaths(parseFilter(rule, { auth: () => '' }));
  } catch {
    return []; // validated when written: nothing to ask for if it no longer parses
  }
}

/**
 * After `rules` (the stored JSON text) of a database committed: asks for the indexes of the fields
 * its read rules filter on, in every collection they cover (`"*"`: those that hold documents and
 * have no rules of their own). Never throws: the builds are in the background.
 */
export function rulesSaved(store: Store, databaseId: string, rulesText: string): void {
  for (const entry of indexers) {
    if (entry.store !== store) continue;
    void askFor(entry, databaseId, JSON.parse(rulesText) as Rules).catch(() => undefined);
  }
}

async function askFor({ store, indexer }: { store: Store; indexer: AutoIndexer }, databaseId: string, rules: Rules): Promise<void> {
  const asks = new Map<string, string[][]>();
  for (const [collection, entry] of Object.entries(rules)) {
    if (collection !== '*') asks.set(collection, ruleFilterPaths(entry.read));
  }
  const wildcard = ruleFilterPaths(rules['*']?.read);
  if (wildcard.length) {
    const collections = await store.all<{ name: string }>('SELECT name FROM collections WHERE database_id = ? AND count > 0', [databaseId]);
    for (const { name } of collections) if (!asks.has(name)) asks.set(name, wildcard);
  }
  for (const [collection, filter] of asks) {
    if (filter.length) await indexer.ensure(databaseId, collection, { filter, byCreatedAt: true }, { asked: true });
  }
}
