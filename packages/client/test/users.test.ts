import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { SvcError, type User } from '../src/index.ts';
import { fixture, type Fixture } from './helpers.ts';

/** API.md §2.1 through the SDK: a backend manages its users with `client.users` and its secret key. */
let f: Fixture;
before(async () => {
  f = await fixture();
});
after(() => f.close());

const PASSWORD = 'correct horse battery';

test('users.list pages oldest first with a total and an e-mail prefix; get reads one', async () => {
  const browser = f.browser();
  const ids: string[] = [];
  for (const email of ['sdk-a@example.com', 'sdk-b@example.com', 'other@example.com']) {
    ids.push((await browser.auth.signUp({ email, password: PASSWORD })).user.id);
  }
  const admin = f.admin();
  const page = await admin.users.list({ email: 'SDK-', limit: 1, offset: 1 });
  assert.equal(page.total, 2);
  assert.deepEqual(
    page.users.map((u) => u.email),
    ['sdk-b@example.com'],
  );
  const all = await admin.users.list();
  assert.deepEqual(
    all.users.map((u) => u.id),
    ids,
  );
  const one: User = await admin.users.get(ids[0]);
  assert.deepEqual([one.email, one.appMetadata, one.disabled], ['sdk-a@example.com', {}, false]);
});

test('users.update sets appMetadata (replaced whole) that the user reads but cannot change; disabled signs them out and refuses sign-in', async () => {
  const browser = f.browser();
  const { user } = await browser.auth.signUp({ email: 'meta@example.com', password: PASSWORD });
  const admin = f.admin();
  await admin.users.update(user.id, { appMetadata: { role: 'editor', team: 't1' } });
  const updated = await admin.users.update(user.id, { appMetadata: { role: 'admin' }, emailVerified: true, name: 'Meta' });
  assert.deepEqual(updated.appMetadata, { role: 'admin' });
  assert.equal(updated.emailVerified, true);
  const mine = await browser.auth.getUser();
  assert.deepEqual(mine.appMetadata, { role: 'admin' });
  await assert.rejects(
    // The SDK's type refuses it too; a plain JavaScript caller gets the server's 400.
    browser.auth.updateUser({ appMetadata: { role: 'owner' } } as never),
    (e: unknown) => e instanceof SvcError && e.status === 400 && e.code === 'validation_failed',
  );

  const disabled = await admin.users.update(user.id, { disabled: true });
  assert.equal(disabled.disabled, true);
  await assert.rejects(browser.auth.getUser(), (e: unknown) => e instanceof SvcError && e.code === 'invalid_session');
  await assert.rejects(
    browser.auth.signIn({ email: 'meta@example.com', password: PASSWORD }),
    (e: unknown) => e instanceof SvcError && e.status === 401 && e.code === 'invalid_credentials',
  );
  await admin.users.update(user.id, { disabled: false });
  await browser.auth.signIn({ email: 'meta@example.com', password: PASSWORD });
  assert.equal((await browser.auth.getUser()).id, user.id);
});

test('users.delete removes the account; get then fails with 404 not_found; a public key is refused with read_only_key', async () => {
  const browser = f.browser();
  const { user } = await browser.auth.signUp({ email: 'gone@example.com', password: PASSWORD });
  await assert.rejects(browser.users.list(), (e: unknown) => e instanceof SvcError && e.status === 403 && e.code === 'read_only_key');
  const admin = f.admin();
  await admin.users.delete(user.id);
  await assert.rejects(admin.users.get(user.id), (e: unknown) => e instanceof SvcError && e.status === 404 && e.code === 'not_found');
  await assert.rejects(admin.users.delete(user.id), (e: unknown) => e instanceof SvcError && e.code === 'not_found');
});
