import type { FastifyInstance } from 'fastify';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { Type, type Static } from '@sinclair/typebox';
import { WebSocketServer, type WebSocket } from 'ws';
import { Gauge } from 'prom-client';
import type { Store } from '../store/store.ts';
import type { Clock } from '../infra/clock.ts';
import type { Bus } from '../infra/bus/bus.ts';
import type { Metrics } from '../operations/metrics.ts';
import { principalOf } from '../http/auth.ts';
import { ErrorResponse } from '../http/error-schema.ts';
import { checkCollections, createRealtimeToken, pruneRealtimeTokens, resolveRealtimeToken } from './tokens.ts';
import { FeedHub } from './feed.ts';
import { RealtimeConnection } from './connection.ts';

export interface RealtimeDeps {
  store: Store;
  clock: Clock;
  bus: Bus;
  metrics: Metrics;
  publicUrl: string;
  maxCollections: number;
  heartbeatMs: number;
  maxBufferBytes: number;
}

const TokenBody = Type.Object({ collections: Type.Array(Type.String({ maxLength: 64 }), { maxItems: 1000 }) });
const TokenResponse = Type.Object({
  token: Type.String(), expiresAt: Type.String({ format: 'date-time' }),
  url: Type.String({ description: 'ws(s)://HOST/v1/realtime?token=…; add &after=<event id> to resume' }),
});

/** Answers a refused upgrade with an HTTP status and the §0 error body. */
function refuse(socket: Duplex, status: number, code: string, message: string): void {
  const body = JSON.stringify({ error: { code, message } });
  const reason = status === 401 ? 'Unauthorized' : status === 404 ? 'Not Found' : 'Bad Request';
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

/** §3: the token route and the WebSocket at /v1/realtime. */
export function realtimeRoutes(app: FastifyInstance, deps: RealtimeDeps): void {
  const { store, clock } = deps;
  const hub = new FeedHub(store, 2000, (e) => app.log.warn({ err: e }, 'realtime catch-up failed'));
  deps.bus.subscribe((events) => hub.accept(events));
  deps.bus.onReconnect(() => hub.pollAll());
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  const alive = new WeakMap<WebSocket, boolean>();
  new Gauge({ name: 'svc_realtime_connections', help: 'Open realtime WebSocket connections', registers: [deps.metrics.registry], collect() { this.set(wss.clients.size); } });

  app.post<{ Body: Static<typeof TokenBody> }>('/v1/realtime/token', {
    config: { access: 'key' },
    schema: { tags: ['realtime'], summary: 'A token for the realtime WebSocket (1 hour, several connections)', body: TokenBody, response: { 201: TokenResponse, 400: ErrorResponse, 401: ErrorResponse } },
  }, async (request, reply) => {
    const principal = principalOf(request);
    const collections = checkCollections(request.body.collections, deps.maxCollections);
    const { token, expiresAt } = await createRealtimeToken(store, clock, { databaseId: principal.databaseId, collections }, principal.keyId);
    const url = `${deps.publicUrl.replace(/^http/, 'ws')}/v1/realtime?token=${token}`;
    return reply.code(201).send({ token, expiresAt, url });
  });

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => undefined);
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== '/v1/realtime') return refuse(socket, 404, 'not_found', `No WebSocket at ${url.pathname}`);
    const after = url.searchParams.get('after');
    if (after !== null && !/^\d{1,19}$/.test(after)) return refuse(socket, 400, 'validation_failed', 'after must be an event id');
    resolveRealtimeToken(store, clock, url.searchParams.get('token') ?? '').then((grant) => {
      if (!grant) return refuse(socket, 401, 'invalid_token', 'The realtime token is missing, unknown or expired');
      wss.handleUpgrade(req, socket, head, (ws) => {
        alive.set(ws, true);
        ws.on('pong', () => alive.set(ws, true));
        ws.on('error', () => undefined);
        const connection = new RealtimeConnection(ws, grant, { store, hub, maxBufferBytes: deps.maxBufferBytes });
        connection.start(after === null ? undefined : BigInt(after)).catch((e) => {
          app.log.warn({ err: e }, 'realtime replay failed');
          ws.close(1011, 'internal error');
        });
      });
    }, (e) => {
      app.log.error({ err: e }, 'realtime token lookup failed');
      refuse(socket, 400, 'internal', 'Could not check the token');
    });
  };
  app.server.on('upgrade', onUpgrade);

  // Heartbeat: a socket that missed the previous pong is dead; expired tokens are pruned too.
  const heartbeat = setInterval(() => {
    for (const ws of wss.clients) {
      if (!alive.get(ws)) {
        ws.terminate();
        continue;
      }
      alive.set(ws, false);
      ws.ping();
    }
  }, deps.heartbeatMs);
  heartbeat.unref();
  const pruner = setInterval(() => void pruneRealtimeTokens(store, clock).catch(() => undefined), 3600_000);
  pruner.unref();

  app.addHook('preClose', async () => {
    clearInterval(heartbeat);
    clearInterval(pruner);
    app.server.off('upgrade', onUpgrade);
    for (const ws of wss.clients) ws.terminate();
    wss.close();
    hub.close();
  });
}
