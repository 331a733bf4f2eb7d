import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { ApiError, rawErrorResponse } from '../errors.ts';
import type { Store } from '../store/store.ts';
import type { Clock } from '../infra/clock.ts';
import type { LimitResult, Limiter } from '../infra/limiter/limiter.ts';
import { limitBucket, rateLimitedError, rateLimitHeaders } from '../http/rate-limit.ts';
import { resolveRealtimeToken, type RealtimeGrant } from './tokens.ts';
import type { OpenSockets } from './sockets.ts';

/** Seconds a client is told to wait when the store (or the limiter) did not answer. */
const UNAVAILABLE_RETRY_SECONDS = 5;
/** Seconds a client is told to wait when its token has all its sockets open: one may close any time. */
const SOCKETS_FULL_RETRY_SECONDS = 5;

export interface UpgradeDeps {
  store: Store;
  clock: Clock;
  limiter: Limiter;
  limits: { perKey: number; perIp: number };
  trustProxy: boolean;
  sockets: OpenSockets;
  log: FastifyBaseLogger;
  /** Completes an upgrade that passed every check (its socket place is given back when the socket closes). */
  accept(req: IncomingMessage, socket: Duplex, head: Buffer, upgrade: AcceptedUpgrade): void;
}

/** What an accepted upgrade carries into the WebSocket. */
export interface AcceptedUpgrade {
  grant: RealtimeGrant;
  after: bigint | undefined;
  /** X-RateLimit-* headers, for the 101 answer. */
  headers: Record<string, number>;
}

/** Answers a refused upgrade in the §0 error shape, through the one rendering of errors. */
function refuse(socket: Duplex, e: ApiError, headers: Record<string, number> = {}): void {
  const retryAfter = e.extra?.retryAfter;
  const all = typeof retryAfter === 'number' ? { ...headers, 'Retry-After': retryAfter } : headers;
  socket.end(rawErrorResponse(e, all));
}

/**
 * The client address the rate limit counts, as Fastify's `request.ip` has it: with TRUST_PROXY the
 * left-most X-Forwarded-For entry (what proxy-addr answers when every hop is trusted), else the
 * peer. Written out because an upgrade never becomes a Fastify request.
 */
function clientIp(req: IncomingMessage, trustProxy: boolean): string {
  const forwarded = req.headers['x-forwarded-for'];
  if (trustProxy && typeof forwarded === 'string') {
    const first = forwarded.split(',')[0].trim();
    if (first) return first;
  }
  return req.socket.remoteAddress ?? 'unknown';
}

const unavailable = () =>
  new ApiError('unavailable', 'The token could not be checked right now; retry in a moment', undefined, { retryAfter: UNAVAILABLE_RETRY_SECONDS });

/**
 * The `upgrade` listener of the HTTP server (§3, §5): an upgrade is counted against the rate
 * limit like a request (its token's key or operator when the token is live, else the client IP),
 * then needs a live token and a free socket place of that token. Every refusal is an HTTP answer
 * in the §0 shape: 429 (with Retry-After) past a limit, 401 for a bad token, 503 when the store
 * does not answer.
 */
export function createUpgradeHandler(deps: UpgradeDeps): (req: IncomingMessage, socket: Duplex, head: Buffer) => void {
  const handle = async (req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    // Outside /v1 nothing is counted (as with requests), and nothing upgrades.
    if (!url.pathname.startsWith('/v1/')) return refuse(socket, new ApiError('not_found', `No WebSocket at ${url.pathname}`));
    const isRealtime = url.pathname === '/v1/realtime';
    let grant: RealtimeGrant | undefined;
    let counted: LimitResult;
    try {
      // The token is resolved first, as a request's key is: a live token counts against its key.
      if (isRealtime) grant = await resolveRealtimeToken(deps.store, deps.clock, url.searchParams.get('token') ?? '');
      const [bucket, limit] = limitBucket(grant, clientIp(req, deps.trustProxy), deps.limits);
      counted = await deps.limiter.consume(bucket, limit);
    } catch (e) {
      deps.log.warn({ err: e }, 'realtime upgrade: token lookup or rate limit failed');
      return refuse(socket, unavailable());
    }
    const headers = rateLimitHeaders(counted);
    if (!counted.allowed) return refuse(socket, rateLimitedError(counted), headers);
    if (!isRealtime) return refuse(socket, new ApiError('not_found', `No WebSocket at ${url.pathname}`), headers);
    const after = url.searchParams.get('after');
    if (after !== null && !/^\d{1,19}$/.test(after)) {
      return refuse(socket, new ApiError('validation_failed', 'after must be an event id', [{ path: '/after', message: 'must be an event id' }]), headers);
    }
    if (!grant)
      return refuse(socket, new ApiError('invalid_token', 'The realtime token is missing, unknown or expired, or its key or session has ended'), headers);
    // The client may have gone while the checks ran; from here on nothing awaits until the place is tied to the socket.
    if (socket.destroyed) return;
    const release = deps.sockets.reserve(grant.tokenHash);
    if (!release) {
      const n = deps.sockets.perToken;
      const full = new ApiError(
        'rate_limited',
        `This realtime token already has ${n} open sockets on this instance, the most one token may have (the server's LIMIT_REALTIME_SOCKETS_PER_TOKEN); close one first`,
        undefined,
        { retryAfter: SOCKETS_FULL_RETRY_SECONDS },
      );
      return refuse(socket, full, headers);
    }
    socket.once('close', release);
    deps.accept(req, socket, head, { grant, after: after === null ? undefined : BigInt(after), headers });
  };
  return (req, socket, head) => {
    socket.on('error', () => undefined);
    handle(req, socket, head).catch((e: unknown) => {
      deps.log.error({ err: e }, 'realtime upgrade failed');
      if (!socket.destroyed) socket.destroy();
    });
  };
}
