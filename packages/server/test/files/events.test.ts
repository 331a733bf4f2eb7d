import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/server.ts';
import { apiClient } from '../helpers/api.ts';
import { eventually } from '../helpers/eventually.ts';
import { forEachStore } from '../helpers/stores.ts';
import { startReceiver, type Receiver } from '../webhooks/receiver.ts';
import { bytesEnv, send, uploadRaw } from './helpers.ts';

/** API.md §12 "Events": file.* enter the change log and reach webhooks with "file" in place of "document". */
forEachStore('files: events', (kind) => {
  const t = useServer(kind, () => ({ env: { ...bytesEnv('local'), WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_RETRY_BASE_MS: '50' } }));
  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver();
  });
  after(() => receiver.close());

  test('created, updated and deleted files reach a webhook on files/<bucket>; the record is "file", versions are the event ids', async () => {
    const api = apiClient(
      () => t.server,
      () => t.db.secretKey,
    );
    await api.post('/webhooks', { url: receiver.url, events: ['file.created', 'file.updated', 'file.deleted'], collections: ['files/pics'] }, 201);
    const other = await uploadRaw(t.server, t.db.secretKey, 'other', Buffer.from('x'), 'x.txt', 'text/plain');
    assert.equal(other.status, 201);
    const up = await uploadRaw(t.server, t.db.secretKey, 'pics', Buffer.from('hello'), 'a.txt', 'text/plain');
    const patched = await send(t.server, 'PATCH', `/files/pics/${up.json.id}`, {
      key: t.db.secretKey,
      body: JSON.stringify({ name: 'b.txt' }),
      headers: { 'content-type': 'application/json' },
    });
    assert.equal((await send(t.server, 'DELETE', `/files/pics/${up.json.id}`, { key: t.db.secretKey })).status, 204);
    const bodies = () => receiver.received.map((r) => JSON.parse(r.body)).filter((b) => b.database === t.db.databaseId);
    await eventually(() => bodies().length >= 3, { what: 'three deliveries' });
    const got = bodies().sort((a, b) => Number(a.id) - Number(b.id));
    assert.deepEqual(
      got.map((b) => [b.type, b.collection]),
      [
        ['file.created', 'files/pics'],
        ['file.updated', 'files/pics'],
        ['file.deleted', 'files/pics'],
      ],
    );
    assert.deepEqual(got[0].file, up.json);
    assert.equal(got[0].document, undefined);
    assert.equal(`"${got[0].id}"`, up.headers.get('etag'), "the file's version is its event's id");
    assert.equal(got[1].file.name, 'b.txt');
    assert.equal(got[1].previous.name, 'a.txt');
    assert.equal(`"${got[1].id}"`, patched.headers.get('etag'));
    const types = t.server.changes.filter((c) => c.databaseId === t.db.databaseId).map((c) => c.type);
    assert.deepEqual(types, ['file.created', 'file.created', 'file.updated', 'file.deleted'], 'every file write is announced once committed');
  });
});
