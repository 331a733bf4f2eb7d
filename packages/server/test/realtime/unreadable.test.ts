// A socket whose token can see nothing of a collection says so in `ready`: a public-key
// token of nobody under a rule that needs a signed-in user, or any token under a read rule that is
// false or absent, is told `unreadable`, instead of an open socket that stays silent.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { useServer } from '../helpers/server.ts';
import { apiClient } from '../helpers/api.ts';
import { openWs } from '../helpers/ws.ts';
import { newUser, type SignedIn } from '../helpers/auth-client.ts';

forEachStore('realtime: unreadable collections in ready', (kind) => {
  const t = useServer(kind);
  const secret = apiClient(
    () => t.server,
    () => t.db.secretKey,
  );
  let ann: SignedIn;

  before(async () => {
    await secret.put('/rules', {
      rules: { todos: { read: { owner: { $auth: 'id' } } }, members: { read: 'signedIn' }, open: { read: true }, closed: { create: true } },
    });
    ann = await newUser(t.server, t.db.publicKey, 'ann@unreadable.test');
  });

  const readyOf = async (key: string, session?: string) => {
    const headers = session ? { 'x-session-token': session } : undefined;
    const rt = await secret.post<{ url: string }>('/realtime/token', { collections: ['todos', 'members', 'open', 'closed'] }, 201, { key, headers });
    const ws = await openWs(rt.url);
    const [ready] = await ws.waitFor((m) => m.type === 'ready');
    ws.close();
    return ready;
  };

  test('public key, nobody signed in: every collection whose rule needs a user or refuses is unreadable', async () => {
    assert.deepEqual(await readyOf(t.db.publicKey), {
      type: 'ready',
      collections: ['todos', 'members', 'open', 'closed'],
      unreadable: ['todos', 'members', 'closed'],
    });
  });

  test('public key with a session: only the collection whose read rule is absent', async () => {
    assert.deepEqual((await readyOf(t.db.publicKey, ann.session.token)).unreadable, ['closed']);
  });

  test('secret key: rules do not bind it, nothing is unreadable (ready as before)', async () => {
    assert.deepEqual(await readyOf(t.db.secretKey), { type: 'ready', collections: ['todos', 'members', 'open', 'closed'] });
  });
});
