import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { WebSocketServer, type WebSocket } from 'ws';
import { Gauge } from 'prom-client';
import type { Config } from '../config.ts';
import type { Store } from '../store/store.ts';
import type { Clock } from '../infra/clock.ts';
import type { Bus } from '../infra/bus/bus.ts';
import type { Jobs } from '../infra/jobs.ts';
import type { Limiter } from '../infra/limiter/limiter.ts';
import type { Metrics } from '../operations/metrics.ts';
import type { Invalidation } from '../infra/invalidation/invalidation.ts';
import type { Feature } from '../feature.ts';
import { liveTokenHashes, pruneRealtimeTokens } from './tokens.ts';
import { FeedHub } from './feed.ts';
import { CLOSE_GRANT_ENDED, RealtimeConnection } from './connection.ts';
import { OpenSockets } from './sockets.ts';
import { createUpgradeHandler, type AcceptedUpgrade } from './upgrade.ts';
import { realtimeTokenRoute } from './routes.ts';
import { UserFacts } from './user-facts.ts';
import { ViewSource } from './views.ts';
import type { Sessions } from '../auth/sessions.ts';

export interface RealtimeDeps {
  config: Config;
  store: Store;
  clock: Clock;
  bus: Bus;
  limiter: Limiter;
  jobs: Jobs;
  metrics: Metrics;
  log: FastifyBaseLogger;
  /** Tells the users' facts (`$auth`) when a user changed (user-facts.ts). */
  invalidation: Invalidation;
  /** The auth feature's end-user sessions: the token route resolves X-Session-Token through them and their cache. */
  sessions: Sessions;
}

/** How often every feed compares its last event id with the store's (a bus message may be lost). */
const CATCH_UP_EVERY_MS = 2000;
const PRUNE_EVERY_MS = 3600_000;
const GRANT_ENDED_REASON = 'the token expired, or its key or session ended: ask for a new token';

/**
 * §3 and §5: the token route, the WebSocket at /v1/realtime (an `upgrade` listener on the HTTP
 * server) and its jobs: heartbeats, the catch-up poll of the feeds, the prune of expired tokens,
 * and the grant check that closes, with 4401, the sockets whose key was revoked, whose token
 * expired or whose operator or user session ended. The check asks the store (one query for every
 * token with sockets on this instance), so it holds on every instance, with or without Redis.
 *
 * Under rules (API.md §10): a token asked for with a public key (and the user's session, if any)
 * shows its sockets only what the collections' `read` rules let its user see (views.ts).
 */
export function createRealtime(deps: RealtimeDeps): Feature {
  const { config, store, clock, jobs, log } = deps;
  const facts = new UserFacts(store, deps.invalidation);
  const views = new ViewSource(store, facts);
  const hub = new FeedHub(
    store,
    (e) => log.warn({ err: e }, 'realtime catch-up or rules read failed'),
    (databaseId, events, ruled) => views.viewOf(databaseId, events, ruled),
  );
  deps.bus.subscribe((events) => hub.accept(events));
  deps.bus.onReconnect(() => void hub.pollAll());
  const sockets = new OpenSockets(config.limits.realtimeSocketsPerToken);
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  const alive = new WeakMap<WebSocket, boolean>();
  new Gauge({
    name: 'svc_realtime_connections',
    help: 'Open realtime WebSocket connections',
    registers: [deps.metrics.registry],
    collect() {
      this.set(wss.clients.size);
    },
  });

  // The 101 answer carries the X-RateLimit-* headers of §5 too.
  const rateHeaders = new WeakMap<IncomingMessage, Record<string, number>>();
  wss.on('headers', (headers, req) => {
    for (const [name, value] of Object.entries(rateHeaders.get(req) ?? {})) headers.push(`${name}: ${value}`);
  });

  const accept = (req: IncomingMessage, socket: Duplex, head: Buffer, { grant, after, headers }: AcceptedUpgrade) => {
    rateHeaders.set(req, headers);
    wss.handleUpgrade(req, socket, head, (ws) => {
      alive.set(ws, true);
      ws.on('pong', () => alive.set(ws, true));
      ws.on('error', () => undefined);
      const connection = new RealtimeConnection(ws, grant, { store, hub, views, facts, maxBufferBytes: config.realtimeMaxBufferBytes });
      sockets.add(grant.tokenHash, connection);
      ws.once('close', () => sockets.remove(grant.tokenHash, connection));
      connection.start(after).catch((e) => {
        log.warn({ err: e }, 'realtime replay failed');
        ws.close(1011, 'internal error');
      });
    });
  };

  const onUpgrade = createUpgradeHandler({
    store,
    clock,
    limiter: deps.limiter,
    limits: { perKey: config.rateLimitPerKey, perIp: config.rateLimitPerIp },
    trustProxy: config.trustProxy,
    sockets,
    log,
    accept,
  });

  /** A socket that missed the previous pong is dead. */
  const heartbeat = () => {
    for (const ws of wss.clients) {
      if (!alive.get(ws)) {
        ws.terminate();
        continue;
      }
      alive.set(ws, false);
      ws.ping();
    }
  };

  const checkGrants = async () => {
    const tokens = sockets.tokens();
    if (tokens.length === 0) return;
    const live = await liveTokenHashes(store, clock, tokens);
    const closed = sockets.closeEnded(tokens, live, CLOSE_GRANT_ENDED, GRANT_ENDED_REASON);
    if (closed > 0) log.info({ closed }, 'realtime sockets closed: their grant ended');
  };

  let server: Server | undefined;
  /** Takes no more upgrades and drops every socket: the HTTP server's close waits for open sockets. */
  const disconnectAll = () => {
    server?.off('upgrade', onUpgrade);
    server = undefined;
    for (const ws of wss.clients) ws.terminate();
  };

  return {
    routes(app) {
      realtimeTokenRoute(app, {
        store,
        clock,
        publicUrl: config.publicUrl,
        maxCollections: config.limits.realtimeCollections,
        sessions: deps.sessions,
      });
      server = app.server;
      server.on('upgrade', onUpgrade);
    },
    start() {
      jobs.every('realtime: heartbeat', config.realtimeHeartbeatMs, heartbeat);
      jobs.every('realtime: grant check', config.realtimeGrantCheckMs, checkGrants);
      jobs.every('realtime: feed catch-up', CATCH_UP_EVERY_MS, () => hub.pollAll());
      jobs.every('realtime: prune expired tokens', PRUNE_EVERY_MS, () => pruneRealtimeTokens(store, clock));
    },
    closing: disconnectAll,
    async stop() {
      disconnectAll();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      hub.close();
    },
  };
}
