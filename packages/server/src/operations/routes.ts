import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { Store } from '../store/store.ts';
import { metricsAccess, type Metrics } from './metrics.ts';
import { ApiError } from '../errors.ts';

/** §7: health, readiness, metrics and the OpenAPI document. */
export function operationsRoutes(app: FastifyInstance, deps: { store: Store; metrics: Metrics; metricsToken?: string }): void {
  const hidden = { hide: true };
  app.get('/health', { schema: { ...hidden, response: { 200: Type.Object({ status: Type.Literal('ok') }) } } }, async () => ({ status: 'ok' as const }));

  app.get('/ready', { schema: hidden }, async (_request, reply) => {
    try {
      await deps.store.ping();
      return { status: 'ready' };
    } catch {
      return reply.code(503).send({ error: { code: 'internal', message: 'The store does not answer' } });
    }
  });

  app.get('/metrics', { schema: hidden, onRequest: metricsAccess(deps.metricsToken) }, async (_request, reply) => {
    reply.type(deps.metrics.registry.contentType);
    return deps.metrics.registry.metrics();
  });

  app.get('/v1/openapi.json', { schema: { summary: 'This OpenAPI 3.1 document', tags: ['operations'] } }, async () => {
    if (!app.swagger) throw new ApiError('internal', 'OpenAPI is not available');
    return app.swagger();
  });
}
