import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { useServer } from '../helpers/server.ts';
import { apiClient, assertError, type ApiClient } from '../helpers/api.ts';
import { newUser, type SignedIn } from '../helpers/auth-client.ts';
import { ManualClock } from '../../src/infra/clock.ts';
import { pruneChangesBefore } from '../../src/changes/retention.ts';
import { PassThrough } from 'node:stream';
import { exportDatabase } from '../../src/transfer/export.ts';
import { importDatabase } from '../../src/transfer/import.ts';
import { assertConverged, syncGet, TestCopy, type Doc } from './sync-client.ts';

const own = { $auth: 'id' };
const team = { $auth: 'appMetadata.team' };
const RULES = {
  todos: { read: { owner: own }, create: { owner: own }, update: { owner: own }, delete: { owner: own } },
  boards: { read: { team } },
  notes: { read: true },
};

/** GET /sync/:collection (API.md §3.1). */
forEachStore('sync: snapshot and catch-up', (kind) => {
  const clock = new ManualClock();
  const t = useServer(kind, { clock });
  const secret = apiClient(
    () => t.server,
    () => t.db.secretKey,
  );
  const as = (u: SignedIn): ApiClient =>
    apiClient(
      () => t.server,
      () => t.db.publicKey,
      () => ({ headers: { 'x-session-token': u.session.token } }),
    );
  let ann: SignedIn;
  let bob: SignedIn;
  before(async () => {
    await secret.put('/rules', { rules: RULES });
    ann = await newUser(t.server, t.db.publicKey, 'ann@sync.test');
    bob = await newUser(t.server, t.db.publicKey, 'bob@sync.test');
  });
  const create = (c: ApiClient, col: string, body: object) => c.post<Doc>(`/${col}/docs`, body, 201);

  test('a snapshot paged at limit and catch-ups cut by limit converge; continuing checkpoints carry their origin', async () => {
    for (let i = 0; i < 7; i++) await create(secret, 'pages', { i });
    const copy = new TestCopy(secret, 'pages', { limit: 3 });
    await copy.snapshot();
    assert.equal(copy.answers.filter((a) => a.lastEventId === null).length, 3, '7 documents at limit 3: three snapshot pages');
    await assertConverged(copy, secret, 'pages');
    const ids = [...copy.visible().keys()];
    // While away: 5 documents change, one of them twice, one is deleted, two are created and one of those deleted again.
    for (const id of ids.slice(0, 4)) await secret.patch(`/pages/docs/${id}`, { touched: true }, 200);
    await secret.patch(`/pages/docs/${ids[0]}`, { touched: 2 }, 200);
    await secret.delete(`/pages/docs/${ids[5]}`, 204);
    const fresh = await create(secret, 'pages', { i: 'new' });
    const ghost = await create(secret, 'pages', { i: 'ghost' });
    await secret.delete(`/pages/docs/${ghost.id}`, 204);
    const first = await syncGet(secret, 'pages', { checkpoint: copy.checkpoint as string, limit: 3 });
    assert.deepEqual(
      first.changes.map((c) => [c.op, c.id]),
      [ids[1], ids[2], ids[3]].map((id) => ['upsert', id]),
      'the first three documents in the order of their latest event',
    );
    assert.equal(first.lastEventId, first.changes[2].version, 'cut by limit: complete up to its last change');
    const second = await syncGet(secret, 'pages', { checkpoint: first.checkpoint as string, limit: 3 });
    assert.deepEqual(
      second.changes.map((c) => [c.op, c.id]),
      [
        ['upsert', ids[0]],
        ['delete', ids[5]],
        ['upsert', fresh.id],
      ],
    );
    const third = await syncGet(secret, 'pages', { checkpoint: second.checkpoint as string, limit: 3 });
    assert.deepEqual(
      third.changes.map((c) => [c.op, c.id]),
      [['delete', ghost.id]],
      'the continuing checkpoint kept its origin: the ghost was in view since it, so it yields delete',
    );
    assert.equal(third.lastEventId, t.server.changes.at(-1)?.id, 'nothing left: complete up to the latest event');
    const r = await copy.catchUp();
    assert.equal(r.reset, false);
    await assertConverged(copy, secret, 'pages');
  });

  test('documents moving in and out of a filter while the client is away: delete only for ids it could have seen', async () => {
    const open = { status: 'open' };
    const a = await create(secret, 'issues', { status: 'open', n: 'a' });
    const b = await create(secret, 'issues', { status: 'closed', n: 'b' });
    const c = await create(secret, 'issues', { status: 'closed', n: 'c' });
    const e = await create(secret, 'issues', { status: 'open', n: 'e' });
    const copy = new TestCopy(secret, 'issues', { filter: open });
    await copy.snapshot();
    assert.deepEqual([...copy.visible().keys()].sort(), [a.id, e.id].sort());
    await secret.patch(`/issues/docs/${a.id}`, { status: 'closed' }, 200); // moves out
    await secret.patch(`/issues/docs/${b.id}`, { status: 'open' }, 200); // moves in
    await secret.patch(`/issues/docs/${c.id}`, { n: 'c2' }, 200); // stays out
    const d = await create(secret, 'issues', { status: 'closed', n: 'd' });
    await secret.delete(`/issues/docs/${d.id}`, 204); // never in view
    await secret.delete(`/issues/docs/${e.id}`, 204); // was in view
    const moved = await create(secret, 'issues', { status: 'open', n: 'f' });
    await secret.patch(`/issues/docs/${moved.id}`, { status: 'closed' }, 200); // in view since the checkpoint, then out
    const answer = await syncGet(secret, 'issues', { filter: open, checkpoint: copy.checkpoint as string });
    assert.deepEqual(
      answer.changes.map((x) => [x.op, x.id]),
      [
        ['delete', a.id],
        ['upsert', b.id],
        ['delete', e.id],
        ['delete', moved.id],
      ],
    );
    await copy.catchUp();
    assert.equal(copy.seen.has(c.id), false, 'an id never in view never shows');
    assert.equal(copy.seen.has(d.id), false, 'an id never in view never shows');
    await assertConverged(copy, secret, 'issues', open);
    const other = await secret.request('GET', `/sync/issues?filter=${encodeURIComponent('{"status":"closed"}')}&checkpoint=${copy.checkpoint}`);
    assertError(other, 400, 'invalid_cursor', 'a checkpoint of another filter');
    const elsewhere = await secret.request('GET', `/sync/elsewhere?filter=${encodeURIComponent(JSON.stringify(open))}&checkpoint=${copy.checkpoint}`);
    assertError(elsewhere, 400, 'invalid_cursor', 'a checkpoint of another collection');
  });

  test('two users under owner rules: each syncs only their own documents; a document handed over moves in and out of their views', async () => {
    const annC = as(ann);
    const bobC = as(bob);
    await create(annC, 'todos', { owner: ann.user.id, title: 'ann 1' });
    const bobs = await create(bobC, 'todos', { owner: bob.user.id, title: 'bob 1' });
    const annCopy = new TestCopy(annC, 'todos');
    const bobCopy = new TestCopy(bobC, 'todos');
    await annCopy.snapshot();
    await bobCopy.snapshot();
    assert.equal(annCopy.seen.has(bobs.id), false);
    await assertConverged(annCopy, annC, 'todos');
    await assertConverged(bobCopy, bobC, 'todos');
    // While both are away: bob writes and deletes his own, and the backend hands one document from bob to ann and another from ann to bob.
    const secretBob = await create(bobC, 'todos', { owner: bob.user.id, title: 'bob secret' });
    await bobC.patch(`/todos/docs/${secretBob.id}`, { title: 'bob secret 2' }, 200);
    await bobC.delete(`/todos/docs/${secretBob.id}`, 204);
    await secret.patch(`/todos/docs/${bobs.id}`, { owner: ann.user.id }, 200);
    const anns = [...annCopy.visible().keys()][0];
    await secret.patch(`/todos/docs/${anns}`, { owner: bob.user.id }, 200);
    const annAnswer = await syncGet(annC, 'todos', { checkpoint: annCopy.checkpoint as string });
    assert.deepEqual(
      annAnswer.changes.map((x) => [x.op, x.id]),
      [
        ['upsert', bobs.id],
        ['delete', anns],
      ],
    );
    await annCopy.catchUp();
    await bobCopy.catchUp();
    assert.equal(annCopy.seen.has(secretBob.id), false, "bob's document never in ann's view never shows to ann");
    await assertConverged(annCopy, annC, 'todos');
    await assertConverged(bobCopy, bobC, 'todos');
    // A checkpoint is bound to its user (and a secret key is another caller).
    assertError(await bobC.request('GET', `/sync/todos?checkpoint=${annCopy.checkpoint}`), 400, 'invalid_cursor', "ann's checkpoint sent by bob");
    assertError(await secret.request('GET', `/sync/todos?checkpoint=${annCopy.checkpoint}`), 400, 'invalid_cursor', "ann's checkpoint with the secret key");
  });

  test('reset: when the rules change, when the $auth values they use change, when retention removed events after the checkpoint', async () => {
    const annC = as(ann);
    await secret.patch(`/auth/users/${ann.user.id}`, { appMetadata: { team: 'red' } }, 200);
    await create(secret, 'boards', { team: 'red', n: 1 });
    await create(secret, 'boards', { team: 'blue', n: 2 });
    const copy = new TestCopy(annC, 'boards');
    await copy.snapshot();
    assert.equal(copy.visible().size, 1);
    const fresh = await syncGet(annC, 'boards', { checkpoint: copy.checkpoint as string });
    assert.equal(fresh.reset, false);
    await secret.patch(`/auth/users/${ann.user.id}`, { appMetadata: { team: 'blue' } }, 200);
    const afterFacts = await syncGet(annC, 'boards', { checkpoint: copy.checkpoint as string });
    assert.deepEqual([afterFacts.reset, afterFacts.changes], [true, []], 'the $auth value the rule uses changed');
    await copy.catchUp();
    assert.deepEqual(
      [...copy.visible().values()].map((d) => d.team),
      ['blue'],
      'after the reset the client snapshots its new view',
    );
    await secret.put('/rules', { rules: { ...RULES, boards: { read: true } } });
    const afterRules = await syncGet(annC, 'boards', { checkpoint: copy.checkpoint as string });
    assert.equal(afterRules.reset, true, 'the collection rules changed');
    await copy.catchUp();
    await assertConverged(copy, annC, 'boards');
    await secret.put('/rules', { rules: RULES });

    const notes = new TestCopy(secret, 'notes');
    await create(secret, 'notes', { n: 1 });
    await notes.snapshot();
    await create(secret, 'notes', { n: 2 }); // an event after the checkpoint, which retention will remove
    clock.advance(721 * 3600_000);
    await create(secret, 'notes', { n: 3 });
    const cutoff = new Date(clock.now() - t.server.config.eventRetentionHours * 3600_000).toISOString();
    assert.ok((await pruneChangesBefore(t.server.db.store, cutoff, 100_000)) > 0, 'retention pruned events');
    const pruned = await syncGet(secret, 'notes', { checkpoint: notes.checkpoint as string });
    assert.equal(pruned.reset, true, 'an event after the checkpoint is gone');
    assert.deepEqual((await notes.catchUp()).reset, true);
    await assertConverged(notes, secret, 'notes');
    assert.equal((await syncGet(secret, 'notes', { checkpoint: notes.checkpoint as string })).reset, false, 'a new checkpoint works again');
  });

  test('reset: a database exported, deleted and imported anew has no events after the checkpoint', async () => {
    await create(secret, 'moved', { n: 1 });
    const copy = new TestCopy(secret, 'moved');
    await copy.snapshot();
    await create(secret, 'moved', { n: 2 }); // after the checkpoint: the import does not carry past events
    const file = new PassThrough();
    const chunks: Buffer[] = [];
    file.on('data', (c: Buffer) => chunks.push(c));
    await exportDatabase({ databaseUrl: t.server.config.databaseUrl, databaseId: t.db.databaseId, out: file });
    file.end();
    const op = apiClient(t.server, () => t.server.operatorToken());
    await op.delete(`/admin/databases/${t.db.databaseId}`, 204);
    const input = new PassThrough();
    input.end(Buffer.concat(chunks));
    await importDatabase({ databaseUrl: t.server.config.databaseUrl, input });
    const answer = await syncGet(secret, 'moved', { checkpoint: copy.checkpoint as string });
    assert.equal(answer.reset, true, 'the events after the checkpoint are not in the imported database');
    assert.equal((await copy.catchUp()).reset, true);
    await assertConverged(copy, secret, 'moved');
  });

  test('bad requests: limit, cursor with checkpoint, search, a bad filter, tampered tokens, the reserved name', async () => {
    for (const q of ['limit=0', 'limit=1001', 'limit=x']) assertError(await secret.request('GET', `/sync/notes?${q}`), 400, 'validation_failed', q);
    const page = await syncGet(secret, 'notes', { limit: 1 });
    assert.ok(page.nextCursor && page.checkpoint);
    assertError(await secret.request('GET', `/sync/notes?cursor=${page.nextCursor}&checkpoint=${page.checkpoint}`), 400, 'validation_failed', 'both');
    assertError(await secret.request('GET', '/sync/notes?search=x'), 400, 'validation_failed', 'search');
    assertError(await secret.request('GET', '/sync/notes?filter=%7Bx'), 400, 'invalid_filter', 'bad filter');
    assertError(await secret.request('GET', `/sync/notes?checkpoint=${page.nextCursor}`), 400, 'invalid_cursor', 'a cursor as checkpoint');
    assertError(await secret.request('GET', `/sync/notes?cursor=${page.checkpoint}`), 400, 'invalid_cursor', 'a checkpoint as cursor');
    const [body, mac] = (page.checkpoint as string).split('.');
    const forged = Buffer.from(Buffer.from(body, 'base64url').toString().replace(/"\d+"/, '"0"')).toString('base64url');
    assertError(await secret.request('GET', `/sync/notes?checkpoint=${forged}.${mac}`), 400, 'invalid_cursor', 'a forged checkpoint');
    assertError(await secret.request('POST', '/sync/docs', { body: {} }), 400, 'reserved_collection_name', 'no collection is named sync');
    assertError(await secret.request('POST', '/realtime/token', { body: { collections: ['sync'] } }), 400, 'reserved_collection_name', 'sync is reserved');
  });
});
