import { firstRetainedChangeId, lastChangeId, readChanges } from '../changes/read.ts';
import type { ChangeEvent } from '../changes/events.ts';
import { type Filter, matcher } from '@svc/filter';
import type { Matcher } from '../rules/rules.ts';
import { compileFilter, parseChecked } from '../documents/query.ts';
import { documentJson } from '../documents/document-json.ts';
import { inCollection } from '../documents/key-sql.ts';
import type { Scope } from '../documents/rule-access.ts';
import type { Param, Store } from '../store/store.ts';
import { fold, type SyncChange } from './catch-up.ts';
import { SyncTokens } from './tokens.ts';

/** Who syncs and what they may see: built per request by the route. */
export interface SyncView {
  databaseId: string;
  collection: string;
  /** The `filter` parameter as sent (JSON text), if any. */
  filter?: string;
  /** A public key's read scope (§10); undefined for a secret key or an operator. */
  read?: Scope;
  /** Who the tokens are bound to: `secret`, `user:<id>` or `anonymous`. */
  caller: string;
  /** A hash of the read rule and its resolved filter for this caller (tokens.ts `view`). */
  view: string;
}

export interface SyncAnswer {
  changes: SyncChange[];
  checkpoint: string | null;
  lastEventId: string | null;
  nextCursor: string | null;
  reset: boolean;
}

/** Events read per query while folding a catch-up. */
const EVENT_CHUNK = 5000;

/** GET /sync/:collection (API.md §3.1): snapshots paged by id, and catch-ups folded from the change log. */
export class SyncService {
  private readonly tokens: SyncTokens;

  constructor(private readonly store: Store) {
    this.tokens = new SyncTokens(store);
  }

  /** Reads the signing key (tokens.ts); a sync request reads it itself if this failed. */
  ready(): Promise<void> {
    return this.tokens.ready();
  }

  async answer(v: SyncView, q: { limit: number; cursor?: string; checkpoint?: string }): Promise<SyncAnswer> {
    const binding = SyncTokens.binding([v.databaseId, v.collection, v.filter ?? '', v.caller]);
    // The filter is checked (400 invalid_filter) before any token, as a list does.
    const own = v.filter === undefined ? undefined : parseChecked(v.filter);
    if (q.checkpoint !== undefined) return this.catchUp(v, binding, await this.tokens.readCheckpoint(q.checkpoint, binding), q.limit, own && matcher(own));
    const cursor = q.cursor === undefined ? undefined : await this.tokens.readCursor(q.cursor, binding);
    return this.snapshot(v, binding, cursor, q.limit, own);
  }

  /** One page of a snapshot: the documents in view after the cursor's id, by id (keyset on the primary key). */
  private async snapshot(v: SyncView, binding: string, cursor: { origin: bigint; view: string; afterId: string } | undefined, limit: number, own?: Filter) {
    const { dialect } = this.store;
    // The snapshot's moment is read before its first page: whatever commits later comes again in catch-up, where versions make it a no-op.
    const origin = cursor?.origin ?? (await lastChangeId(this.store, v.databaseId)) ?? 0n;
    const view = cursor?.view ?? v.view;
    const filters = [v.read?.filter && compileFilter(dialect.json, v.read.filter), own && compileFilter(dialect.json, own)].filter((f) => !!f);
    const params: Param[] = [v.databaseId, v.collection, ...filters.flatMap((f) => f.params)];
    let where = `${inCollection(dialect)}${filters.map((f) => ` AND (${f.sql})`).join('')}`;
    if (cursor) {
      where += ` AND id > ${dialect.keyParam}`;
      params.push(cursor.afterId);
    }
    const rows = await this.store.all<{ id: string; data: string; created_at: string; updated_at: string; version: string }>(
      `SELECT id, ${dialect.jsonText('data')} AS data, created_at, updated_at, CAST(version AS TEXT) AS version FROM documents
       WHERE ${where} ORDER BY id LIMIT ?`,
      [...params, limit + 1],
    );
    const page = rows.slice(0, limit);
    const last = rows.length > limit ? page[page.length - 1] : undefined;
    return {
      changes: page.map((r) => ({
        op: 'upsert' as const,
        id: r.id,
        version: r.version,
        document: documentJson(r.id, r.data, r.created_at, r.updated_at),
        at: 0n,
      })),
      checkpoint: await this.tokens.checkpoint(binding, { origin, pos: origin, view }),
      lastEventId: null,
      nextCursor: last ? await this.tokens.cursor(binding, { origin, view, afterId: last.id }) : null,
      reset: false,
    };
  }

  /** A catch-up from a checkpoint: one change per document changed after it, or a reset. */
  private async catchUp(v: SyncView, binding: string, cp: { origin: bigint; pos: bigint; view: string }, limit: number, own: Matcher | undefined) {
    const latest = (await lastChangeId(this.store, v.databaseId)) ?? 0n;
    const reset = { changes: [], checkpoint: null, lastEventId: null, nextCursor: null, reset: true };
    if (cp.view !== v.view) return reset;
    // Every event after the origin must still be in the log (ids are gap-free per database): not
    // so after retention pruned some, or after the database was imported anew (its log starts empty).
    if (cp.origin > latest) return reset;
    if (cp.origin < latest) {
      const first = await firstRetainedChangeId(this.store, v.databaseId);
      if (first === undefined || first > cp.origin + 1n) return reset;
    }
    const events: ChangeEvent[] = [];
    for (let after = cp.origin; after < latest; ) {
      const chunk = await readChanges(this.store, this.store.dialect, v.databaseId, String(after), {
        limit: EVENT_CHUNK,
        upTo: String(latest),
        collections: [v.collection],
      });
      events.push(...chunk);
      if (chunk.length < EVENT_CHUNK) break;
      after = BigInt(chunk[chunk.length - 1].id);
    }
    const rule = v.read?.matches;
    const inView: Matcher = (d) => (rule ? rule(d) : true) && (own ? own(d) : true);
    const all = fold(events, cp.pos, inView);
    if (all.length <= limit) {
      return {
        changes: all,
        checkpoint: await this.tokens.checkpoint(binding, { origin: latest, pos: latest, view: cp.view }),
        lastEventId: String(latest),
        nextCursor: null,
        reset: false,
      };
    }
    const changes = all.slice(0, limit);
    const upTo = changes[changes.length - 1].at;
    return {
      changes,
      checkpoint: await this.tokens.checkpoint(binding, { origin: cp.origin, pos: upTo, view: cp.view }),
      lastEventId: String(upTo),
      nextCursor: null,
      reset: false,
    };
  }
}

/** The JSON text of an answer (documents are JSON text already). */
export function answerJson(a: SyncAnswer): string {
  const changes = a.changes.map((c) =>
    c.op === 'upsert'
      ? `{"op":"upsert","id":${JSON.stringify(c.id)},"version":"${c.version}","document":${c.document}}`
      : `{"op":"delete","id":${JSON.stringify(c.id)},"version":"${c.version}"}`,
  );
  return `{"changes":[${changes.join(',')}],"checkpoint":${JSON.stringify(a.checkpoint)},"lastEventId":${JSON.stringify(a.lastEventId)},"nextCursor":${JSON.stringify(a.nextCursor)},"reset":${a.reset}}`;
}
