import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Store } from '../store/store.ts';
import { metricsAccess, type Metrics } from './metrics.ts';
import { ApiError, errorBody } from '../errors.ts';
import type { RedisHealth } from '../infra/redis.ts';
import { createReadiness } from './readiness.ts';

/** §7: health, readiness, metrics and the OpenAPI document. */
export function operationsRoutes(app: FastifyInstance, deps: { store: Store; metrics: Metrics; metricsToken?: string; redis?: RedisHealth }): void {
  // Answer types come from the route schemas.
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const hidden = { hide: true };
  api.get('/health', { schema: { ...hidden, response: { 200: Type.Object({ status: Type.Literal('ok') }) } } }, async () => ({ status: 'ok' as const }));

  const readiness = createReadiness({ store: deps.store, redis: deps.redis, log: app.log });
  api.get('/ready', { schema: hidden }, async (_request, reply) => {
    const report = await readiness.check();
    if (report.status !== 'unavailable') return report;
    // Also in the §0 error shape, as every error answer is.
    return reply.code(503).send({ ...report, ...errorBody(new ApiError('unavailable', 'The store does not answer')) });
  });

  api.get('/metrics', { schema: hidden, onRequest: metricsAccess(deps.metricsToken) }, async (_request, reply) => {
    reply.type(deps.metrics.registry.contentType);
    return deps.metrics.registry.metrics();
  });

  api.get('/v1/openapi.json', { schema: { summary: 'This OpenAPI 3.1 document', tags: ['operations'] } }, async () => {
    if (!app.swagger) throw new ApiError('internal', 'OpenAPI is not available');
    return app.swagger();
  });
}
