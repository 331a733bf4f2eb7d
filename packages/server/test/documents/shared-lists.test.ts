import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseFilter } from '@svc/filter';
import { PageCache, type Page } from '../../src/documents/page-cache.ts';
import type { Store } from '../../src/store/store.ts';
import { forEachStore } from '../helpers/stores.ts';
import { useServer } from '../helpers/server.ts';
import { apiClient } from '../helpers/api.ts';

/** A page read the test finishes when it wants: what `build` was asked for, in order. */
function reads() {
  const asked: Array<{ finish: (text: string) => void; hits: number }> = [];
  const build = () =>
    new Promise<Page>((resolve) => {
      const read = { hits: 0, finish: (text: string) => resolve({ text, onHit: () => void (read.hits += 1) }) };
      asked.push(read);
    });
  return { asked, build };
}

/**
 * Lists asked for while the same list is being read share the next read (documents/page-cache.ts,
 * infra/shared-runs.ts), never the one under way. With the cache off (LIST_CACHE_MB=0) no version
 * is read, so no store is needed: the reads are the test's own.
 */
describe('lists asked while the same list is read', () => {
  const cache = () => new PageCache(undefined as unknown as Store);

  test('share one read that starts after the one under way, and never take its answer', async () => {
    const pages = cache();
    const { asked, build } = reads();
    const first = pages.answer('d1', ['notes', { limit: 5 }], undefined, build);
    const later = [1, 2, 3].map(() => pages.answer('d1', ['notes', { limit: 5 }], undefined, build));
    await Promise.resolve();
    assert.equal(asked.length, 1, 'the later lists wait for the read under way');
    asked[0].finish('under way');
    assert.equal(await first, 'under way');
    await new Promise((r) => setImmediate(r));
    assert.equal(asked.length, 2, 'one read for the three lists');
    asked[1].finish('after');
    assert.deepEqual(await Promise.all(later), ['after', 'after', 'after']);
    assert.equal(asked[1].hits, 2, 'the two lists that joined count as reads of their fields (automatic indexes)');
    assert.deepEqual(pages.builds.tally, { runs: 2, joined: 2 });
  });

  test('other lists, other databases and other callers are read on their own', async () => {
    const pages = cache();
    const { asked, build } = reads();
    const answers = [
      pages.answer('d1', ['notes', { limit: 5 }, 'secret', undefined], undefined, build),
      pages.answer('d1', ['notes', { limit: 6 }, 'secret', undefined], undefined, build),
      pages.answer('d2', ['notes', { limit: 5 }, 'secret', undefined], undefined, build),
      pages.answer('d1', ['notes', { limit: 5 }, 'public', 'u1'], undefined, build),
      pages.answer('d1', ['notes', { limit: 5 }, 'secret', undefined], parseFilter({ owner: 'u1' }), build),
    ];
    await Promise.resolve();
    assert.equal(asked.length, 5);
    for (const [i, read] of asked.entries()) read.finish(String(i));
    assert.deepEqual(await Promise.all(answers), ['0', '1', '2', '3', '4']);
  });

  test('a read that fails fails the lists that joined it; the next list reads anew', async () => {
    const pages = cache();
    let n = 0;
    const failing = async (): Promise<Page> => {
      n += 1;
      await new Promise((r) => setImmediate(r));
      if (n <= 2) throw new Error(`read ${n} failed`);
      return { text: `read ${n}` };
    };
    const first = pages.answer('d1', ['notes'], undefined, failing);
    const joined = [pages.answer('d1', ['notes'], undefined, failing), pages.answer('d1', ['notes'], undefined, failing)];
    await assert.rejects(first, /read 1 failed/);
    for (const j of joined) await assert.rejects(j, /read 2 failed/);
    assert.equal(await pages.answer('d1', ['notes'], undefined, failing), 'read 3');
  });
});

/**
 * Through the API, on each store: clients that each create a document and then list the newest,
 * all at once and again and again (their lists share reads), each find their own document: no
 * list is answered from a read that began before it was asked.
 */
forEachStore('lists asked together while the collection is written', (kind) => {
  const t = useServer(kind, { env: { LIST_CACHE_MB: '0' } });
  test('every client sees its own write in the list it asks for next', async () => {
    const api = apiClient(
      () => t.server,
      () => t.db.secretKey,
    );
    const CLIENTS = 12;
    for (let round = 0; round < 5; round++) {
      await Promise.all(
        Array.from({ length: CLIENTS }, async (_, c) => {
          const created = await api.post<{ id: string }>('/feed/docs', { round, c }, 201);
          const listed = await api.request('GET', '/feed/docs', { query: { limit: 2 * CLIENTS, sortOrder: 'desc' } });
          assert.equal(listed.status, 200, listed.text);
          const page = JSON.parse(listed.text) as { documents: Array<{ id: string }> };
          assert.ok(
            page.documents.some((d) => d.id === created.id),
            `round ${round}, client ${c}: its document is in the list it asked for after the write`,
          );
        }),
      );
    }
  });
});
