import { isDeepStrictEqual } from 'node:util';
import type { JsonObject } from '../json/merge-patch.ts';
import type { ChangeEvent, NewChange } from '../changes/events.ts';
import type { Transaction } from '../store/store.ts';
import type { DocumentJson } from './document-json.ts';
import type { DocumentRow } from './point-reads.ts';
import type { IfMatch } from './preconditions.ts';

/**
 * Document versions (API.md §1.2): the id of the event that last created or updated a document,
 * stored in `documents.version` by the same statement that writes the row.
 */

/** A single-document answer: the document as JSON text (absent: a result §10's read rule hides, or a batch's check) and its version (the ETag). */
export interface Written {
  json?: DocumentJson;
  version: string;
}

/** A row read with its version (as text: the 64-bit event counter). */
export type VersionedRow = DocumentRow & { version: string };

/**
 * One write inside a transaction: its rows, stamped with versions taken from `stamp` in the order
 * of the changes it returns (one `take()` per change, deletes included), and those changes.
 */
export type WriteStep<T> = (tx: Transaction, stamp: VersionStamp) => Promise<{ result: T; changes: NewChange[] }>;

/** What a write may carry beyond its body. */
export interface WriteOptions<T> {
  /** `If-Match`: the write happens only at one of these versions (else 412). */
  ifMatch?: IfMatch;
  /** Runs last inside the write's transaction with its answer (an idempotency key's record). */
  record?: (tx: Transaction, result: T) => Promise<void>;
}

/**
 * Hands out the ids the transaction's next events will get (changes/append.ts nextEventId), one
 * per change in order, and checks afterwards that the log gave exactly those: a version that is
 * not its event's id would make `If-Match` lie, so a mismatch fails the write (a bug, 500).
 */
export class VersionStamp {
  private next: bigint;
  private checked: bigint;
  constructor(first: bigint) {
    this.next = first;
    this.checked = first;
  }

  /** The version of the next change. */
  take(): string {
    return String(this.next++);
  }

  /** The events appended for the changes stamped since the last check. */
  check(events: ChangeEvent[]): void {
    for (const e of events) {
      if (e.id !== String(this.checked)) throw new Error(`version stamp ${this.checked} does not match event id ${e.id}`);
      this.checked++;
    }
    if (this.checked !== this.next) throw new Error(`${this.next - this.checked} versions stamped without an event`);
  }
}

/** Whether a top-level field outside `fields` differs between two versions of a document (system fields aside). */
export function changedOutside(before: JsonObject, after: JsonObject, fields: string[]): boolean {
  const allowed = new Set([...fields, 'id', 'createdAt', 'updatedAt']);
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  for (const k of keys) {
    if (allowed.has(k)) continue;
    if (Object.hasOwn(before, k) !== Object.hasOwn(after, k) || !isDeepStrictEqual(before[k], after[k])) return true;
  }
  return false;
}
