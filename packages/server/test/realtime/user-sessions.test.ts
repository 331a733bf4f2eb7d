import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { useServer } from '../helpers/server.ts';
import { apiClient } from '../helpers/api.ts';
import { auth, newUser, type SignedIn } from '../helpers/auth-client.ts';
import { openWs, type WsClient } from '../helpers/ws.ts';
import { linkIn, startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.ts';
import { closeCode } from './upgrade.ts';
import { MARKS, putRules, settle, tokenUrl, watch } from './watch.ts';

const REDIRECT = 'http://localhost:5173/reset';
const PASSWORD = 'correct horse battery';

/**
 * API.md §10 "Realtime": a user's socket is closed with 4401 (within 5 s: the grant check runs
 * every 2 s) when the session its token was asked for with ends, whatever ended it, and the token
 * then opens no new socket. Sockets of the user's other sessions stay open unless those end too.
 */
forEachStore('realtime sockets of user sessions', (kind) => {
  let sink: SmtpSink;
  before(async () => {
    sink = await startSmtpSink();
  });
  const t = useServer(kind, () => ({ env: { SMTP_URL: sink.url, EMAIL_FROM: 'svc <auth@svc.test>' } }));
  before(() => putRules(t.server, t.db.secretKey, { notes: { read: { owner: { $auth: 'id' } } }, [MARKS]: { read: true } }));
  after(() => sink.close());
  const pub = apiClient(
    () => t.server,
    () => t.db.publicKey,
  );
  const op = apiClient(
    () => t.server,
    () => t.server.operatorToken(),
  );

  /** A socket of the session and its URL. */
  const socketOf = async (session: string): Promise<{ url: string; socket: WsClient }> => {
    const url = await tokenUrl(t.server, t.db.publicKey, ['notes', MARKS], session);
    return { url, socket: await watch(url) };
  };
  const signIn = (email: string, password = PASSWORD) => pub.post<SignedIn>('/auth/sign-in', { email, password }, 200);
  /** The socket is still open and still streams. */
  const stillStreams = async (socket: WsClient) => {
    await settle(t.server, t.db.secretKey, [socket]);
    assert.equal(socket.ws.readyState, socket.ws.OPEN);
  };

  test('sign-out closes the socket of that session with 4401 and its token opens no new one; another session’s socket stays', async () => {
    const first = await newUser(t.server, t.db.publicKey, 'sign-out@example.com', PASSWORD);
    const second = await signIn('sign-out@example.com');
    const ending = await socketOf(first.session.token);
    const staying = await socketOf(second.session.token);
    assert.equal((await auth.post(t.server, t.db.publicKey, '/auth/sign-out', first.session.token)).status, 204);
    assert.equal(await closeCode(ending.socket.closed), 4401);
    await assert.rejects(openWs(ending.url), { statusCode: 401 });
    await stillStreams(staying.socket);
    await staying.socket.close();
  });

  test('a password change closes the sockets of the other sessions, not of the one that changed it', async () => {
    const current = await newUser(t.server, t.db.publicKey, 'change@example.com', PASSWORD);
    const other = await signIn('change@example.com');
    const mine = await socketOf(current.session.token);
    const theirs = await socketOf(other.session.token);
    const r = await auth.post(t.server, t.db.publicKey, '/auth/change-password', current.session.token, {
      currentPassword: PASSWORD,
      newPassword: 'a brand new password',
    });
    assert.equal(r.status, 204, r.text);
    assert.equal(await closeCode(theirs.socket.closed), 4401);
    await assert.rejects(openWs(theirs.url), { statusCode: 401 });
    await stillStreams(mine.socket);
    await mine.socket.close();
  });

  test('a password reset closes the sockets of every session', async () => {
    const one = await newUser(t.server, t.db.publicKey, 'reset@example.com', PASSWORD);
    const two = await signIn('reset@example.com');
    const sockets = [await socketOf(one.session.token), await socketOf(two.session.token)];
    await pub.post('/auth/forgot-password', { email: 'reset@example.com', redirectUrl: REDIRECT }, 202);
    const token = linkIn(await sink.next('reset@example.com')).searchParams.get('token')!;
    await pub.post('/auth/reset-password', { email: 'reset@example.com', token, newPassword: 'after the reset' }, 204);
    for (const { socket, url } of sockets) {
      assert.equal(await closeCode(socket.closed), 4401);
      await assert.rejects(openWs(url), { statusCode: 401 });
    }
  });

  test('an operator signing the user out everywhere, or the app deleting the user, closes their sockets', async () => {
    const signedOut = await newUser(t.server, t.db.publicKey, 'everywhere@example.com', PASSWORD);
    const deleted = await newUser(t.server, t.db.publicKey, 'deleted@example.com', PASSWORD);
    const bystander = await newUser(t.server, t.db.publicKey, 'bystander@example.com', PASSWORD);
    const [a, b, c] = [await socketOf(signedOut.session.token), await socketOf(deleted.session.token), await socketOf(bystander.session.token)];
    await op.post(`/admin/databases/${t.db.databaseId}/users/${signedOut.user.id}/sign-out`, undefined, 200);
    await apiClient(() => t.server, t.db.secretKey).delete(`/auth/users/${deleted.user.id}`, 204);
    assert.equal(await closeCode(a.socket.closed), 4401);
    assert.equal(await closeCode(b.socket.closed), 4401);
    await stillStreams(c.socket);
    await c.socket.close();
  });
});
