import type { Invalidation } from '../infra/invalidation/invalidation.ts';
import type { Dialect, Transaction } from '../store/store.ts';

/** Databases whose usage is kept at most; past it, the kept figures start over. */
const MAX_DATABASES = 10_000;
/** Events between a kept figure and a write that are read to bring the figure up to date, at most; past it, the sizes are summed. */
const MAX_GAP = 64;

/** A database's file bytes as of one of its events. */
interface Known {
  /** The id of the event after which the database's files added up to `bytes`. */
  at: bigint;
  bytes: number;
}

/**
 * The bytes of each database's files, as they were right after one of its events: what the quota
 * check of the next upload starts from, instead of summing every file's size again (a read that
 * grows with the number of files, inside the write's transaction).
 *
 * Every change to a database's files commits an event in the same transaction (file.created and
 * file.deleted carry the file, with its size), and event ids are handed out per database in
 * commit order with no gaps (changes/append.ts). So a write that numbered event N, with the
 * bytes known as of event K < N, gets the bytes just before N from the events K+1 … N-1, whoever
 * wrote them on whichever instance: the files created in between added their sizes, those
 * deleted took theirs away, nothing else changed them. When those events are not all there any
 * more (the change log's retention), or too many, it sums the sizes as before.
 *
 * The one change without an event is the database's deletion (a cascade), after which an import
 * could bring it back with ids that meet a kept figure again: the deletion's invalidation
 * (`database:<id>`) drops the figure, and figures are used and kept only while the invalidation
 * is current, as the credential caches' entries are (infra/invalidation/cache.ts). A figure is
 * kept once its transaction committed, and not when anything was invalidated since it was read.
 */
export class FileUsage {
  private readonly known = new Map<string, Known>();

  constructor(
    private readonly dialect: Dialect,
    private readonly invalidation: Invalidation | undefined,
  ) {
    invalidation?.subscribe((tags) => {
      if (tags === 'all') return this.known.clear();
      for (const tag of tags) if (tag.startsWith('database:')) this.known.delete(tag.slice('database:'.length));
    });
  }

  /** Where the caller stands before it reads: what `keep` needs to tell whether an invalidation came in between. */
  mark(): number {
    return this.invalidation?.epoch ?? 0;
  }

  /**
   * The bytes of the database's files just before its event `eventId` (the caller's own write's,
   * numbered in `tx`), from the kept figure and the events after it; undefined when not known here.
   */
  async before(tx: Transaction, databaseId: string, eventId: string): Promise<number | undefined> {
    if (!this.invalidation?.current()) return undefined;
    const known = this.known.get(databaseId);
    if (!known) return undefined;
    const gap = BigInt(eventId) - known.at - 1n;
    if (gap === 0n) return known.bytes;
    if (gap < 0n || gap > BigInt(MAX_GAP)) return undefined;
    const rows = await tx.all<{ type: string; file: string | null }>(
      `SELECT type, CASE WHEN type IN ('file.created', 'file.deleted') THEN ${this.dialect.jsonText('document')} END AS file
       FROM events WHERE database_id = ? AND id > ? AND id < ?`,
      [databaseId, known.at.toString(), eventId],
    );
    if (BigInt(rows.length) !== gap) return undefined; // some were removed by the retention: sum instead
    let bytes = known.bytes;
    for (const row of rows) {
      if (row.file === null) continue;
      const size = Number((JSON.parse(row.file) as { size?: unknown }).size);
      if (!Number.isFinite(size)) return undefined;
      bytes += row.type === 'file.created' ? size : -size;
    }
    return bytes;
  }

  /** Once `tx` committed: the database's files add up to `bytes` as of its event `eventId`. `mark`: taken before the bytes were read. */
  keep(tx: Transaction, mark: number, databaseId: string, eventId: string, bytes: number): void {
    const invalidation = this.invalidation;
    if (!invalidation) return;
    tx.afterCommit(() => {
      if (!invalidation.current() || invalidation.epoch !== mark) return;
      const at = BigInt(eventId);
      const known = this.known.get(databaseId);
      if (known && known.at >= at) return; // a later write committed with this one (a group commit) was kept first
      if (!known && this.known.size >= MAX_DATABASES) this.known.clear();
      this.known.set(databaseId, { at, bytes });
    });
  }
}
