import type { FastifyBaseLogger } from 'fastify';
import type { Feature } from '../feature.ts';
import type { DocumentRules } from '../documents/rule-access.ts';
import type { Store } from '../store/store.ts';
import { syncRoutes } from './routes.ts';
import { SyncService } from './service.ts';

/** §3.1 sync: the server side of offline-first replicas, read from the change log (no log of its own). */
export function createSync(deps: { store: Store; rules: DocumentRules; log: FastifyBaseLogger }): Feature {
  const sync = new SyncService(deps.store);
  return {
    routes: (app) => syncRoutes(app, { sync, rules: deps.rules, store: deps.store }),
    start: () => sync.ready().catch((e: unknown) => deps.log.warn({ err: e }, 'the sync checkpoint key could not be read yet')),
  };
}
