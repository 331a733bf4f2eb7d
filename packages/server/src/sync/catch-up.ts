import type { ChangeEvent } from '../changes/events.ts';
import type { Matcher } from '../rules/rules.ts';
import type { Document } from '../rules/matcher.ts';

/** One change of a sync answer (API.md §3.1), its document already as JSON text. */
export interface SyncChange {
  op: 'upsert' | 'delete';
  id: string;
  version: string;
  /** Upserts only: the document as JSON text. */
  document?: string;
  /** The event id this change is as of (its latest event). */
  at: bigint;
}

/** A document's events since the origin, folded: its latest event, and whether any state of it was in view. */
interface Folded {
  latest: ChangeEvent;
  seen: boolean;
}

/**
 * Folds the events of one collection after a checkpoint's origin (in event order) into one change
 * per document (API.md §3.1 catch-up), in the order of each document's latest event, keeping only
 * those whose latest event is after `pos` (what earlier answers of the same catch-up did not yet
 * carry). Every state a document had since the origin is in an event: the state at the origin is
 * the `previous` of its first update or the `document` of its delete, later ones the `document` of
 * its creates and updates. `inView` is the caller's view now (rules as they are, which a reset
 * guarantees have not changed since the checkpoint, and the filter).
 */
export function fold(events: ChangeEvent[], pos: bigint, inView: Matcher): SyncChange[] {
  const byId = new Map<string, Folded>();
  for (const e of events) {
    const id = e.document.id as string;
    const states = e.previous ? [e.previous, e.document] : [e.document];
    const seen = states.some((s) => inView(s as Document));
    const known = byId.get(id);
    // Deleting and re-inserting keeps insertion order in a Map: the order of the latest events.
    if (known) byId.delete(id);
    byId.set(id, { latest: e, seen: seen || (known?.seen ?? false) });
  }
  const out: SyncChange[] = [];
  for (const [id, { latest, seen }] of byId) {
    const at = BigInt(latest.id);
    if (at <= pos) continue;
    if (latest.type !== 'document.deleted' && inView(latest.document as Document)) {
      out.push({ op: 'upsert', id, version: latest.id, document: JSON.stringify(latest.document), at });
    } else if (seen) {
      out.push({ op: 'delete', id, version: latest.id, at });
    }
  }
  return out;
}
