import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { OPERATOR, request, startServer, useServer } from '../helpers/server.ts';
import { openWs, type WsClient } from '../helpers/ws.ts';
import { ManualClock } from '../../src/infra/clock.ts';
import { closeCode } from './upgrade.ts';

/**
 * API.md §10 "Realtime": an open socket does not outlive what granted it. Its key revoked, its
 * token expired or the operator session that asked for it ended, it is closed with 4401 (the
 * periodic grant check, every 2 s by default), and the token opens no new socket.
 */
forEachStore('realtime socket lifetime', (kind) => {
  const clock = new ManualClock();
  const ctx = useServer(kind, { clock });

  const tokenUrl = async (key: string, headers?: Record<string, string>) => {
    const r = await request(ctx.server, 'POST', '/realtime/token', { key, headers, body: { collections: ['life'] } });
    assert.equal(r.status, 201, r.text);
    return (r.json as { url: string }).url;
  };
  const ready = async (url: string): Promise<WsClient> => {
    const c = await openWs(url);
    await c.waitFor((m) => m.type === 'ready');
    return c;
  };
  const newSecretKey = async () => {
    const op = await ctx.server.operatorToken();
    const r = await request(ctx.server, 'POST', `/admin/databases/${ctx.db.databaseId}/keys`, { key: op, body: { kind: 'secret' } });
    assert.equal(r.status, 201, r.text);
    return r.json as { key: string; id: string };
  };

  test("a revoked key's open socket is closed with 4401, its token opens no new socket, others stay open", async () => {
    const doomed = await newSecretKey();
    const url = await tokenUrl(doomed.key);
    const socket = await ready(url);
    const bystander = await ready(await tokenUrl(ctx.db.secretKey));
    const op = await ctx.server.operatorToken();
    const revoked = await request(ctx.server, 'DELETE', `/admin/databases/${ctx.db.databaseId}/keys/${doomed.id}`, { key: op });
    assert.equal(revoked.status, 204, revoked.text);
    assert.equal(await closeCode(socket.closed), 4401);
    await assert.rejects(openWs(url), { statusCode: 401 });
    assert.equal(bystander.ws.readyState, bystander.ws.OPEN, 'a socket of a live key is left alone');
    await request(ctx.server, 'POST', '/life/docs', { key: ctx.db.secretKey, body: { still: 'streaming' } });
    await bystander.waitFor((m) => m.type === 'event');
    await bystander.close();
  });

  test('a socket whose token expires is closed with 4401', async () => {
    const socket = await ready(await tokenUrl(ctx.db.secretKey));
    clock.advance(3600_000 + 1);
    assert.equal(await closeCode(socket.closed), 4401);
  });

  test("an operator's realtime token ends with the operator session: its socket is closed with 4401, no new socket opens", async () => {
    await ctx.server.operatorToken(); // makes sure the operator exists
    const signIn = await request(ctx.server, 'POST', '/admin/sign-in', { body: OPERATOR });
    const session = (signIn.json as { token: string }).token;
    const url = await tokenUrl(session, { 'x-database-id': ctx.db.databaseId });
    const socket = await ready(url);
    assert.equal((await request(ctx.server, 'POST', '/admin/sign-out', { key: session })).status, 204);
    assert.equal(await closeCode(socket.closed), 4401);
    await assert.rejects(openWs(url), { statusCode: 401 });
  });

  test('closing the server ends its open sockets instead of waiting for them', async () => {
    const own = await startServer(kind);
    const { secretKey } = await own.createDatabase();
    const r = await request(own, 'POST', '/realtime/token', { key: secretKey, body: { collections: ['life'] } });
    const socket = await ready((r.json as { url: string }).url);
    let closing: Promise<void> | undefined;
    try {
      closing = own.close();
      assert.notEqual(await closeCode(socket.closed), 4401);
      await closing;
    } finally {
      socket.ws.terminate();
      await closing;
    }
  });
});
