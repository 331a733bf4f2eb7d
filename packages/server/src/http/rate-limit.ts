import type { FastifyReply } from 'fastify';
import type { CountRequest } from './auth.ts';
import { ApiError } from '../errors.ts';
import type { LimitResult, Limiter } from '../infra/limiter/limiter.ts';

/** Who a request is counted against, and its limit (§5): its key, else its operator, else the client IP. */
export function limitBucket(
  caller: { keyId?: string; operatorId?: string } | undefined,
  ip: string,
  limits: { perKey: number; perIp: number },
): [bucket: string, limit: number] {
  if (caller?.keyId) return [`key:${caller.keyId}`, limits.perKey];
  if (caller?.operatorId) return [`op:${caller.operatorId}`, limits.perKey];
  return [`ip:${ip}`, limits.perIp];
}

/** The X-RateLimit-* headers of a counted request, and Retry-After past the limit. */
export function rateLimitHeaders(r: LimitResult): Record<string, number> {
  const headers: Record<string, number> = { 'X-RateLimit-Limit': r.limit, 'X-RateLimit-Remaining': r.remaining, 'X-RateLimit-Reset': r.resetSeconds };
  if (!r.allowed) headers['Retry-After'] = r.resetSeconds;
  return headers;
}

/** The 429 of a request past its limit. */
export function rateLimitedError(r: LimitResult): ApiError {
  return new ApiError(
    'rate_limited',
    `Too many requests: over ${r.limit} a minute (the server's RATE_LIMIT_PER_KEY with a valid key, else RATE_LIMIT_PER_IP); retry in ${r.resetSeconds} s`,
    undefined,
    { retryAfter: r.resetSeconds },
  );
}

/**
 * §5: every /v1 request is counted, per key (or operator) when the caller authenticated, else per
 * client IP, and carries X-RateLimit-* headers. The step of http/auth.ts's request checks, run
 * after authentication resolved the caller and before its failure is thrown, so requests with
 * bad keys are counted against their IP. A callback: with the local limiter a request is
 * counted without a promise.
 */
export function requestCounter(deps: { limiter: Limiter; perKey: number; perIp: number }): CountRequest {
  const apply = (r: LimitResult, reply: FastifyReply, done: (e?: Error) => void) => {
    // Lower-case names: what Fastify would turn them into anyway (and sends), without the work.
    reply.header('x-ratelimit-limit', r.limit).header('x-ratelimit-remaining', r.remaining).header('x-ratelimit-reset', r.resetSeconds);
    if (r.allowed) return done();
    reply.header('retry-after', r.resetSeconds);
    done(rateLimitedError(r));
  };
  return (request, reply, done) => {
    const url = request.url;
    if ((!url.startsWith('/v1/') && url !== '/v1') || request.method === 'OPTIONS') return done(); // CORS preflights are free
    const caller = request.principal ?? (request.operator ? { operatorId: request.operator.id } : undefined);
    const [bucket, limit] = limitBucket(caller, request.ip, deps);
    const r = deps.limiter.consume(bucket, limit);
    if (r instanceof Promise) r.then((x) => apply(x, reply, done), done);
    else apply(r, reply, done);
  };
}
