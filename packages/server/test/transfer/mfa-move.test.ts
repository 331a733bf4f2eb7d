import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { missingServices, openTestStore, type TestStore } from '../helpers/stores.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { apiClient, assertError, assertStatus } from '../helpers/api.ts';
import { newUser } from '../helpers/auth-client.ts';
import { addTotp, codeAt } from '../helpers/mfa.ts';
import { ManualClock } from '../../src/infra/clock.ts';
import { pipeExportImport } from './cli.ts';

/**
 * API.md §11 (third version): an export carries second factors and recovery-code hashes, so a
 * database moved SQLite → PostgreSQL still asks its users for their code, takes their recovery
 * codes, and still refuses a code it accepted before the move.
 */
describe('svc export | svc import carries second factors', async () => {
  const missing = await missingServices({ postgres: true });
  if (missing) {
    test('moving factors', { skip: missing }, () => undefined);
    return;
  }
  const servers: TestServer[] = [];
  const stores: TestStore[] = [];
  after(async () => {
    for (const s of servers) await s.close();
    for (const s of stores) await s.drop();
  });

  test('a TOTP factor and its recovery codes work after the move; the last accepted step moves with them', async () => {
    const clock = new ManualClock();
    const from = await startServer('sqlite', { clock });
    servers.push(from);
    const db = await from.createDatabase('Moving');
    const u = await newUser(from, db.publicKey, 'mover@example.com', 'correct horse battery');
    await apiClient(from, db.secretKey).patch(`/auth/users/${u.user.id}`, { emailVerified: true });
    const f = await addTotp(from, db.publicKey, u.session.token, clock);
    const usedCode = codeAt(f.secret, clock.now());
    // A passkey row as registration writes it (the ceremony itself is tested in Chromium: test/auth/passkeys-browser.test.ts).
    await from.db.store.run(
      "INSERT INTO passkeys (id, database_id, user_id, credential_id, public_key, counter, name, created_at) VALUES ('pk1', ?, ?, 'cred-1', 'pub', 7, 'Laptop', ?)",
      [db.databaseId, u.user.id, new Date(clock.now()).toISOString()],
    );

    const target = await openTestStore('postgres');
    stores.push(target);
    const { exported, imported } = await pipeExportImport(from.db.url, target.url, db.databaseId);
    assert.equal(exported.code, 0, exported.stderr);
    assert.equal(imported.code, 0, imported.stderr);

    const to = await startServer('postgres', { db: target, clock });
    servers.push(to);
    const pub = apiClient(to, db.publicKey);
    const signIn = async () => {
      const r = await pub.post<{ mfa?: { token: string } }>('/auth/sign-in', { email: 'mover@example.com', password: 'correct horse battery' }, 200);
      assert.ok(r.mfa, 'the second step is still due');
      return r.mfa.token;
    };
    assertError(await pub.request('POST', '/auth/mfa/challenge', { body: { mfaToken: await signIn(), code: usedCode } }), 401, 'invalid_mfa_code');
    assertStatus(
      await pub.request('POST', '/auth/mfa/challenge', { body: { mfaToken: await signIn(), recoveryCode: f.recoveryCodes[0] } }),
      200,
      'recovery code',
    );
    const done = await pub.request('POST', '/auth/mfa/challenge', { body: { mfaToken: await signIn(), code: f.device.next() } });
    assertStatus(done, 200, 'a new code');
    const session = (done.json as { session: { token: string } }).session.token;
    const passkeys = await pub.get<{ passkeys: Array<{ id: string; name: string }> }>('/auth/passkeys', 200, { headers: { 'x-session-token': session } });
    assert.deepEqual(
      passkeys.passkeys.map((p) => [p.id, p.name]),
      [['pk1', 'Laptop']],
    );
    const counter = await target.store.get<{ counter: number | string }>('SELECT counter FROM passkeys WHERE id = ?', ['pk1']);
    assert.equal(Number(counter?.counter), 7, 'the signature counter moves with it');
  });
});
