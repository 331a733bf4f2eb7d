import { describe, before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { missingServices, postgresTestStore, REDIS_URL, type TestStore } from '../helpers/stores.ts';
import { OPERATOR, request } from '../helpers/server.ts';
import { startProcess, type ServerProcess } from '../helpers/process.ts';
import { newUser } from '../helpers/auth-client.ts';
import { brief, insert, MARKS, putRules, settle, tokenUrl, watch } from '../realtime/watch.ts';

/**
 * API.md §10 "`$auth` values are those of the user at the time of the event", on two instances
 * with Redis (so B hears A's events at once, not at its next poll of the change log): a user
 * changed through A is seen as changed by B's sockets from the very next event on.
 */
describe('two instances on one PostgreSQL with Redis: realtime $auth after a user change', {
  skip: await missingServices({ postgres: true, redis: true }),
}, () => {
  let db: TestStore;
  let a: ServerProcess;
  let b: ServerProcess;
  let keys: { secret: string; public: string };

  before(async () => {
    db = await postgresTestStore();
    const env = { DATABASE_URL: db.url, REDIS_URL };
    [a, b] = await Promise.all([startProcess(env), startProcess(env)]);
    const op = ((await request(a, 'POST', '/admin/sign-in', { body: OPERATOR })).json as { token: string }).token;
    const created = await request(a, 'POST', '/admin/databases', { key: op, body: { name: 'facts' } });
    assert.equal(created.status, 201, created.text);
    const { key, publicKey } = created.json as { key: { key: string }; publicKey: { key: string } };
    keys = { secret: key.key, public: publicKey.key };
  });
  after(async () => {
    await Promise.all([a?.kill('SIGTERM'), b?.kill('SIGTERM')]);
    await db?.drop();
  });

  test('a user removed from a team on A: their socket on B does not receive the team document created right after', async () => {
    await putRules(a, keys.secret, { teamdocs: { read: { team: { $auth: 'appMetadata.team' } } }, [MARKS]: { read: true } });
    const carol = await newUser(a, keys.public, 'carol@example.com');
    const setTeam = async (appMetadata: object) => {
      const r = await request(a, 'PATCH', `/auth/users/${carol.user.id}`, { key: keys.secret, body: { appMetadata } });
      assert.equal(r.status, 200, r.text);
    };
    await setTeam({ team: 'red' });
    const ofCarol = await watch(await tokenUrl(b, keys.public, ['teamdocs', MARKS], carol.session.token));
    const first = await insert(a, keys.secret, 'teamdocs', { team: 'red', n: 1 });
    const seen = [['document.created', first.id]];
    assert.deepEqual((await settle(a, keys.secret, [ofCarol]))[0].map(brief), seen);
    for (let round = 0; round < 3; round++) {
      await setTeam({});
      await insert(a, keys.secret, 'teamdocs', { team: 'red', n: 2 });
      assert.deepEqual((await settle(a, keys.secret, [ofCarol]))[0].map(brief), seen, 'nothing after the removal');
      await setTeam({ team: 'red' });
      const back = await insert(a, keys.secret, 'teamdocs', { team: 'red', n: 3 });
      seen.push(['document.created', back.id]);
      assert.deepEqual((await settle(a, keys.secret, [ofCarol]))[0].map(brief), seen, 'back in the team: from the next event');
    }
    await ofCarol.close();
  });
});
