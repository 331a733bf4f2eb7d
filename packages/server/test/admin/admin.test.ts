import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { errorCode, OPERATOR, useServer } from '../helpers/server.ts';
import { apiClient, assertError } from '../helpers/api.ts';

type Database = { id: string; name: string; createdAt: string; updatedAt: string; settings: Record<string, unknown> };

forEachStore('management API', (kind) => {
  // TRUST_PROXY: the sign-in limit test plays several client addresses with X-Forwarded-For.
  const t = useServer(kind, { env: { TRUST_PROXY: 'true' } });
  const op = apiClient(
    () => t.server,
    () => t.server.operatorToken(),
  );
  /** No credential: sign-in, and the refusals. */
  const anonymous = apiClient(() => t.server);

  test('operator sign-in → 200 {token, operator} with no password material; e-mail is case-insensitive', async () => {
    const r = await anonymous.request('POST', '/admin/sign-in', { body: { email: `  ${OPERATOR.email.toUpperCase()} `, password: OPERATOR.password } });
    assert.equal(r.status, 200);
    const { token, operator } = r.json as { token: string; operator: Record<string, unknown> };
    assert.equal(typeof token, 'string');
    assert.ok(token.length >= 32);
    assert.deepEqual(Object.keys(operator).sort(), ['createdAt', 'email', 'id']);
    assert.equal(operator.email, OPERATOR.email);
    assert.ok(!/password|argon2|hash/i.test(r.text), r.text);
    const me = await apiClient(t.server, token).get<{ operator: { email: string }; publicUrl: string }>('/admin/me');
    assert.equal(me.operator.email, OPERATOR.email);
    assert.equal(me.publicUrl, t.server.config.publicUrl, 'the dashboard shows OAuth callbacks on PUBLIC_URL');
  });

  test('a wrong password or an unknown e-mail → 401 invalid_credentials with the same message', async () => {
    const wrong = await anonymous.request('POST', '/admin/sign-in', { body: { email: OPERATOR.email, password: 'not-the-password' } });
    const unknown = await anonymous.request('POST', '/admin/sign-in', { body: { email: 'nobody@svc.test', password: OPERATOR.password } });
    for (const r of [wrong, unknown]) {
      assertError(r, 401, 'invalid_credentials');
      assert.ok(!('token' in (r.json as object)));
    }
    assert.deepEqual(wrong.json, unknown.json);
    await anonymous.post('/admin/sign-in', { email: OPERATOR.email }, 400);
  });

  test('operator passwords are stored as argon2id hashes', async () => {
    const rows = await t.server.db.store.all<{ email: string; password_hash: string }>('SELECT email, password_hash FROM operators');
    assert.ok(rows.length >= 1);
    for (const row of rows) {
      assert.match(row.password_hash, /^\$argon2id\$v=19\$m=\d+,t=\d+,p=\d+\$/);
      assert.ok(!row.password_hash.includes(OPERATOR.password));
    }
  });

  test('admin routes need an operator token: none → 401, an API key → 403, a bad token → 401, signed out → 401', async () => {
    const db = await t.server.createDatabase();
    const routes: Array<[string, string, unknown]> = [
      ['GET', '/admin/databases', undefined],
      ['POST', '/admin/databases', { name: 'x' }],
      ['GET', `/admin/databases/${db.databaseId}`, undefined],
      ['PATCH', `/admin/databases/${db.databaseId}`, { name: 'y' }],
      ['DELETE', `/admin/databases/${db.databaseId}`, undefined],
      ['GET', `/admin/databases/${db.databaseId}/keys`, undefined],
      ['POST', `/admin/databases/${db.databaseId}/keys`, { kind: 'secret' }],
      ['DELETE', `/admin/databases/${db.databaseId}/keys/${db.secretKeyId}`, undefined],
      ['GET', '/admin/me', undefined],
    ];
    for (const [method, path, body] of routes) {
      assertError(await anonymous.request(method, path, { body }), 401, 'missing_api_key', `${method} ${path} without a token`);
      for (const key of [db.secretKey, db.publicKey]) {
        assertError(await anonymous.request(method, path, { key, body }), 403, 'forbidden', `${method} ${path} with an API key`);
      }
      const bad = await anonymous.request(method, path, { key: `svc_op_${'x'.repeat(43)}`, body });
      assert.equal(bad.status, 401, `${method} ${path} with an unknown operator token`);
    }
    await op.get(`/admin/databases/${db.databaseId}`); // nothing was deleted
    await apiClient(t.server, db.secretKey).get('/posts/docs'); // nor revoked

    const session = apiClient(t.server, (await anonymous.post<{ token: string }>('/admin/sign-in', OPERATOR, 200)).token);
    await session.post('/admin/sign-out', undefined, 204);
    await session.get('/admin/databases', 401);
    await op.get('/admin/databases'); // other sessions live on
  });

  test('databases: create (first secret key shown once), list, get, rename, delete', async () => {
    const { database, key } = await op.post<{ database: Database; key: { id: string; kind: string; key: string } }>('/admin/databases', { name: 'Shop' }, 201);
    assert.equal(database.name, 'Shop');
    assert.match(database.createdAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    assert.equal(key.kind, 'secret');
    assert.match(key.key, /^svc_sk_[A-Za-z0-9]{32,}$/);
    await apiClient(t.server, key.key).post('/items/docs', { a: 1 }, 201); // the first key works

    const listed = (await op.get<{ databases: Database[] }>('/admin/databases')).databases;
    assert.deepEqual(
      listed.find((d) => d.id === database.id),
      database,
    );
    const got = await op.request('GET', `/admin/databases/${database.id}`);
    assert.equal(got.status, 200);
    assert.deepEqual((got.json as { database: Database }).database, database);
    assert.ok(!got.text.includes(key.key), 'the secret key is shown once only');

    const renamed = await op.patch<{ database: Database }>(`/admin/databases/${database.id}`, { name: 'Shop 2' });
    assert.equal(renamed.database.name, 'Shop 2');
    assert.equal((await op.get<{ database: Database }>(`/admin/databases/${database.id}`)).database.name, 'Shop 2');

    for (const body of [{ name: '' }, { name: '   ' }, { name: 'x'.repeat(101) }, { name: null }, {}]) {
      assert.equal((await op.request('POST', '/admin/databases', { body })).status, 400, JSON.stringify(body));
    }
    await op.patch(`/admin/databases/${database.id}`, { name: '' }, 400);
    await op.patch(`/admin/databases/${database.id}`, { other: 1 }, 400);

    await op.delete(`/admin/databases/${database.id}`, 204);
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { name: 'z' }],
      ['DELETE', undefined],
    ] as const) {
      assertError(await op.request(method, `/admin/databases/${database.id}`, { body }), 404, 'not_found', method);
    }
    await op.get(`/admin/databases/${database.id}/keys`, 404);
    await op.post(`/admin/databases/${database.id}/keys`, { kind: 'public' }, 404);
    const after = (await op.get<{ databases: Database[] }>('/admin/databases')).databases;
    assert.ok(!after.some((d) => d.id === database.id));
  });

  test('another operator can be created and signs in', async () => {
    const second = { email: 'second@svc.test', password: 'second-password' };
    const r = await op.request('POST', '/admin/operators', { body: second });
    assert.equal(r.status, 201);
    assert.ok(!/password/i.test(r.text));
    await op.post('/admin/operators', second, 409);
    await anonymous.post('/admin/sign-in', second, 200);
  });

  test('operator sign-in: 10 failures from one IP, then 429 there even with the right password; another IP signs in', async () => {
    const body = { email: 'guarded@svc.test', password: 'guarded-password' };
    await op.post('/admin/operators', body, 201);
    const signIn = (password: string, ip: string) =>
      anonymous.request('POST', '/admin/sign-in', { body: { email: body.email, password }, headers: { 'x-forwarded-for': ip } });
    for (let i = 0; i < 10; i += 1) assert.equal(errorCode(await signIn(`guess-number-${i}`, '10.9.9.1')), 'invalid_credentials');
    const limited = await signIn(body.password, '10.9.9.1');
    assertError(limited, 429, 'rate_limited');
    const retryAfter = (limited.json as { retryAfter: number }).retryAfter;
    assert.ok(retryAfter > 0 && retryAfter <= 15 * 60, `retryAfter ${retryAfter}`);
    assert.equal(limited.headers.get('retry-after'), String(retryAfter));
    assert.ok(!('token' in (limited.json as object)));
    assert.equal(
      errorCode(
        await anonymous.request('POST', '/admin/sign-in', {
          body: { email: ' Guarded@SVC.test ', password: body.password },
          headers: { 'x-forwarded-for': '10.9.9.1' },
        }),
      ),
      'rate_limited',
      'the e-mail as typed names the same account',
    );
    assert.equal((await signIn(body.password, '10.9.9.2')).status, 200, 'another IP is not affected');
    assert.equal(
      (await anonymous.request('POST', '/admin/sign-in', { body: OPERATOR, headers: { 'x-forwarded-for': '10.9.9.1' } })).status,
      200,
      'another operator from that IP is not affected',
    );
  });
});
