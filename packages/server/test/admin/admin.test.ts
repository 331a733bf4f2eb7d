import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { errorCode, OPERATOR, request, startServer, type TestServer } from '../helpers/server.ts';

type Database = { id: string; name: string; createdAt: string; updatedAt: string; settings: Record<string, unknown> };

forEachStore('management API', (kind) => {
  let server: TestServer;
  let op: string;
  before(async () => {
    // TRUST_PROXY: the sign-in limit test plays several client addresses with X-Forwarded-For.
    server = await startServer(kind, { env: { TRUST_PROXY: 'true' } });
    op = await server.operatorToken();
  });
  after(() => server.close());

  test('operator sign-in → 200 {token, operator} with no password material; e-mail is case-insensitive', async () => {
    const r = await request(server, 'POST', '/admin/sign-in', { body: { email: `  ${OPERATOR.email.toUpperCase()} `, password: OPERATOR.password } });
    assert.equal(r.status, 200);
    const { token, operator } = r.json as { token: string; operator: Record<string, unknown> };
    assert.equal(typeof token, 'string');
    assert.ok(token.length >= 32);
    assert.deepEqual(Object.keys(operator).sort(), ['createdAt', 'email', 'id']);
    assert.equal(operator.email, OPERATOR.email);
    assert.ok(!/password|argon2|hash/i.test(r.text), r.text);
    const me = await request(server, 'GET', '/admin/me', { key: token });
    assert.equal((me.json as { operator: { email: string } }).operator.email, OPERATOR.email);
    assert.equal((me.json as { publicUrl: string }).publicUrl, server.config.publicUrl, 'the dashboard shows OAuth callbacks on PUBLIC_URL');
  });

  test('a wrong password or an unknown e-mail → 401 invalid_credentials with the same message', async () => {
    const wrong = await request(server, 'POST', '/admin/sign-in', { body: { email: OPERATOR.email, password: 'not-the-password' } });
    const unknown = await request(server, 'POST', '/admin/sign-in', { body: { email: 'nobody@svc.test', password: OPERATOR.password } });
    for (const r of [wrong, unknown]) {
      assert.equal(r.status, 401);
      assert.equal(errorCode(r), 'invalid_credentials');
      assert.ok(!('token' in (r.json as object)));
    }
    assert.deepEqual(wrong.json, unknown.json);
    assert.equal((await request(server, 'POST', '/admin/sign-in', { body: { email: OPERATOR.email } })).status, 400);
  });

  test('operator passwords are stored as argon2id hashes', async () => {
    const rows = await server.db.store.all<{ email: string; password_hash: string }>('SELECT email, password_hash FROM operators');
    assert.ok(rows.length >= 1);
    for (const row of rows) {
      assert.match(row.password_hash, /^\$argon2id\$v=19\$m=\d+,t=\d+,p=\d+\$/);
      assert.ok(!row.password_hash.includes(OPERATOR.password));
    }
  });

  test('admin routes need an operator token: none → 401, an API key → 403, a bad token → 401, signed out → 401', async () => {
    const db = await server.createDatabase();
    const routes: Array<[string, string, unknown]> = [
      ['GET', '/admin/databases', undefined], ['POST', '/admin/databases', { name: 'x' }], ['GET', `/admin/databases/${db.databaseId}`, undefined],
      ['PATCH', `/admin/databases/${db.databaseId}`, { name: 'y' }], ['DELETE', `/admin/databases/${db.databaseId}`, undefined],
      ['GET', `/admin/databases/${db.databaseId}/keys`, undefined], ['POST', `/admin/databases/${db.databaseId}/keys`, { kind: 'secret' }],
      ['DELETE', `/admin/databases/${db.databaseId}/keys/${db.secretKeyId}`, undefined], ['GET', '/admin/me', undefined],
    ];
    for (const [method, path, body] of routes) {
      const none = await request(server, method, path, { body });
      assert.equal(none.status, 401, `${method} ${path} without a token`);
      assert.equal(errorCode(none), 'missing_api_key');
      for (const key of [db.secretKey, db.publicKey]) {
        const r = await request(server, method, path, { key, body });
        assert.equal(r.status, 403, `${method} ${path} with an API key`);
        assert.equal(errorCode(r), 'forbidden');
      }
      const bad = await request(server, method, path, { key: `svc_op_${'x'.repeat(43)}`, body });
      assert.equal(bad.status, 401, `${method} ${path} with an unknown operator token`);
    }
    assert.equal((await request(server, 'GET', `/admin/databases/${db.databaseId}`, { key: op })).status, 200, 'nothing was deleted');
    assert.equal((await request(server, 'GET', '/posts/docs', { key: db.secretKey })).status, 200, 'nor revoked');

    const session = ((await request(server, 'POST', '/admin/sign-in', { body: OPERATOR })).json as { token: string }).token;
    assert.equal((await request(server, 'POST', '/admin/sign-out', { key: session })).status, 204);
    assert.equal((await request(server, 'GET', '/admin/databases', { key: session })).status, 401);
    assert.equal((await request(server, 'GET', '/admin/databases', { key: op })).status, 200, 'other sessions live on');
  });

  test('databases: create (first secret key shown once), list, get, rename, delete', async () => {
    const c = await request(server, 'POST', '/admin/databases', { key: op, body: { name: 'Shop' } });
    assert.equal(c.status, 201);
    const { database, key } = c.json as { database: Database; key: { id: string; kind: string; key: string } };
    assert.equal(database.name, 'Shop');
    assert.match(database.createdAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    assert.equal(key.kind, 'secret');
    assert.match(key.key, /^svc_sk_[A-Za-z0-9]{32,}$/);
    assert.equal((await request(server, 'POST', '/items/docs', { key: key.key, body: { a: 1 } })).status, 201, 'the first key works');

    const listed = ((await request(server, 'GET', '/admin/databases', { key: op })).json as { databases: Database[] }).databases;
    assert.deepEqual(listed.find((d) => d.id === database.id), database);
    const got = await request(server, 'GET', `/admin/databases/${database.id}`, { key: op });
    assert.deepEqual((got.json as { database: Database }).database, database);
    assert.ok(!got.text.includes(key.key), 'the key is shown once only');

    const renamed = await request(server, 'PATCH', `/admin/databases/${database.id}`, { key: op, body: { name: 'Shop 2' } });
    assert.equal(renamed.status, 200);
    assert.equal((renamed.json as { database: Database }).database.name, 'Shop 2');
    assert.equal(((await request(server, 'GET', `/admin/databases/${database.id}`, { key: op })).json as { database: Database }).database.name, 'Shop 2');

    for (const body of [{ name: '' }, { name: '   ' }, { name: 'x'.repeat(101) }, { name: null }, {}]) {
      assert.equal((await request(server, 'POST', '/admin/databases', { key: op, body })).status, 400, JSON.stringify(body));
    }
    assert.equal((await request(server, 'PATCH', `/admin/databases/${database.id}`, { key: op, body: { name: '' } })).status, 400);
    assert.equal((await request(server, 'PATCH', `/admin/databases/${database.id}`, { key: op, body: { other: 1 } })).status, 400);

    assert.equal((await request(server, 'DELETE', `/admin/databases/${database.id}`, { key: op })).status, 204);
    for (const [method, body] of [['GET', undefined], ['PATCH', { name: 'z' }], ['DELETE', undefined]] as const) {
      const r = await request(server, method, `/admin/databases/${database.id}`, { key: op, body });
      assert.equal(r.status, 404, method);
      assert.equal(errorCode(r), 'not_found');
    }
    assert.equal((await request(server, 'GET', `/admin/databases/${database.id}/keys`, { key: op })).status, 404);
    assert.equal((await request(server, 'POST', `/admin/databases/${database.id}/keys`, { key: op, body: { kind: 'public' } })).status, 404);
    const after = ((await request(server, 'GET', '/admin/databases', { key: op })).json as { databases: Database[] }).databases;
    assert.ok(!after.some((d) => d.id === database.id));
  });

  test('another operator can be created and signs in', async () => {
    const r = await request(server, 'POST', '/admin/operators', { key: op, body: { email: 'second@svc.test', password: 'second-password' } });
    assert.equal(r.status, 201);
    assert.ok(!/password/i.test(r.text));
    assert.equal((await request(server, 'POST', '/admin/operators', { key: op, body: { email: 'second@svc.test', password: 'second-password' } })).status, 409);
    assert.equal((await request(server, 'POST', '/admin/sign-in', { body: { email: 'second@svc.test', password: 'second-password' } })).status, 200);
  });

  test('operator sign-in: 10 failures from one IP, then 429 there even with the right password; another IP signs in', async () => {
    const body = { email: 'guarded@svc.test', password: 'guarded-password' };
    assert.equal((await request(server, 'POST', '/admin/operators', { key: op, body })).status, 201);
    const signIn = (password: string, ip: string) =>
      request(server, 'POST', '/admin/sign-in', { body: { email: body.email, password }, headers: { 'x-forwarded-for': ip } });
    for (let i = 0; i < 10; i += 1) assert.equal(errorCode(await signIn(`guess-number-${i}`, '10.9.9.1')), 'invalid_credentials');
    const limited = await signIn(body.password, '10.9.9.1');
    assert.equal(limited.status, 429, limited.text);
    assert.equal(errorCode(limited), 'rate_limited');
    const retryAfter = (limited.json as { retryAfter: number }).retryAfter;
    assert.ok(retryAfter > 0 && retryAfter <= 15 * 60, `retryAfter ${retryAfter}`);
    assert.equal(limited.headers.get('retry-after'), String(retryAfter));
    assert.ok(!('token' in (limited.json as object)));
    assert.equal(errorCode(await request(server, 'POST', '/admin/sign-in', { body: { email: ' Guarded@SVC.test ', password: body.password }, headers: { 'x-forwarded-for': '10.9.9.1' } })), 'rate_limited', 'the e-mail as typed names the same account');
    assert.equal((await signIn(body.password, '10.9.9.2')).status, 200, 'another IP is not affected');
    assert.equal((await request(server, 'POST', '/admin/sign-in', { body: OPERATOR, headers: { 'x-forwarded-for': '10.9.9.1' } })).status, 200, 'another operator from that IP is not affected');
  });
});
