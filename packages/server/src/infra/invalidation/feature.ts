import type { FastifyInstance, onSendHookHandler } from 'fastify';
import type { Feature } from '../../feature.ts';
import type { Jobs } from '../jobs.ts';
import { MAINTAIN_EVERY_MS, type Invalidation } from './invalidation.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route ends or changes a credential a cache may hold (revokes a key, ends a session,
     * changes a user): its successful answer leaves only after `Invalidation.barrier()`, so the
     * very next request, on any instance, sees the change.
     */
    invalidates?: boolean;
  }
}

/**
 * Listening for invalidations as a feature: started before the others (caches stay off until it
 * listens), kept alive by a job that replaces a lost connection, closed last. It also gives every
 * route declaring `config.invalidates` its barrier; other routes get no hook at all.
 */
export function createInvalidationFeature(app: FastifyInstance, invalidation: Invalidation, jobs: Jobs): Feature {
  const barrier: onSendHookHandler = (_request, reply, payload, done) => {
    if (reply.statusCode >= 400) return done(null, payload);
    invalidation.barrier().then(() => done(null, payload), done);
  };
  // Before any route is registered (features register theirs after this returns).
  app.addHook('onRoute', (route) => {
    if (!route.config?.invalidates) return;
    const own = route.onSend;
    route.onSend = own === undefined ? [barrier] : [...(Array.isArray(own) ? own : [own]), barrier];
  });
  // Ahead of Fastify's own listener, so before any hook of the request (the API key's lookup first).
  const beforeRequest = invalidation.beforeRequest?.bind(invalidation);
  if (beforeRequest) {
    app.server.prependListener('request', beforeRequest);
    app.server.prependListener('upgrade', beforeRequest);
  }
  return {
    routes: () => undefined,
    async start() {
      await invalidation.start();
      jobs.every('invalidation: keep listening', MAINTAIN_EVERY_MS, () => invalidation.maintain());
    },
    stop: () => invalidation.close(),
  };
}
