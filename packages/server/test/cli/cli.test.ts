import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { forEachStore, type TestStore } from '../helpers/stores.ts';
import { useServer } from '../helpers/server.ts';
import { apiClient } from '../helpers/api.ts';

const run = promisify(execFile);
const BIN = fileURLToPath(new URL('../../bin/svc.js', import.meta.url));

/** Runs `svc …` against a store; returns stdout parsed as JSON. */
async function svc(db: TestStore, ...args: string[]): Promise<any> {
  const { stdout } = await run(process.execPath, [BIN, '--json', ...args], { env: { ...process.env, DATABASE_URL: db.url } });
  return JSON.parse(stdout);
}

forEachStore('svc CLI', (kind) => {
  const t = useServer(kind);
  const as = (key?: string) => apiClient(() => t.server, key);

  test('operator create, database create/list, key create/list/revoke with --json; the keys work over HTTP', async () => {
    const db = t.server.db;
    const { operator } = await svc(db, 'operator', 'create', '--email', 'cli@svc.test', '--password', 'cli-password-1');
    assert.equal(operator.email, 'cli@svc.test');
    await as().post('/admin/sign-in', { email: 'cli@svc.test', password: 'cli-password-1' }, 200); // the operator made by the CLI signs in

    const created = await svc(db, 'database', 'create', '--name', 'cli-app');
    assert.match(created.key.key, /^svc_sk_[A-Za-z0-9]{32,}$/);
    assert.match(created.publicKey.key, /^svc_pk_[A-Za-z0-9]{32,}$/); // both keys: the public one for browser code
    const { databases } = await svc(db, 'database', 'list');
    assert.ok(databases.some((d: { id: string }) => d.id === created.database.id));

    const pub = await svc(db, 'key', 'create', '--database', created.database.id, '--kind', 'public', '--name', 'web');
    assert.match(pub.key, /^svc_pk_/);
    await as(pub.key).get('/x/docs', 200); // the public key reads
    await as(created.key.key).post('/x/docs', { a: 1 }, 201); // the first secret key writes

    const { keys } = await svc(db, 'key', 'list', '--database', created.database.id);
    assert.equal(keys.length, 3);
    assert.deepEqual(
      keys
        .filter((k: { kind: string }) => k.kind === 'public')
        .map((k: { key: string }) => k.key)
        .sort(),
      [created.publicKey.key, pub.key].sort(),
    );
    assert.ok(!JSON.stringify(keys).includes(created.key.key), 'listings never show a secret key');
    await svc(db, 'key', 'revoke', '--database', created.database.id, '--key', pub.id);
    await as(pub.key).get('/x/docs', 401); // the revoked key stops working
  });

  test('database create prints the secret key and the public key, labelled', async () => {
    const { stdout } = await run(process.execPath, [BIN, 'database', 'create', '--name', 'printed'], {
      env: { ...process.env, DATABASE_URL: t.server.db.url },
    });
    const secret = /Secret key.*: (svc_sk_[A-Za-z0-9]+)$/m.exec(stdout)?.[1];
    const pub = /Public key.*: (svc_pk_[A-Za-z0-9]+)$/m.exec(stdout)?.[1];
    assert.ok(secret && pub, stdout);
    await as(secret).post('/x/docs', { id: 'printed' }, 201);
    await as(pub).get('/x/docs/printed', 200);
  });

  test('errors exit non-zero with a JSON error', async () => {
    const db = t.server.db;
    await assert.rejects(svc(db, 'key', 'list', '--database', 'nope'), (e: { code: number; stderr: string }) => {
      assert.equal(e.code, 1);
      assert.equal(JSON.parse(e.stderr).error.code, 'not_found');
      return true;
    });
    await assert.rejects(svc(db, 'key', 'create', '--database', 'nope', '--kind', 'root'));
  });
});
