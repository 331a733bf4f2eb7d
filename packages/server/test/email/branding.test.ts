import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { forEachStore } from '../helpers/stores.ts';
import { errorCode, useServer, type TestDatabase } from '../helpers/server.ts';
import { apiClient } from '../helpers/api.ts';
import { newUser } from '../helpers/auth-client.ts';
import { linkIn, startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.ts';
import { runSvc } from '../helpers/cli.ts';

const REDIRECT = 'http://localhost:5173/auth/callback';
const APP_NAME = `Tom & Jerry's <Shop>`;
const TEMPLATES = {
  magicLink: {
    subject: 'Sign in to {APP_NAME}',
    text: 'Hi {EMAIL}, your {APP_NAME} link: {ACTION_URL} (valid {EXPIRES_IN})',
    html: '<h1>{APP_NAME}</h1><p>Hi {EMAIL}</p><a id="go" href="{ACTION_URL}">Sign in</a><p>{EXPIRES_IN}</p>',
  },
  resetPassword: { subject: '{APP_NAME}: new password' },
};

/**
 * docs/email.md: a database's own SMTP server, sender, application name and templates, used for
 * every auth e-mail, over two real SMTP servers (the server's SMTP_URL and the database's own).
 */
forEachStore('e-mail: per-database SMTP server, sender and templates', (kind) => {
  let serverSink: SmtpSink;
  let ownSink: SmtpSink;
  before(async () => {
    serverSink = await startSmtpSink();
    ownSink = await startSmtpSink();
  });
  const t = useServer(kind, () => ({ databaseName: 'Plain App', env: { SMTP_URL: serverSink.url, EMAIL_FROM: 'svc <auth@svc.test>' } }));
  after(async () => {
    await serverSink.close();
    await ownSink.close();
  });
  const op = apiClient(
    () => t.server,
    () => t.server.operatorToken(),
  );
  const patchEmail = (db: TestDatabase, email: unknown) =>
    op.request('PATCH', `/admin/databases/${db.databaseId}`, { body: { settings: { email, redirectUrls: [REDIRECT] } } });
  const post = (db: TestDatabase, path: string, body: unknown) => apiClient(() => t.server, db.publicKey).request('POST', path, { body });

  let branded: TestDatabase;
  before(async () => {
    branded = await t.server.createDatabase('Branded');
    const res = await patchEmail(branded, { smtpUrl: ownSink.url, from: 'Shop <hello@shop.test>', appName: APP_NAME, templates: TEMPLATES });
    assert.equal(res.status, 200, res.text);
    assert.equal((await patchEmail(t.db, null)).status, 200);
  });

  test("the database's SMTP server, sender, name and template; placeholders filled, escaped in HTML only", async () => {
    const r = await post(branded, '/auth/magic-link', { email: 'a.b+c@example.com', redirectUrl: REDIRECT });
    assert.equal(r.status, 202, r.text);
    const mail = await ownSink.next('a.b+c@example.com');
    assert.equal(mail.from?.value[0].address, 'hello@shop.test');
    assert.equal(mail.from?.value[0].name, 'Shop');
    assert.equal(mail.subject, `Sign in to ${APP_NAME}`);
    const link = linkIn(mail);
    assert.equal(`${link.origin}${link.pathname}`, REDIRECT);
    assert.ok(link.searchParams.get('token'));
    assert.equal(mail.text?.trim(), `Hi a.b+c@example.com, your ${APP_NAME} link: ${link} (valid 15 minutes)`);
    const html = String(mail.html);
    assert.ok(html.includes('<h1>Tom &amp; Jerry&#39;s &lt;Shop&gt;</h1>'), html);
    assert.ok(html.includes(`href="${link.toString().replaceAll('&', '&amp;')}"`), html);
    assert.ok(!html.includes('<Shop>'));
    // The link in the branded mail works.
    const verified = await post(branded, '/auth/magic-link/verify', { email: 'a.b+c@example.com', token: link.searchParams.get('token') });
    assert.equal(verified.status, 200, verified.text);
    assert.equal(serverSink.count('a.b+c@example.com'), 0, "nothing went through the server's SMTP");
  });

  test("a template given in part keeps the rest of svc's; the kinds without one are svc's with the app name", async () => {
    await newUser(t.server, branded.secretKey, 'reset@example.com');
    assert.equal((await post(branded, '/auth/forgot-password', { email: 'reset@example.com', redirectUrl: REDIRECT })).status, 202);
    const reset = await ownSink.next('reset@example.com');
    assert.equal(reset.subject, `${APP_NAME}: new password`);
    assert.match(reset.text ?? '', /Choose a new one here/);
    assert.ok(String(reset.html).includes('Tom &amp; Jerry&#39;s &lt;Shop&gt;'));

    assert.equal((await post(branded, '/auth/verify-email', { email: 'reset@example.com', redirectUrl: REDIRECT })).status, 202);
    const verify = await ownSink.next('reset@example.com');
    assert.equal(verify.subject, `Confirm your e-mail address for ${APP_NAME}`);
    assert.equal(verify.from?.value[0].address, 'hello@shop.test');
  });

  test('another database is unaffected: the server SMTP, EMAIL_FROM, its own name and svc wording', async () => {
    assert.equal((await post(t.db, '/auth/magic-link', { email: 'plain@example.com', redirectUrl: REDIRECT })).status, 202);
    const mail = await serverSink.next('plain@example.com');
    assert.equal(mail.from?.value[0].address, 'auth@svc.test');
    assert.equal(mail.subject, 'Your Plain App sign-in link');
    assert.equal(ownSink.count('plain@example.com'), 0);
  });

  test('reads show smtpUrlSet, never the URL; bad settings → 400 naming each problem, nothing stored', async () => {
    const withPassword = `smtp://user:hunter2hunter2@127.0.0.1:${new URL(ownSink.url).port}`;
    assert.equal((await patchEmail(branded, { smtpUrl: withPassword })).status, 200);
    const got = await op.get<{ database: { settings: { email: Record<string, unknown> } } }>(`/admin/databases/${branded.databaseId}`);
    assert.deepEqual(got.database.settings.email, { smtpUrlSet: true, from: 'Shop <hello@shop.test>', appName: APP_NAME, templates: TEMPLATES });
    assert.ok(!JSON.stringify(got).includes('hunter2'));

    const bad = await patchEmail(branded, {
      smtpUrl: 'http://mail.example.com',
      from: 'Evil\r\nBcc: x@y.z <a@b.c>',
      templates: { magicLink: { text: 'no link here', subject: '{APP_NAME}\nBcc: x', html: '{ACTION_URL} {CONFIRMATION_URL}' }, welcome: { subject: 'hi' } },
    });
    assert.equal(errorCode(bad), 'validation_failed');
    const paths = (bad.json as { error: { details: Array<{ path: string; message: string }> } }).error.details.map((d) => `${d.path} ${d.message}`);
    for (const expected of [
      /^\/settings\/email\/smtpUrl must be an smtp:\/\//,
      /^\/settings\/email\/from /,
      /^\/settings\/email\/templates\/magicLink\/text must contain \{ACTION_URL\}/,
      /^\/settings\/email\/templates\/magicLink\/subject must be one line/,
      /^\/settings\/email\/templates\/magicLink\/html uses unknown placeholders \{CONFIRMATION_URL\}; known: \{APP_NAME\}/,
      /^\/settings\/email\/templates\/welcome must be one of verifyEmail, resetPassword, magicLink/,
    ])
      assert.ok(
        paths.some((p) => expected.test(p)),
        `${expected}: ${paths.join('\n')}`,
      );
    const after = await op.get<{ database: { settings: { email: Record<string, unknown> } } }>(`/admin/databases/${branded.databaseId}`);
    assert.deepEqual(after.database.settings.email, got.database.settings.email, 'nothing of the bad patch was stored');
  });

  test('svc email set|get: flags and a file, merged; the next mail uses them; "" removes the SMTP URL', async () => {
    const db = await t.server.createDatabase('CLI App');
    const dir = mkdtempSync(join(tmpdir(), 'svc-email-'));
    const file = join(dir, 'email.json');
    writeFileSync(file, JSON.stringify({ templates: { magicLink: { subject: 'CLI {APP_NAME}' } } }));
    const set = await runSvc(t.server.db.url, [
      'email',
      'set',
      '--database',
      db.databaseId,
      '--smtp-url',
      ownSink.url,
      '--app-name',
      'From CLI',
      '--file',
      file,
    ]);
    rmSync(dir, { recursive: true, force: true });
    assert.equal(set.code, 0, set.stderr);
    assert.match(set.stdout, /Stored the e-mail settings/);
    const got = await runSvc(t.server.db.url, ['--json', 'email', 'get', '--database', db.databaseId]);
    assert.deepEqual(JSON.parse(got.stdout), { email: { smtpUrlSet: true, appName: 'From CLI', templates: { magicLink: { subject: 'CLI {APP_NAME}' } } } });
    assert.equal((await op.request('PATCH', `/admin/databases/${db.databaseId}`, { body: { settings: { redirectUrls: [REDIRECT] } } })).status, 200);
    assert.equal((await post(db, '/auth/magic-link', { email: 'cli@example.com', redirectUrl: REDIRECT })).status, 202);
    assert.equal((await ownSink.next('cli@example.com')).subject, 'CLI From CLI');

    const removed = await runSvc(t.server.db.url, ['--json', 'email', 'set', '--database', db.databaseId, '--smtp-url', '']);
    assert.equal(JSON.parse(removed.stdout).email.smtpUrlSet, false);
    const bad = await runSvc(t.server.db.url, ['email', 'set', '--database', db.databaseId, '--from', 'not an address']);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /\/settings\/email\/from/);
  });
});
