import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { errorCode, request, useServer } from '../helpers/server.ts';
import { auth, newUser } from '../helpers/auth-client.ts';
import { brief, insert, MARKS, putRules, settle, tokenUrl, watch } from './watch.ts';

/**
 * API.md §10 "Realtime": a token asked for with a public key and a user's session belongs to that
 * user, and its sockets receive only the events the collection's `read` rule lets the user see;
 * without a session, to nobody. Secret keys are not subject to rules.
 */
forEachStore('realtime under rules', (kind) => {
  const ctx = useServer(kind);
  const ownerRules = (...collections: string[]) => ({
    ...Object.fromEntries(collections.map((c) => [c, { read: { owner: { $auth: 'id' } } }])),
    [MARKS]: { read: true },
  });
  const patch = async (collection: string, id: string, body: object) => {
    const r = await request(ctx.server, 'PATCH', `/${collection}/docs/${id}`, { key: ctx.db.secretKey, body });
    assert.equal(r.status, 200, r.text);
    return r.json as Record<string, unknown>;
  };

  test('POST /realtime/token: a public key with a live session → the user’s token; a bad session → 401 invalid_session; a secret key ignores it', async () => {
    const { server, db } = ctx;
    const user = await newUser(server, db.publicKey, 'token-owner@example.com');
    const ask = (key: string, session?: string) =>
      request(server, 'POST', '/realtime/token', { key, body: { collections: ['t'] }, headers: session === undefined ? {} : { 'x-session-token': session } });
    assert.equal((await ask(db.publicKey, user.session.token)).status, 201);
    assert.equal((await ask(db.publicKey)).status, 201, 'no session: a token of nobody');
    const unknown = await ask(db.publicKey, 'not-a-session');
    assert.equal(unknown.status, 401);
    assert.equal(errorCode(unknown), 'invalid_session');
    const other = await server.createDatabase();
    const stranger = await newUser(server, other.publicKey, 'stranger@example.com');
    assert.equal(errorCode(await ask(db.publicKey, stranger.session.token)), 'invalid_session', "another database's session");
    assert.equal((await ask(db.secretKey, 'not-a-session')).status, 201, 'a secret key is not subject to rules: the session is ignored');
    const gone = await newUser(server, db.publicKey, 'gone@example.com');
    assert.equal((await auth.post(server, db.publicKey, '/auth/sign-out', gone.session.token)).status, 204);
    assert.equal(errorCode(await ask(db.publicKey, gone.session.token)), 'invalid_session', 'an ended session');
  });

  test('owner rules: each user’s socket gets only their documents; an anonymous socket nothing; a secret-key socket everything', async () => {
    const { server, db } = ctx;
    await putRules(server, db.secretKey, ownerRules('todos'));
    const a = await newUser(server, db.publicKey, 'owner-a@example.com');
    const b = await newUser(server, db.publicKey, 'owner-b@example.com');
    const collections = ['todos', MARKS];
    const sockets = [
      await watch(await tokenUrl(server, db.publicKey, collections, a.session.token)),
      await watch(await tokenUrl(server, db.publicKey, collections, b.session.token)),
      await watch(await tokenUrl(server, db.publicKey, collections)),
      await watch(await tokenUrl(server, db.secretKey, collections)),
    ];
    const t1 = await insert(server, db.secretKey, 'todos', { owner: a.user.id, title: 'a1' });
    const t2 = await insert(server, db.secretKey, 'todos', { owner: b.user.id, title: 'b1' });
    const t3 = await insert(server, db.secretKey, 'todos', { owner: a.user.id, title: 'a2' });
    const t4 = await insert(server, db.secretKey, 'todos', { title: 'nobody’s' });
    await patch('todos', t1.id, { title: 'a1, edited' });
    assert.equal((await request(server, 'DELETE', `/todos/docs/${t2.id}`, { key: db.secretKey })).status, 204);
    const [ofA, ofB, ofNobody, ofSecret] = await settle(server, db.secretKey, sockets);
    assert.deepEqual(ofA.map(brief), [
      ['document.created', t1.id],
      ['document.created', t3.id],
      ['document.updated', t1.id],
    ]);
    assert.equal(ofA[2].document.title, 'a1, edited');
    assert.deepEqual(ofB.map(brief), [
      ['document.created', t2.id],
      ['document.deleted', t2.id],
    ]);
    assert.equal(ofB[1].document.owner, b.user.id, 'a deleted document is judged, and sent, as it was');
    assert.deepEqual(ofNobody, [], 'no session: a filter rule shows nothing');
    assert.deepEqual(ofSecret.map(brief), [
      ['document.created', t1.id],
      ['document.created', t2.id],
      ['document.created', t3.id],
      ['document.created', t4.id],
      ['document.updated', t1.id],
      ['document.deleted', t2.id],
    ]);
    await Promise.all(sockets.map((s) => s.close()));
  });

  test('rule forms: true → everyone; "signedIn" → sockets with a user; false, an entry without read or no entry → nobody', async () => {
    const { server, db } = ctx;
    await putRules(server, db.secretKey, {
      open: { read: true },
      members: { read: 'signedIn' },
      closed: { read: false },
      writeOnly: { create: true },
      [MARKS]: { read: true },
    });
    const u = await newUser(server, db.publicKey, 'forms@example.com');
    const collections = ['open', 'members', 'closed', 'writeOnly', 'unlisted', MARKS];
    const anonymous = await watch(await tokenUrl(server, db.publicKey, collections));
    const signedIn = await watch(await tokenUrl(server, db.publicKey, collections, u.session.token));
    const ids: Record<string, string> = {};
    for (const c of collections.slice(0, 5)) ids[c] = (await insert(server, db.secretKey, c, { c })).id;
    const [ofAnonymous, ofUser] = await settle(server, db.secretKey, [anonymous, signedIn]);
    assert.deepEqual(ofAnonymous.map(brief), [['document.created', ids.open]]);
    assert.deepEqual(ofUser.map(brief), [
      ['document.created', ids.open],
      ['document.created', ids.members],
    ]);
    await Promise.all([anonymous.close(), signedIn.close()]);
  });

  test('no rules set: an anonymous public-key socket receives every event, as before rules', async () => {
    const { server } = ctx;
    const fresh = await server.createDatabase();
    const socket = await watch(await tokenUrl(server, fresh.publicKey, ['anything', MARKS]));
    const d = await insert(server, fresh.secretKey, 'anything', { x: 1 });
    const [events] = await settle(server, fresh.secretKey, [socket]);
    assert.deepEqual(events.map(brief), [['document.created', d.id]]);
    await socket.close();
  });

  test('an update moving a todo from A to B: A gets document.deleted (the version it could see), B document.updated; a resume replays the same', async () => {
    const { server, db } = ctx;
    await putRules(server, db.secretKey, ownerRules('moving'));
    const a = await newUser(server, db.publicKey, 'move-a@example.com');
    const b = await newUser(server, db.publicKey, 'move-b@example.com');
    const urlA = await tokenUrl(server, db.publicKey, ['moving', MARKS], a.session.token);
    const urlB = await tokenUrl(server, db.publicKey, ['moving', MARKS], b.session.token);
    const [socketA, socketB] = [await watch(urlA), await watch(urlB)];
    const [before] = await settle(server, db.secretKey, [socketA]);
    assert.deepEqual(before, []);
    const since = socketA.messages.filter((m) => m.type === 'event').at(-1)!.id as string;

    const todo = await insert(server, db.secretKey, 'moving', { owner: a.user.id, title: 'hand over' });
    const asA = await patch('moving', todo.id, { title: 'still mine' });
    const asB = await patch('moving', todo.id, { owner: b.user.id, title: 'yours now' });
    await patch('moving', todo.id, { title: 'B edits' });
    const backToA = await patch('moving', todo.id, { owner: a.user.id });
    const [ofA, ofB] = await settle(server, db.secretKey, [socketA, socketB]);
    assert.deepEqual(
      ofA.map((e) => e.event),
      ['document.created', 'document.updated', 'document.deleted', 'document.updated'],
    );
    assert.deepEqual(ofA[2].document, asA, 'moved out: deleted, carrying the version A could see');
    assert.deepEqual(ofA[3].document, backToA, 'moved back in: updated');
    assert.deepEqual(
      ofB.map((e) => e.event),
      ['document.updated', 'document.updated', 'document.deleted'],
    );
    assert.deepEqual(ofB[0].document, asB, 'moved in: updated, with the new version');
    assert.equal(ofB[2].document.owner, b.user.id, 'moved out of B: the version B could see');
    for (const events of [ofA, ofB]) assert.ok(events.every((e) => e.document.id === todo.id));
    await Promise.all([socketA.close(), socketB.close()]);

    // Resuming after the same id replays exactly what each socket got live.
    const replayA = await watch(`${urlA}&after=${since}`);
    const replayB = await watch(`${urlB}&after=${since}`);
    const [againA, againB] = await settle(server, db.secretKey, [replayA, replayB]);
    const strip = (events: Array<Record<string, any>>) => events.map(({ id, event, document }) => ({ id, event, document }));
    assert.deepEqual(strip(againA), strip(ofA));
    assert.deepEqual(strip(againB), strip(ofB));
    await Promise.all([replayA.close(), replayB.close()]);
  });

  test('resume with after= obeys the rule: a user replays only their own documents, an anonymous socket none', async () => {
    const { server, db } = ctx;
    await putRules(server, db.secretKey, ownerRules('diary'));
    const u = await newUser(server, db.publicKey, 'diarist@example.com');
    const mark = await insert(server, db.secretKey, MARKS, { start: true });
    const since = server.changes.find((e) => e.document.id === mark.id)!.id;
    const mine = await insert(server, db.secretKey, 'diary', { owner: u.user.id, text: 'mine' });
    await insert(server, db.secretKey, 'diary', { owner: 'someone-else', text: 'not mine' });
    const asUser = await watch(`${await tokenUrl(server, db.publicKey, ['diary', MARKS], u.session.token)}&after=${since}`);
    const asNobody = await watch(`${await tokenUrl(server, db.publicKey, ['diary', MARKS])}&after=${since}`);
    const [ofUser, ofNobody] = await settle(server, db.secretKey, [asUser, asNobody]);
    assert.deepEqual(ofUser.map(brief), [['document.created', mine.id]]);
    assert.deepEqual(ofNobody, []);
    await Promise.all([asUser.close(), asNobody.close()]);
  });

  test('a rule change applies at once on the instance that took it', async () => {
    const { server, db } = ctx;
    await putRules(server, db.secretKey, { news: { read: true }, [MARKS]: { read: true } });
    const socket = await watch(await tokenUrl(server, db.publicKey, ['news', MARKS]));
    const seen = await insert(server, db.secretKey, 'news', { n: 1 });
    await putRules(server, db.secretKey, { news: { read: 'signedIn' }, [MARKS]: { read: true } });
    await insert(server, db.secretKey, 'news', { n: 2 });
    const [events] = await settle(server, db.secretKey, [socket]);
    assert.deepEqual(events.map(brief), [['document.created', seen.id]]);
    await socket.close();
  });

  test('$auth stands for the user as they are at the time of the event: the very next event after a change', async () => {
    const { server, db } = ctx;
    await putRules(server, db.secretKey, { inbox: { read: { to: { $auth: 'email' } } }, [MARKS]: { read: true } });
    const u = await newUser(server, db.publicKey, 'reader@example.com');
    const socket = await watch(await tokenUrl(server, db.publicKey, ['inbox', MARKS], u.session.token));
    await insert(server, db.secretKey, 'inbox', { to: 'reader@example.com', n: 0 });
    assert.deepEqual((await settle(server, db.secretKey, [socket]))[0], [], 'an unverified e-mail stands for nothing');
    const verified = await request(server, 'PATCH', `/auth/users/${u.user.id}`, { key: db.secretKey, body: { emailVerified: true } });
    assert.equal(verified.status, 200, verified.text);
    const next = await insert(server, db.secretKey, 'inbox', { to: 'reader@example.com', n: 1 });
    assert.deepEqual(
      (await settle(server, db.secretKey, [socket]))[0].map(brief),
      [['document.created', next.id]],
      'once verified, the e-mail matches at once',
    );
    await socket.close();
  });

  test('a user removed from a team does not receive the team document created right after', async () => {
    const { server, db } = ctx;
    await putRules(server, db.secretKey, { teamdocs: { read: { team: { $auth: 'appMetadata.team' } } }, [MARKS]: { read: true } });
    const u = await newUser(server, db.publicKey, 'member@example.com');
    const setTeam = async (appMetadata: object) => {
      const r = await request(server, 'PATCH', `/auth/users/${u.user.id}`, { key: db.secretKey, body: { appMetadata } });
      assert.equal(r.status, 200, r.text);
    };
    await setTeam({ team: 'red' });
    const socket = await watch(await tokenUrl(server, db.publicKey, ['teamdocs', MARKS], u.session.token));
    const before = await insert(server, db.secretKey, 'teamdocs', { team: 'red', n: 1 });
    assert.deepEqual((await settle(server, db.secretKey, [socket]))[0].map(brief), [['document.created', before.id]], 'a member sees the team');
    await setTeam({});
    await insert(server, db.secretKey, 'teamdocs', { team: 'red', n: 2 });
    const seen = [['document.created', before.id]];
    assert.deepEqual((await settle(server, db.secretKey, [socket]))[0].map(brief), seen, 'removed from the team: nothing more');
    await setTeam({ team: 'red' });
    const back = await insert(server, db.secretKey, 'teamdocs', { team: 'red', n: 3 });
    assert.deepEqual((await settle(server, db.secretKey, [socket]))[0].map(brief), [...seen, ['document.created', back.id]], 'back in the team: at once');
    await socket.close();
  });
});
