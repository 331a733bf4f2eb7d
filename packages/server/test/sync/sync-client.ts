import assert from 'node:assert/strict';
import type { ApiClient } from '../helpers/api.ts';

export type Doc = { id: string; createdAt: string; updatedAt: string; [k: string]: unknown };
export type Change = { op: 'upsert' | 'delete'; id: string; version: string; document?: Doc };
export type Answer = { changes: Change[]; checkpoint: string | null; lastEventId: string | null; nextCursor: string | null; reset: boolean };

/** GET /sync/:collection with the given parameters, asserting 200. */
export function syncGet(c: ApiClient, collection: string, q: { filter?: object; limit?: number; cursor?: string; checkpoint?: string } = {}): Promise<Answer> {
  const p = new URLSearchParams();
  if (q.filter) p.set('filter', JSON.stringify(q.filter));
  if (q.limit) p.set('limit', String(q.limit));
  if (q.cursor) p.set('cursor', q.cursor);
  if (q.checkpoint) p.set('checkpoint', q.checkpoint);
  return c.get<Answer>(`/sync/${collection}?${p}`, 200);
}

/**
 * A client copy as §3.1 says a client keeps one: snapshot pages, then catch-up answers, each change
 * applied only when its version is higher than the one held; a reset drops the copy and snapshots again.
 * `seen` collects every id any answer named (to prove an id the caller never saw never shows).
 */
export class TestCopy {
  docs = new Map<string, { version: bigint; document: Doc | null }>();
  checkpoint: string | null = null;
  lastEventId: string | null = null;
  seen = new Set<string>();
  answers: Answer[] = [];

  constructor(
    private readonly c: ApiClient,
    private readonly collection: string,
    private readonly q: { filter?: object; limit?: number } = {},
  ) {}

  private apply(a: Answer): void {
    this.answers.push(a);
    for (const ch of a.changes) {
      this.seen.add(ch.id);
      const held = this.docs.get(ch.id);
      const v = BigInt(ch.version);
      if (held && held.version >= v) continue;
      this.docs.set(ch.id, { version: v, document: ch.op === 'upsert' ? (ch.document as Doc) : null });
    }
  }

  async snapshot(): Promise<void> {
    this.docs.clear();
    let cursor: string | undefined;
    do {
      const a = await syncGet(this.c, this.collection, { ...this.q, cursor });
      this.apply(a);
      this.checkpoint = a.checkpoint;
      cursor = a.nextCursor ?? undefined;
    } while (cursor);
    await this.catchUp();
  }

  /** Catch-up answers until one leaves nothing; returns how many requests it took and whether it reset. */
  async catchUp(): Promise<{ requests: number; reset: boolean }> {
    for (let requests = 1; ; requests++) {
      const a = await syncGet(this.c, this.collection, { ...this.q, checkpoint: this.checkpoint as string });
      if (a.reset) {
        await this.snapshot();
        return { requests, reset: true };
      }
      this.apply(a);
      this.checkpoint = a.checkpoint;
      this.lastEventId = a.lastEventId;
      if (a.changes.length < (this.q.limit ?? 500)) return { requests, reset: false };
    }
  }

  /** The documents held (deleted ones left out), by id. */
  visible(): Map<string, Doc> {
    return new Map([...this.docs].filter(([, d]) => d.document !== null).map(([id, d]) => [id, d.document as Doc]));
  }
}

/** Asserts the copy holds exactly what the caller's list of the collection (with the filter) shows. */
export async function assertConverged(copy: TestCopy, c: ApiClient, collection: string, filter?: object): Promise<void> {
  const q = new URLSearchParams({ limit: '1000', sortBy: 'id' });
  if (filter) q.set('filter', JSON.stringify(filter));
  const list = await c.get<{ documents: Doc[] }>(`/${collection}/docs?${q}`, 200);
  const held = [...copy.visible().values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  assert.deepEqual(held, list.documents, 'the copy holds exactly what the list shows');
}
