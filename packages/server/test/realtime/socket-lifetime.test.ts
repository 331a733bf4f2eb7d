import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { OPERATOR, startServer, useServer } from '../helpers/server.ts';
import { apiClient, type ApiClient, type CallOptions } from '../helpers/api.ts';
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
  const t = useServer(kind, { clock });
  const secret = apiClient(
    () => t.server,
    () => t.db.secretKey,
  );
  const op = apiClient(
    () => t.server,
    () => t.server.operatorToken(),
  );

  /** The socket URL of a new token asked for by `client` (by default with the secret key). */
  const tokenUrl = async (client: ApiClient = secret, opts: CallOptions = {}) =>
    (await client.post<{ url: string }>('/realtime/token', { collections: ['life'] }, 201, opts)).url;
  const ready = async (url: string): Promise<WsClient> => {
    const c = await openWs(url);
    await c.waitFor((m) => m.type === 'ready');
    return c;
  };
  const newSecretKey = () => op.post<{ key: string; id: string }>(`/admin/databases/${t.db.databaseId}/keys`, { kind: 'secret' }, 201);

  test("a revoked key's open socket is closed with 4401, its token opens no new socket, others stay open", async () => {
    const doomed = await newSecretKey();
    const url = await tokenUrl(apiClient(t.server, doomed.key));
    const socket = await ready(url);
    const bystander = await ready(await tokenUrl());
    await op.delete(`/admin/databases/${t.db.databaseId}/keys/${doomed.id}`, 204);
    assert.equal(await closeCode(socket.closed), 4401);
    await assert.rejects(openWs(url), { statusCode: 401 });
    assert.equal(bystander.ws.readyState, bystander.ws.OPEN, 'a socket of a live key is left alone');
    await secret.post('/life/docs', { still: 'streaming' }, 201);
    await bystander.waitFor((m) => m.type === 'event');
    await bystander.close();
  });

  test('a socket whose token expires is closed with 4401', async () => {
    const socket = await ready(await tokenUrl());
    clock.advance(3600_000 + 1);
    assert.equal(await closeCode(socket.closed), 4401);
  });

  test("an operator's realtime token ends with the operator session: its socket is closed with 4401, no new socket opens", async () => {
    await t.server.operatorToken(); // makes sure the operator exists
    const session = (await apiClient(t.server).post<{ token: string }>('/admin/sign-in', OPERATOR, 200)).token;
    const url = await tokenUrl(apiClient(t.server, session), { headers: { 'x-database-id': t.db.databaseId } });
    const socket = await ready(url);
    await apiClient(t.server, session).post('/admin/sign-out', undefined, 204);
    assert.equal(await closeCode(socket.closed), 4401);
    await assert.rejects(openWs(url), { statusCode: 401 });
  });

  test('closing the server ends its open sockets instead of waiting for them', async () => {
    // A server of its own: this test closes it.
    const own = await startServer(kind);
    const socket = await ready(await tokenUrl(apiClient(own, (await own.createDatabase()).secretKey)));
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
