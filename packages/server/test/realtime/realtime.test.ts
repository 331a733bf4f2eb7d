import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { errorCode, request, startServer, type TestServer } from '../helpers/server.ts';
import { openWs } from '../helpers/ws.ts';
import { ManualClock } from '../../src/infra/clock.ts';

forEachStore('realtime', (kind) => {
  let server: TestServer;
  let db: Awaited<ReturnType<TestServer['createDatabase']>>;
  const clock = new ManualClock();
  before(async () => {
    server = await startServer(kind, { clock });
    db = await server.createDatabase();
  });
  after(() => server.close());

  const token = async (collections: string[], key = db.secretKey) => {
    const r = await request(server, 'POST', '/realtime/token', { key, body: { collections } });
    assert.equal(r.status, 201, r.text);
    return r.json as { token: string; expiresAt: string; url: string };
  };
  const insert = async (collection: string, body: object, key = db.secretKey) => {
    const r = await request(server, 'POST', `/${collection}/docs`, { key, body });
    assert.equal(r.status, 201, r.text);
    return r.json as { id: string };
  };

  test('token: 201 {token, expiresAt (1 hour), url}; validation of collections', async () => {
    const t = await token(['a', 'b']);
    assert.equal(new URL(t.url).pathname, '/v1/realtime');
    assert.equal(new URL(t.url).searchParams.get('token'), t.token);
    assert.equal(Date.parse(t.expiresAt) - clock.now(), 3600_000);
    for (const collections of [[], ['1bad'], Array.from({ length: 101 }, (_, i) => `c${i}`)]) {
      assert.equal((await request(server, 'POST', '/realtime/token', { key: db.secretKey, body: { collections } })).status, 400);
    }
    const reserved = await request(server, 'POST', '/realtime/token', { key: db.secretKey, body: { collections: ['auth'] } });
    assert.equal(errorCode(reserved), 'reserved_collection_name');
    assert.equal((await request(server, 'POST', '/realtime/token', { body: { collections: ['a'] } })).status, 401);
  });

  test('ready first; created, updated, deleted events in order; only the subscribed collections of this database', async () => {
    const other = await server.createDatabase();
    const t = await token(['live']);
    const c = await openWs(t.url);
    const [ready] = await c.waitFor((m) => m.type === 'ready');
    assert.deepEqual(ready, { type: 'ready', collections: ['live'] });
    assert.equal(c.messages[0].type, 'ready', 'ready is the first message');
    const doc = await insert('live', { n: 1 });
    await insert('elsewhere', { n: 2 });
    await insert('live', { n: 3 }, other.secretKey);
    const patched = await request(server, 'PATCH', `/live/docs/${doc.id}`, { key: db.secretKey, body: { n: 2 } });
    await request(server, 'DELETE', `/live/docs/${doc.id}`, { key: db.secretKey });
    const evs = await c.waitFor((m) => m.type === 'event', 3);
    assert.deepEqual(evs.map((e) => e.event), ['document.created', 'document.updated', 'document.deleted']);
    assert.deepEqual(evs[1].document, patched.json);
    assert.deepEqual(evs[2].document, patched.json, 'a deleted event carries the document as it was');
    const ids = evs.map((e) => BigInt(e.id));
    assert.ok(ids[0] < ids[1] && ids[1] < ids[2], 'ids increase');
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(c.events().length, 3, 'nothing from another collection or database');
    await c.close();
  });

  test('ping → pong; a public key may ask for a token', async () => {
    const t = await token(['pub'], db.publicKey);
    const c = await openWs(t.url);
    c.ws.send(JSON.stringify({ type: 'ping' }));
    await c.waitFor((m) => m.type === 'pong');
    await insert('pub', { x: 1 });
    await c.waitFor((m) => m.type === 'event');
    await c.close();
  });

  test('a bad, missing or expired token, or a token of a revoked key: the upgrade is refused with 401', async () => {
    const t = await token(['x']);
    const u = new URL(t.url);
    u.searchParams.set('token', 'rt_' + 'a'.repeat(43));
    await assert.rejects(openWs(u.toString()), { statusCode: 401 });
    u.searchParams.delete('token');
    await assert.rejects(openWs(u.toString()), { statusCode: 401 });

    const later = await token(['x']);
    clock.advance(3600_000 + 1);
    await assert.rejects(openWs(later.url), { statusCode: 401 }, 'expired after one hour');

    const op = await server.operatorToken();
    const k = await request(server, 'POST', `/admin/databases/${db.databaseId}/keys`, { key: op, body: { kind: 'secret' } });
    const { key, id } = k.json as { key: string; id: string };
    const revokedToken = await token(['x'], key);
    await request(server, 'DELETE', `/admin/databases/${db.databaseId}/keys/${id}`, { key: op });
    await assert.rejects(openWs(revokedToken.url), { statusCode: 401 }, 'a revoked key’s tokens stop working');
  });

  test('resume: after=<id> replays exactly the missed events in order, then live; a pruned id gets reset', async () => {
    const t = await token(['resume']);
    let c = await openWs(t.url);
    const first = await insert('resume', { step: 0 });
    const [seen] = await c.waitFor((m) => m.type === 'event');
    await c.close();
    const d1 = await insert('resume', { step: 1 });
    await insert('noise', { step: 'x' });
    await request(server, 'PATCH', `/resume/docs/${d1.id}`, { key: db.secretKey, body: { step: 11 } });
    await request(server, 'DELETE', `/resume/docs/${first.id}`, { key: db.secretKey });
    c = await openWs(`${t.url}&after=${seen.id}`);
    const replay = await c.waitFor((m) => m.type === 'event', 3);
    assert.deepEqual(replay.map((e) => [e.event, e.document.id]), [
      ['document.created', d1.id], ['document.updated', d1.id], ['document.deleted', first.id],
    ]);
    const live = await insert('resume', { step: 'live' });
    const all = await c.waitFor((m) => m.type === 'event', 4);
    assert.equal(all[3].document.id, live.id);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(c.events().length, 4, 'nothing twice');
    const lastId = all[3].id;
    await c.close();

    // Resuming at the newest id: nothing to replay, no reset.
    c = await openWs(`${t.url}&after=${lastId}`);
    await c.waitFor((m) => m.type === 'ready');
    await new Promise((r) => setTimeout(r, 200));
    assert.deepEqual(c.messages.map((m) => m.type), ['ready']);
    await c.close();

    // Retention pruned what the client missed: it is told to reload.
    await server.db.store.run('DELETE FROM events WHERE database_id = ? AND id <= ?', [db.databaseId, Number(lastId) - 1]);
    await insert('resume', { step: 'after prune' });
    c = await openWs(`${t.url}&after=1`);
    const [reset] = await c.waitFor((m) => m.type === 'reset');
    assert.equal(c.messages[0].type, 'ready');
    assert.equal(c.messages[1], reset, 'reset comes right after ready, instead of a partial replay');
    await insert('resume', { step: 'live after reset' });
    await c.waitFor((m) => m.type === 'event' && m.document.step === 'live after reset');
    await c.close();
  });

  test('resume racing 4 concurrent writers: the client ends with every event exactly once, in id order', async () => {
    const col = 'race';
    const t = await token([col]);
    // The first connection is open before any write, so every write falls in some connection's window.
    let c0: Awaited<ReturnType<typeof openWs>> | undefined = await openWs(t.url);
    await c0.waitFor((m) => m.type === 'ready');
    let writing = true;
    const written: string[] = [];
    const writers = Array.from({ length: 4 }, async (_, w) => {
      for (let i = 0; writing && i < 400; i += 1) written.push((await insert(col, { w, i })).id);
    });
    const received: Array<Record<string, any>> = [];
    let lastId: string | undefined;
    for (let round = 0; round < 6; round += 1) {
      const c = c0 ?? (await openWs(`${t.url}&after=${lastId ?? 0}`));
      c0 = undefined;
      await new Promise((r) => setTimeout(r, 60 + round * 20));
      await c.close();
      const evs = c.events();
      received.push(...evs);
      if (evs.length) lastId = evs[evs.length - 1].id;
    }
    writing = false;
    await Promise.all(writers);
    // A final connection picks up the rest.
    const c = await openWs(`${t.url}&after=${lastId ?? 0}`);
    const total = written.length;
    await c.waitFor(() => received.length + c.events().length >= total, 1, 15_000).catch(() => undefined);
    received.push(...c.events());
    await c.close();
    const ids = received.map((e) => BigInt(e.id));
    for (let i = 1; i < ids.length; i += 1) assert.ok(ids[i - 1] < ids[i], `ids strictly increase at ${i}: ${ids[i - 1]} then ${ids[i]}`);
    const docIds = received.map((e) => e.document.id);
    assert.equal(new Set(docIds).size, docIds.length, 'no event twice');
    const missing = written.filter((id) => !docIds.includes(id));
    assert.deepEqual(new Set(docIds), new Set(written), `every written document arrived: ${received.length} received, ${written.length} written, missing ${missing.length}: ${missing.slice(0, 3)}`);
  });
});
