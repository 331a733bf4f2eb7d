import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { forEachStore, openTestStore, type TestStore } from '../helpers/stores.ts';
import { request, startServer, type TestServer } from '../helpers/server.ts';

const run = promisify(execFile);
const BIN = fileURLToPath(new URL('../../bin/svc.js', import.meta.url));

/** Runs `svc …` against a store; returns stdout parsed as JSON. */
async function svc(db: TestStore, ...args: string[]): Promise<any> {
  const { stdout } = await run(process.execPath, [BIN, '--json', ...args], { env: { ...process.env, DATABASE_URL: db.url } });
  return JSON.parse(stdout);
}

forEachStore('svc CLI', (kind) => {
  let db: TestStore;
  let server: TestServer;
  before(async () => {
    db = await openTestStore(kind);
    server = await startServer(kind, { db });
  });
  after(async () => {
    await server.close();
    await db.drop();
  });

  test('operator create, database create/list, key create/list/revoke with --json; the keys work over HTTP', async () => {
    const { operator } = await svc(db, 'operator', 'create', '--email', 'cli@svc.test', '--password', 'cli-password-1');
    assert.equal(operator.email, 'cli@svc.test');
    const signIn = await request(server, 'POST', '/admin/sign-in', { body: { email: 'cli@svc.test', password: 'cli-password-1' } });
    assert.equal(signIn.status, 200, 'the operator made by the CLI signs in');

    const created = await svc(db, 'database', 'create', '--name', 'cli-app');
    assert.match(created.key.key, /^svc_sk_[A-Za-z0-9]{32,}$/);
    const { databases } = await svc(db, 'database', 'list');
    assert.ok(databases.some((d: { id: string }) => d.id === created.database.id));

    const pub = await svc(db, 'key', 'create', '--database', created.database.id, '--kind', 'public', '--name', 'web');
    assert.match(pub.key, /^svc_pk_/);
    assert.equal((await request(server, 'GET', '/x/docs', { key: pub.key })).status, 200, 'the public key reads');
    assert.equal((await request(server, 'POST', '/x/docs', { key: created.key.key, body: { a: 1 } })).status, 201, 'the first secret key writes');

    const { keys } = await svc(db, 'key', 'list', '--database', created.database.id);
    assert.equal(keys.length, 2);
    assert.ok(!JSON.stringify(keys).includes(pub.key), 'listings never show a key');
    await svc(db, 'key', 'revoke', '--database', created.database.id, '--key', pub.id);
    assert.equal((await request(server, 'GET', '/x/docs', { key: pub.key })).status, 401, 'the revoked key stops working');
  });

  test('errors exit non-zero with a JSON error', async () => {
    await assert.rejects(svc(db, 'key', 'list', '--database', 'nope'), (e: { code: number; stderr: string }) => {
      assert.equal(e.code, 1);
      assert.equal(JSON.parse(e.stderr).error.code, 'not_found');
      return true;
    });
    await assert.rejects(svc(db, 'key', 'create', '--database', 'nope', '--kind', 'root'));
  });
});
