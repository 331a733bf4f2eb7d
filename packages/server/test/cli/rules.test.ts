import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { forEachStore, type TestStore } from '../helpers/stores.ts';
import { useServer } from '../helpers/server.ts';
import { apiClient } from '../helpers/api.ts';
import { runSvc } from '../helpers/cli.ts';

/** Runs `svc …` against a store, with `stdin` as its standard input. */
const svc = (db: TestStore, args: string[], stdin = '') => runSvc(db.url, args, stdin);

const RULES = { todos: { read: { owner: { $auth: 'id' } }, create: { owner: { $auth: 'id' } } }, '*': { read: true } };

forEachStore('svc rules', (kind) => {
  const t = useServer(kind);
  const api = apiClient(
    () => t.server,
    () => t.db.secretKey,
  );
  /** `svc …` on the test server's store. */
  const run = (args: string[], stdin?: string) => svc(t.server.db, args, stdin);
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-rules-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('rules get prints the default, then what set stored from a file; the server answers the same at once', async () => {
    const first = await run(['rules', 'get', '--database', t.db.databaseId]);
    assert.equal(first.code, 0, first.stderr);
    assert.deepEqual(JSON.parse(first.stdout), { '*': { read: true } });

    const file = join(dir, 'rules.json');
    writeFileSync(file, JSON.stringify(RULES, null, 2));
    const set = await run(['rules', 'set', '--database', t.db.databaseId, '--file', file]);
    assert.equal(set.code, 0, set.stderr);
    assert.match(set.stdout, /Stored the rules/);

    const got = await run(['rules', 'get', '--database', t.db.databaseId]);
    assert.equal(got.stdout.trim(), JSON.stringify(RULES, null, 2), 'printed exactly as written, ready for rules set');
    assert.equal(JSON.stringify(await api.get('/rules')), JSON.stringify({ rules: RULES }));
  });

  test('rules set reads standard input without --file; --json prints {rules}', async () => {
    const rules = { posts: { read: 'signedIn' } };
    const set = await run(['--json', 'rules', 'set', '--database', t.db.databaseId], JSON.stringify(rules));
    assert.equal(set.code, 0, set.stderr);
    assert.deepEqual(JSON.parse(set.stdout), { rules });
    const got = await run(['--json', 'rules', 'get', '--database', t.db.databaseId]);
    assert.deepEqual(JSON.parse(got.stdout), { rules });
    assert.deepEqual(await api.get('/rules'), { rules });
  });

  test('bad rules exit 1 with each problem and its path; nothing is stored', async () => {
    const bad = { posts: { read: { owner: { $auth: 'phone' } }, write: true }, 'no good': {} };
    const human = await run(['rules', 'set', '--database', t.db.databaseId], JSON.stringify(bad));
    assert.equal(human.code, 1);
    assert.match(human.stderr, /invalid_rules/);
    assert.match(human.stderr, /^ {2}\/posts\/read: "phone" is not a \$auth field/m);
    assert.match(human.stderr, /^ {2}\/posts\/write: is not an operation/m);
    assert.match(human.stderr, /^ {2}\/no good: is not a collection name/m);

    const json = await run(['--json', 'rules', 'set', '--database', t.db.databaseId], JSON.stringify(bad));
    assert.equal(json.code, 1);
    const error = JSON.parse(json.stderr).error;
    assert.equal(error.code, 'invalid_rules');
    assert.deepEqual(
      error.details.map((d: { path: string }) => d.path),
      ['/posts/read', '/posts/write', '/no good'],
    );

    const notJson = await run(['--json', 'rules', 'set', '--database', t.db.databaseId], '{"posts": ');
    assert.equal(notJson.code, 1);
    assert.equal(JSON.parse(notJson.stderr).error.code, 'invalid_json');
    const notObject = await run(['--json', 'rules', 'set', '--database', t.db.databaseId], '[]');
    assert.deepEqual(
      JSON.parse(notObject.stderr).error.details.map((d: { path: string }) => d.path),
      ['/'],
    );

    assert.deepEqual(await api.get('/rules'), { rules: { posts: { read: 'signedIn' } } }, 'unchanged');
  });

  test('an unknown database exits 1 with not_found', async () => {
    for (const args of [
      ['rules', 'get', '--database', 'nope'],
      ['rules', 'set', '--database', 'nope'],
    ]) {
      const r = await run(['--json', ...args], '{}');
      assert.equal(r.code, 1);
      assert.equal(JSON.parse(r.stderr).error.code, 'not_found');
    }
  });
});
