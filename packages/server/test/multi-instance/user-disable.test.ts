import { describe, before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { missingServices, postgresTestStore, type TestStore } from '../helpers/stores.ts';
import { OPERATOR } from '../helpers/server.ts';
import { startProcess, type ServerProcess } from '../helpers/process.ts';
import { apiClient, assertError } from '../helpers/api.ts';
import { withSession, type SignedIn } from '../helpers/auth-client.ts';
import { openWs } from '../helpers/ws.ts';
import { closeCode } from '../realtime/upgrade.ts';

const PASSWORD = 'correct horse battery';

/**
 * API.md §2.1 on several instances without Redis: a user disabled or deleted through A loses, on
 * B, the session B just used (from the next request) and the socket B holds for them (4401).
 */
describe('two instances on one PostgreSQL: a user disabled or deleted on A is signed out on B', { skip: await missingServices({ postgres: true }) }, () => {
  let db: TestStore;
  let a: ServerProcess;
  let b: ServerProcess;
  let keys: { secret: string; public: string };

  before(async () => {
    db = await postgresTestStore();
    [a, b] = await Promise.all([startProcess({ DATABASE_URL: db.url }), startProcess({ DATABASE_URL: db.url })]);
    const { token } = await apiClient(a).post<{ token: string }>('/admin/sign-in', OPERATOR, 200);
    const created = await apiClient(a, token).post<{ key: { key: string }; publicKey: { key: string } }>('/admin/databases', { name: 'users' }, 201);
    keys = { secret: created.key.key, public: created.publicKey.key };
  });
  after(async () => {
    await Promise.all([a?.kill('SIGTERM'), b?.kill('SIGTERM')]);
    await db?.drop();
  });

  for (const how of ['disabled', 'deleted'] as const) {
    test(`${how} on A: B refuses the session at once and closes the user's socket with 4401`, async () => {
      const onB = apiClient(b, keys.public);
      const user = await onB.post<SignedIn>('/auth/sign-up', { email: `${how}@example.com`, password: PASSWORD }, 201);
      await onB.get('/auth/me', 200, withSession(user.session.token)); // B now holds the session in its cache
      const { url } = await onB.post<{ url: string }>('/realtime/token', { collections: ['notes'] }, 201, withSession(user.session.token));
      const socket = await openWs(url);
      await socket.waitFor((m) => m.type === 'ready');

      const onA = apiClient(a, keys.secret);
      if (how === 'disabled') await onA.patch(`/auth/users/${user.user.id}`, { disabled: true });
      else await onA.delete(`/auth/users/${user.user.id}`);

      assertError(await onB.request('GET', '/auth/me', withSession(user.session.token)), 401, 'invalid_session');
      assert.equal(await closeCode(socket.closed), 4401);
      assertError(await onB.request('POST', '/auth/sign-in', { body: { email: `${how}@example.com`, password: PASSWORD } }), 401, 'invalid_credentials');
    });
  }
});
