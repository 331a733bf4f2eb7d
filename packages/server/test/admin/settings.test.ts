import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { useServer } from '../helpers/server.ts';
import { apiClient, assertError } from '../helpers/api.ts';
import { getSettings } from '../../src/databases/databases.ts';

type Settings = { redirectUrls: string[]; siteUrl: string | null; oauth: Record<string, { clientId: string | null; clientSecretSet: boolean }> };

const GOOGLE_SECRET = 'google-client-secret-value-123';
const GITHUB_SECRET = 'github-client-secret-value-456';
/** settings.auth as every read shows it until set (API.md §2.1). */
const AUTH_DEFAULTS = { allowSignUp: true, requireEmailVerification: false };

forEachStore('database settings', (kind) => {
  const t = useServer(kind);
  const op = apiClient(
    () => t.server,
    () => t.server.operatorToken(),
  );
  const path = () => `/admin/databases/${t.db.databaseId}`;
  const stored = () => getSettings(t.server.db.store, t.db.databaseId);

  /** PATCHes the database's settings; the raw answer, for the tests of refusals. */
  const patch = (settings: unknown) => op.request('PATCH', path(), { body: { settings } });
  const read = async () => {
    const one = await op.request('GET', path());
    const all = await op.request('GET', '/admin/databases');
    for (const secret of [GOOGLE_SECRET, GITHUB_SECRET]) {
      assert.ok(!one.text.includes(secret) && !all.text.includes(secret), 'reads never return a client secret');
    }
    assert.ok(!/clientSecret"/.test(one.text + all.text), 'no clientSecret field at all');
    return (one.json as { database: { settings: Settings } }).database.settings;
  };

  test('a new database has empty settings', async () => {
    assert.deepEqual(await read(), { redirectUrls: [], siteUrl: null, oauth: {}, auth: AUTH_DEFAULTS });
  });

  test('PATCH sets redirectUrls, siteUrl and OAuth clients; the answer and every read hide the secret', async () => {
    const r = await patch({
      redirectUrls: ['https://app.example.com/auth', 'http://localhost:3000/'],
      siteUrl: 'https://app.example.com',
      oauth: { google: { clientId: 'g-id', clientSecret: GOOGLE_SECRET } },
    });
    assert.equal(r.status, 200);
    assert.ok(!r.text.includes(GOOGLE_SECRET));
    const expected = {
      redirectUrls: ['https://app.example.com/auth', 'http://localhost:3000/'],
      siteUrl: 'https://app.example.com',
      oauth: { google: { clientId: 'g-id', clientSecretSet: true } },
      auth: AUTH_DEFAULTS,
    };
    assert.deepEqual((r.json as { database: { settings: Settings } }).database.settings, expected);
    assert.deepEqual(await read(), expected);
    assert.equal((await stored()).oauth.google?.clientSecret, GOOGLE_SECRET, 'the secret is kept for server-side use');
  });

  test('settings merge (JSON Merge Patch): other providers and fields are kept, null removes', async () => {
    assert.equal((await patch({ oauth: { github: { clientId: 'gh-id', clientSecret: GITHUB_SECRET } } })).status, 200);
    let s = await read();
    assert.deepEqual(s.oauth, { google: { clientId: 'g-id', clientSecretSet: true }, github: { clientId: 'gh-id', clientSecretSet: true } });
    assert.equal(s.siteUrl, 'https://app.example.com');
    assert.equal(s.redirectUrls.length, 2);

    assert.equal((await patch({ oauth: { google: { clientId: 'g-id-2' } } })).status, 200);
    s = await read();
    assert.deepEqual(s.oauth.google, { clientId: 'g-id-2', clientSecretSet: true }, 'changing the id keeps the secret');
    assert.equal((await stored()).oauth.google?.clientSecret, GOOGLE_SECRET);

    assert.equal((await patch({ oauth: { github: { clientSecret: null } }, siteUrl: null, redirectUrls: ['https://only.example.com'] })).status, 200);
    s = await read();
    assert.deepEqual(s, {
      redirectUrls: ['https://only.example.com'],
      siteUrl: null,
      oauth: { google: { clientId: 'g-id-2', clientSecretSet: true }, github: { clientId: 'gh-id', clientSecretSet: false } },
      auth: AUTH_DEFAULTS,
    });
    const renamed = await op.patch<{ database: { settings: Settings } }>(path(), { name: 'renamed' });
    assert.deepEqual(renamed.database.settings, s, 'a rename keeps the settings');
  });

  test('bad settings → 400 and nothing changes', async () => {
    const before = await read();
    const storedBefore = await stored();
    const bad: unknown[] = [
      { redirectUrls: 'https://x.example.com' },
      { redirectUrls: ['ftp://x.example.com'] },
      { redirectUrls: ['not a url'] },
      { redirectUrls: [1] },
      { siteUrl: 'nope' },
      { siteUrl: 'javascript:alert(1)' },
      { siteUrl: 5 },
      { oauth: { twitter: { clientId: 'x' } } },
      { oauth: { google: { clientId: 'x', extra: 1 } } },
      { oauth: { google: 'x' } },
      { oauth: [] },
      { oauth: { google: { clientSecret: 42 } } },
      { unknown: true },
      'string',
      [],
      { siteUrl: 'https://fine.example.com', redirectUrls: ['bad'] },
    ];
    for (const settings of bad) {
      assertError(await patch(settings), 400, 'validation_failed', JSON.stringify(settings));
    }
    assert.deepEqual(await read(), before);
    assert.deepEqual(await stored(), storedBefore);
  });
});
