import type { FastifyInstance, FastifyReply } from 'fastify';
import { ApiError } from '../errors.ts';
import type { LimitResult, Limiter } from '../infra/limiter/limiter.ts';

/**
 * §5: every /v1 request is counted, per key (or operator) when the caller authenticated, else per
 * client IP, and carries X-RateLimit-* headers. Runs after authentication resolved the caller
 * and before its failure is thrown, so requests with bad keys are counted against their IP.
 */
export function installRateLimit(app: FastifyInstance, deps: { limiter: Limiter; perKey: number; perIp: number }): void {
  const apply = (r: LimitResult, reply: FastifyReply, done: (e?: Error) => void) => {
    reply.header('X-RateLimit-Limit', r.limit);
    reply.header('X-RateLimit-Remaining', r.remaining);
    reply.header('X-RateLimit-Reset', r.resetSeconds);
    if (r.allowed) return done();
    reply.header('Retry-After', r.resetSeconds);
    done(new ApiError('rate_limited', `Too many requests; retry in ${r.resetSeconds} s`, undefined, { retryAfter: r.resetSeconds }));
  };
  // A callback hook: with the local limiter a request is counted without a promise.
  app.addHook('onRequest', (request, reply, done) => {
    if ((!request.url.startsWith('/v1/') && request.url !== '/v1') || request.method === 'OPTIONS') return done(); // CORS preflights are free
    const p = request.principal;
    const [bucket, limit] = p
      ? [p.keyId ? `key:${p.keyId}` : `op:${p.operatorId}`, deps.perKey]
      : request.operator ? [`op:${request.operator.id}`, deps.perKey] : [`ip:${request.ip}`, deps.perIp];
    const r = deps.limiter.consume(bucket, limit);
    if (r instanceof Promise) r.then((x) => apply(x, reply, done), done);
    else apply(r, reply, done);
  });
}
