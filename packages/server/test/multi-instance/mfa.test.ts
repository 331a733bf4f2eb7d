import { describe, after, before, test } from 'node:test';
import { missingServices, postgresTestStore, type TestStore } from '../helpers/stores.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { apiClient, assertError, assertStatus } from '../helpers/api.ts';
import { newUser } from '../helpers/auth-client.ts';
import { addTotp } from '../helpers/mfa.ts';
import { ManualClock } from '../../src/infra/clock.ts';

/**
 * API.md §2.2 on two instances sharing one PostgreSQL and one Redis: an mfaToken made on A
 * completes on B, and wrong codes count per account across both (5 on A + 5 on B → 429 on either).
 */
describe('second factors on two instances (PostgreSQL and Redis)', { skip: await missingServices({ postgres: true, redis: true }) }, () => {
  const clock = new ManualClock();
  let db: TestStore;
  let a: TestServer;
  let b: TestServer;
  let keys: { databaseId: string; publicKey: string; secretKey: string };
  before(async () => {
    db = await postgresTestStore();
    a = await startServer('postgres', { db, redis: true, clock });
    b = await startServer('postgres', { db, redis: true, clock });
    keys = await a.createDatabase('two');
  });
  after(async () => {
    await a?.close();
    await b?.close();
    await db?.drop();
  });

  test('an mfaToken of A completes on B; wrong codes on both count together', async () => {
    const u = await newUser(a, keys.publicKey, `two-${Date.now()}@example.com`, 'correct horse battery');
    await apiClient(a, keys.secretKey).patch(`/auth/users/${u.user.id}`, { emailVerified: true });
    const f = await addTotp(a, keys.publicKey, u.session.token, clock);
    const signIn = async (on: TestServer) =>
      (await apiClient(on, keys.publicKey).post<{ mfa: { token: string } }>('/auth/sign-in', { email: u.user.email, password: 'correct horse battery' }, 200))
        .mfa.token;
    const challenge = (on: TestServer, body: Record<string, string>) => apiClient(on, keys.publicKey).request('POST', '/auth/mfa/challenge', { body });

    assertStatus(await challenge(b, { mfaToken: await signIn(a), code: f.device.next() }), 200, 'made on A, completed on B');
    for (const on of [a, b]) {
      const token = await signIn(on);
      for (let i = 0; i < 5; i += 1) assertError(await challenge(on, { mfaToken: token, code: f.device.wrong() }), 401, 'invalid_mfa_code');
    }
    for (const on of [a, b]) assertError(await challenge(on, { mfaToken: await signIn(on), code: f.device.next() }), 429, 'rate_limited');
  });
});
