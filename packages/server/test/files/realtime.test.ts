import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { useServer } from '../helpers/server.ts';
import { apiClient } from '../helpers/api.ts';
import { newUser } from '../helpers/auth-client.ts';
import { openWs } from '../helpers/ws.ts';
import { forEachStore } from '../helpers/stores.ts';
import { bytesEnv, send } from './helpers.ts';

/** API.md §12 "Events": realtime tokens may name files/<bucket>; frames carry "file"; §10's visibility for files. */
forEachStore('files: realtime', (kind) => {
  const t = useServer(kind, () => ({ env: bytesEnv('local') }));

  test('a user\'s socket on files/<bucket> hears only the files the read rule lets it see, as "file" frames', async () => {
    const secret = apiClient(
      () => t.server,
      () => t.db.secretKey,
    );
    const own = { $auth: 'id' };
    await secret.put('/rules', { rules: { 'files/docs': { read: { owner: own }, create: { owner: own }, update: { owner: own } } } });
    const ann = await newUser(t.server, t.db.publicKey, 'ann@rt-files.test');
    const bob = await newUser(t.server, t.db.publicKey, 'bob@rt-files.test');
    const tokenFor = async (session: string) =>
      (
        await apiClient(t.server, t.db.publicKey).post<{ url: string }>('/realtime/token', { collections: ['files/docs'] }, 201, {
          headers: { 'x-session-token': session },
        })
      ).url;
    const annWs = await openWs(await tokenFor(ann.session.token));
    const bobWs = await openWs(await tokenFor(bob.session.token));
    const adminWs = await openWs((await secret.post<{ url: string }>('/realtime/token', { collections: ['files/docs'] }, 201)).url);
    const upload = (session: string, name: string) =>
      send(t.server, 'POST', '/files/docs', {
        key: t.db.publicKey,
        body: randomBytes(10),
        headers: { 'content-type': 'application/octet-stream', 'x-session-token': session },
        query: { name },
      });
    const a = await upload(ann.session.token, 'ann.bin');
    const b = await upload(bob.session.token, 'bob.bin');
    assert.deepEqual([a.status, b.status], [201, 201]);
    await adminWs.waitFor((m) => m.type === 'event', 2);
    await annWs.waitFor((m) => m.type === 'event' && m.file?.name === 'ann.bin');
    await bobWs.waitFor((m) => m.type === 'event' && m.file?.name === 'bob.bin');
    const [annEvent] = annWs.events();
    assert.equal(annEvent.event, 'file.created');
    assert.equal(annEvent.collection, 'files/docs');
    assert.deepEqual(annEvent.file, a.json);
    assert.equal(annEvent.document, undefined);
    assert.deepEqual(
      annWs.events().map((e) => e.file.name),
      ['ann.bin'],
      "ann never hears of bob's file",
    );
    assert.deepEqual(
      bobWs.events().map((e) => e.file.name),
      ['bob.bin'],
    );
    for (const ws of [annWs, bobWs, adminWs]) await ws.close();
  });
});
