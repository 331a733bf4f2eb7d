import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { forEachStore } from '../helpers/stores.ts';
import { errorCode, useServer } from '../helpers/server.ts';
import { apiClient } from '../helpers/api.ts';
import { openWs } from '../helpers/ws.ts';
import { ManualClock } from '../../src/infra/clock.ts';

forEachStore('realtime', (kind) => {
  const clock = new ManualClock();
  const t = useServer(kind, { clock });
  const secret = apiClient(
    () => t.server,
    () => t.db.secretKey,
  );

  const token = (collections: string[], key = t.db.secretKey) =>
    secret.post<{ token: string; expiresAt: string; url: string }>('/realtime/token', { collections }, 201, { key });
  const insert = (collection: string, body: object, key = t.db.secretKey) => secret.post<{ id: string }>(`/${collection}/docs`, body, 201, { key });

  test('token: 201 {token, expiresAt (1 hour), url}; validation of collections', async () => {
    const rt = await token(['a', 'b']);
    assert.equal(new URL(rt.url).pathname, '/v1/realtime');
    assert.equal(new URL(rt.url).searchParams.get('token'), rt.token);
    assert.equal(Date.parse(rt.expiresAt) - clock.now(), 3600_000);
    for (const collections of [[], ['1bad'], Array.from({ length: 101 }, (_, i) => `c${i}`)]) {
      await secret.post('/realtime/token', { collections }, 400);
    }
    const reserved = await secret.request('POST', '/realtime/token', { body: { collections: ['auth'] } });
    assert.equal(errorCode(reserved), 'reserved_collection_name');
    await apiClient(t.server).post('/realtime/token', { collections: ['a'] }, 401);
  });

  test('ready first; created, updated, deleted events in order; only the subscribed collections of this database', async () => {
    const other = await t.server.createDatabase();
    const rt = await token(['live']);
    const c = await openWs(rt.url);
    const [ready] = await c.waitFor((m) => m.type === 'ready');
    assert.deepEqual(ready, { type: 'ready', collections: ['live'] });
    assert.equal(c.messages[0].type, 'ready', 'ready is the first message');
    const doc = await insert('live', { n: 1 });
    await insert('elsewhere', { n: 2 });
    await insert('live', { n: 3 }, other.secretKey);
    const patched = await secret.patch(`/live/docs/${doc.id}`, { n: 2 });
    await secret.delete(`/live/docs/${doc.id}`);
    const evs = await c.waitFor((m) => m.type === 'event', 3);
    assert.deepEqual(
      evs.map((e) => e.event),
      ['document.created', 'document.updated', 'document.deleted'],
    );
    assert.deepEqual(evs[1].document, patched);
    assert.deepEqual(evs[2].document, patched, 'a deleted event carries the document as it was');
    const ids = evs.map((e) => BigInt(e.id));
    assert.ok(ids[0] < ids[1] && ids[1] < ids[2], 'ids increase');
    await sleep(200);
    assert.equal(c.events().length, 3, 'nothing from another collection or database');
    await c.close();
  });

  test('ping → pong; a public key may ask for a token', async () => {
    const rt = await token(['pub'], t.db.publicKey);
    const c = await openWs(rt.url);
    c.ws.send(JSON.stringify({ type: 'ping' }));
    await c.waitFor((m) => m.type === 'pong');
    await insert('pub', { x: 1 });
    await c.waitFor((m) => m.type === 'event');
    await c.close();
  });

  test('a bad, missing or expired token, or a token of a revoked key: the upgrade is refused with 401', async () => {
    const rt = await token(['x']);
    const u = new URL(rt.url);
    u.searchParams.set('token', 'rt_' + 'a'.repeat(43));
    await assert.rejects(openWs(u.toString()), { statusCode: 401 });
    u.searchParams.delete('token');
    await assert.rejects(openWs(u.toString()), { statusCode: 401 });

    const later = await token(['x']);
    clock.advance(3600_000 + 1);
    await assert.rejects(openWs(later.url), { statusCode: 401 }, 'expired after one hour');

    const op = apiClient(t.server, () => t.server.operatorToken());
    const { key, id } = await op.post<{ key: string; id: string }>(`/admin/databases/${t.db.databaseId}/keys`, { kind: 'secret' }, 201);
    const revokedToken = await token(['x'], key);
    await op.delete(`/admin/databases/${t.db.databaseId}/keys/${id}`);
    await assert.rejects(openWs(revokedToken.url), { statusCode: 401 }, 'a revoked key’s tokens stop working');
  });

  test('resume: after=<id> replays exactly the missed events in order, then live; a pruned id gets reset', async () => {
    const rt = await token(['resume']);
    let c = await openWs(rt.url);
    const first = await insert('resume', { step: 0 });
    const [seen] = await c.waitFor((m) => m.type === 'event');
    await c.close();
    const d1 = await insert('resume', { step: 1 });
    await insert('noise', { step: 'x' });
    await secret.patch(`/resume/docs/${d1.id}`, { step: 11 });
    await secret.delete(`/resume/docs/${first.id}`);
    c = await openWs(`${rt.url}&after=${seen.id}`);
    const replay = await c.waitFor((m) => m.type === 'event', 3);
    assert.deepEqual(
      replay.map((e) => [e.event, e.document.id]),
      [
        ['document.created', d1.id],
        ['document.updated', d1.id],
        ['document.deleted', first.id],
      ],
    );
    const live = await insert('resume', { step: 'live' });
    const all = await c.waitFor((m) => m.type === 'event', 4);
    assert.equal(all[3].document.id, live.id);
    await sleep(200);
    assert.equal(c.events().length, 4, 'nothing twice');
    const lastId = all[3].id;
    await c.close();

    // Resuming at the newest id: nothing to replay, no reset.
    c = await openWs(`${rt.url}&after=${lastId}`);
    await c.waitFor((m) => m.type === 'ready');
    await sleep(200);
    assert.deepEqual(
      c.messages.map((m) => m.type),
      ['ready'],
    );
    await c.close();

    // Retention pruned what the client missed: it is told to reload.
    await t.server.db.store.run('DELETE FROM events WHERE database_id = ? AND id <= ?', [t.db.databaseId, Number(lastId) - 1]);
    await insert('resume', { step: 'after prune' });
    c = await openWs(`${rt.url}&after=1`);
    const [reset] = await c.waitFor((m) => m.type === 'reset');
    assert.equal(c.messages[0].type, 'ready');
    assert.equal(c.messages[1], reset, 'reset comes right after ready, instead of a partial replay');
    await insert('resume', { step: 'live after reset' });
    await c.waitFor((m) => m.type === 'event' && m.document.step === 'live after reset');
    await c.close();
  });

  test('resume racing 4 concurrent writers: the client ends with every event exactly once, in id order', async () => {
    const col = 'race';
    const rt = await token([col]);
    // The first connection is open before any write, so every write falls in some connection's window.
    let c0: Awaited<ReturnType<typeof openWs>> | undefined = await openWs(rt.url);
    await c0.waitFor((m) => m.type === 'ready');
    let writing = true;
    const written: string[] = [];
    const writers = Array.from({ length: 4 }, async (_, w) => {
      for (let i = 0; writing && i < 400; i += 1) written.push((await insert(col, { w, i })).id);
    });
    const received: Array<Record<string, any>> = [];
    let lastId: string | undefined;
    for (let round = 0; round < 6; round += 1) {
      const c = c0 ?? (await openWs(`${rt.url}&after=${lastId ?? 0}`));
      c0 = undefined;
      await sleep(60 + round * 20);
      await c.close();
      const evs = c.events();
      received.push(...evs);
      if (evs.length) lastId = evs[evs.length - 1].id;
    }
    writing = false;
    await Promise.all(writers);
    // A final connection picks up the rest.
    const c = await openWs(`${rt.url}&after=${lastId ?? 0}`);
    const total = written.length;
    await c.waitFor(() => received.length + c.events().length >= total, 1, 15_000).catch(() => undefined);
    received.push(...c.events());
    await c.close();
    const ids = received.map((e) => BigInt(e.id));
    for (let i = 1; i < ids.length; i += 1) assert.ok(ids[i - 1] < ids[i], `ids strictly increase at ${i}: ${ids[i - 1]} then ${ids[i]}`);
    const docIds = received.map((e) => e.document.id);
    assert.equal(new Set(docIds).size, docIds.length, 'no event twice');
    const missing = written.filter((id) => !docIds.includes(id));
    assert.deepEqual(
      new Set(docIds),
      new Set(written),
      `every written document arrived: ${received.length} received, ${written.length} written, missing ${missing.length}: ${missing.slice(0, 3)}`,
    );
  });
});
