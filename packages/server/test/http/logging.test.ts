import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { forEachStore } from '../helpers/stores.ts';
import { OPERATOR, request, startServer } from '../helpers/server.ts';

/** A log destination that keeps every line. */
function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  return { stream, lines };
}

forEachStore('request logs', (kind) => {
  test('logs at LOG_LEVEL=info never contain keys, tokens or passwords', async () => {
    const log = capture();
    const server = await startServer(kind, { env: { LOG_LEVEL: 'info' }, logStream: log.stream });
    const secrets: string[] = [OPERATOR.password];
    try {
      const op = await server.operatorToken();
      const db = await server.createDatabase();
      secrets.push(op, db.secretKey, db.publicKey);

      const doc = await request(server, 'POST', '/notes/docs', { key: db.secretKey, body: { text: 'hello' } });
      assert.equal(doc.status, 201);
      await request(server, 'GET', '/notes/docs', { key: db.publicKey, query: { filter: JSON.stringify({ text: 'hello' }) } });
      await request(server, 'GET', '/notes/docs', { key: op, headers: { 'x-database-id': db.databaseId } });
      const created = await request(server, 'POST', `/admin/databases/${db.databaseId}/keys`, { key: op, body: { kind: 'secret' } });
      secrets.push((created.json as { key: string }).key);

      const wrongPassword = 'wrong-password-that-must-not-leak';
      secrets.push(wrongPassword);
      await request(server, 'POST', '/admin/sign-in', { body: { email: OPERATOR.email, password: wrongPassword } });
      const brokenPassword = 'password-in-broken-json';
      secrets.push(brokenPassword);
      await request(server, 'POST', '/admin/sign-in', { raw: `{"email":"${OPERATOR.email}","password":"${brokenPassword}"` });

      const queryToken = 'querytokenquerytokenquerytoken0123456789';
      const queryCode = 'oauthcodeoauthcode42';
      secrets.push(queryToken, queryCode);
      await request(server, 'GET', `/realtime?token=${queryToken}&after=5`);
      await request(server, 'GET', `/auth/oauth/github?key=${db.publicKey}&redirectUrl=http://localhost/`);
      await request(server, 'GET', `/auth/oauth/github/callback?code=${queryCode}&state=${queryToken}`);
      await request(server, 'GET', `/notes/docs?TOKEN=${queryToken}`, { key: db.secretKey });

      const sessionToken = 'sessiontokensessiontokensessiontoken01';
      secrets.push(sessionToken);
      await request(server, 'GET', '/auth/me', { key: db.publicKey, headers: { 'x-session-token': sessionToken } });
      await request(server, 'GET', '/notes/docs', { headers: { authorization: `Bearer ${db.secretKey.slice(0, -1)}X` } });
      secrets.push(db.secretKey.slice(0, -1) + 'X');
    } finally {
      await server.close(); // every response is logged by now
    }

    const text = log.lines.join('\n');
    assert.ok(log.lines.length >= 20, `the requests were logged (${log.lines.length} lines)`);
    assert.ok(text.includes('/v1/notes/docs'), 'URLs are logged');
    assert.ok(text.includes('token=[redacted]'), 'secret query parameters are redacted, not dropped');
    for (const line of log.lines) JSON.parse(line);
    for (const secret of secrets) {
      assert.ok(!text.includes(secret), `the log contains a secret: ${secret.slice(0, 10)}…`);
      assert.ok(!text.includes(secret.slice(7, 27)), `the log contains part of a secret: ${secret.slice(0, 10)}…`);
    }
    assert.ok(!/authorization|x-session-token/i.test(text), 'no request headers in the log');
  });
});
