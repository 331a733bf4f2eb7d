import type { FastifyInstance } from 'fastify';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const INDEX = fileURLToPath(new URL('../../../dashboard/public/index.html', import.meta.url));

/** Serves the dashboard at `/` (a placeholder page until the dashboard app lands). */
export function dashboardRoutes(app: FastifyInstance): void {
  const html = readFileSync(INDEX, 'utf8');
  app.get('/', { schema: { hide: true } }, async (_request, reply) => reply.type('text/html; charset=utf-8').send(html));
}
