import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { useServer, request } from '../helpers/server.ts';
import { apiClient, assertStatus } from '../helpers/api.ts';
import { ManualClock } from '../../src/infra/clock.ts';
import { IdempotencyKeys, KEEP_MS } from '../../src/idempotency/keys.ts';

/** How idempotency keys are kept (migration 19): pruned after 24 hours, deleted with their database. */
forEachStore('idempotency keys: storage', (kind) => {
  const clock = new ManualClock();
  const t = useServer(kind, { clock });
  const api = apiClient(
    () => t.server,
    () => t.db.secretKey,
  );
  const store = () => t.server.db.store;
  const keysOf = async (prefix: string) =>
    (await store().all<{ key: string }>('SELECT key FROM idempotency_keys WHERE key LIKE ? ORDER BY key', [`${prefix}%`])).map((r) => r.key);
  /** A key's row as a keyed write leaves it, claimed now by `clock`. */
  const row = (key: string) =>
    store().transaction((tx) =>
      store().keyRows.insert(tx, [`database:${t.db.databaseId}`, key, t.db.databaseId, 'f', new Date(clock.now()).toISOString(), 201, null, '{}']),
    );

  test('the prune deletes every expired key, in windows of its batch, past a live row among them, and keeps the live ones', async () => {
    for (let i = 0; i < 12; i++) await row(`${kind}-prune-old-${String(i).padStart(2, '0')}`);
    clock.advance(3_600_000);
    // Between the old rows in insertion order, a row of a clock that was an hour ahead.
    await row(`${kind}-prune-ahead`);
    clock.advance(-3_600_000);
    for (let i = 12; i < 25; i++) await row(`${kind}-prune-old-${String(i).padStart(2, '0')}`);
    clock.advance(KEEP_MS - 60_000);
    for (let i = 0; i < 5; i++) await row(`${kind}-prune-new-${i}`);
    clock.advance(120_000);
    const keys = new IdempotencyKeys(store(), clock);
    assert.equal(await keys.prune(10), 25);
    assert.deepEqual(await keysOf(`${kind}-prune-old`), []);
    assert.deepEqual(await keysOf(`${kind}-prune-ahead`), [`${kind}-prune-ahead`]);
    assert.equal((await keysOf(`${kind}-prune-new`)).length, 5);
    assert.equal(await keys.prune(10), 0, 'nothing left to prune');
    clock.advance(3_600_000);
    assert.equal(await keys.prune(10), 1, 'the row ahead, once it expired');
    clock.advance(KEEP_MS);
    assert.equal(await keys.prune(10), 5);
  });

  test('a write taking over an expired key the prune has not reached is kept its 24 hours, then pruned', async () => {
    const send = () => api.request('POST', '/kept/docs', { body: { n: 1 }, headers: { 'idempotency-key': `${kind}-taken-over` } });
    assertStatus(await send(), 201, 'first');
    clock.advance(KEEP_MS + 1000);
    const fresh = await send();
    assertStatus(fresh, 201, 'a new request');
    assert.equal(fresh.headers.get('idempotent-replayed'), null);
    const keys = new IdempotencyKeys(store(), clock);
    await keys.prune(10);
    assert.deepEqual(await keysOf(`${kind}-taken-over`), [`${kind}-taken-over`]);
    const replay = await send();
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.equal(replay.text, fresh.text);
    clock.advance(KEEP_MS + 1000);
    await keys.prune(10);
    assert.deepEqual(await keysOf(`${kind}-taken-over`), []);
  });

  test('replays are the first answers byte for byte, whatever the documents hold, also for writes sharing a commit group', async () => {
    const raws = [
      '{"s":"quote \\" backslash \\\\ tab \\t","u":"é ✓ \\u2028 😀","n":1.5e3,"z":-0.0,"nested":{"b":1,"a":[true,null,{}]}}',
      ...Array.from({ length: 12 }, (_, i) => `{"i":${i},"text":"plain ${i}"}`),
    ];
    const send = (raw: string, i: number) => api.request('POST', '/verbatim/docs', { raw, headers: { 'idempotency-key': `${kind}-verbatim-${i}` } });
    const first = await Promise.all(raws.map(send));
    const again = await Promise.all(raws.map(send));
    for (const [i, r] of first.entries()) {
      assertStatus(r, 201, `first ${i}`);
      assert.equal(again[i].headers.get('idempotent-replayed'), 'true');
      assert.equal(again[i].text, r.text);
      assert.equal(again[i].headers.get('etag'), r.headers.get('etag'));
    }
  });

  test('deleting a database deletes its keys, and only its', async () => {
    const other = await t.server.createDatabase();
    const otherApi = apiClient(
      () => t.server,
      () => other.secretKey,
    );
    assertStatus(await otherApi.request('POST', '/gone/docs', { body: {}, headers: { 'idempotency-key': `${kind}-doomed` } }), 201, 'in the doomed database');
    assertStatus(await api.request('POST', '/stays/docs', { body: {}, headers: { 'idempotency-key': `${kind}-stays` } }), 201, 'in this one');
    assert.deepEqual(await keysOf(`${kind}-doomed`), [`${kind}-doomed`]);
    const op = await t.server.operatorToken();
    assert.equal((await request(t.server, 'DELETE', `/admin/databases/${other.databaseId}`, { key: op })).status, 204);
    assert.deepEqual(await keysOf(`${kind}-doomed`), []);
    assert.deepEqual(await keysOf(`${kind}-stays`), [`${kind}-stays`]);
  });
});
