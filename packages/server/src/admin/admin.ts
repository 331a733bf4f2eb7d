import type { Feature } from '../feature.ts';
import type { Limiter } from '../infra/limiter/limiter.ts';
import type { Store } from '../store/store.ts';
import { adminRoutes } from './routes.ts';
import { FirstRunSetup } from './setup.ts';
import { setupRoutes } from './setup-routes.ts';
import { userAdminRoutes } from './users-routes.ts';

/** §6 management: operators, databases, keys, the first-run setup and the dashboard's user pages. */
export function createAdmin(deps: { store: Store; publicUrl: string; limiter: Limiter; setupToken?: string }): Feature {
  const { store } = deps;
  const setup = new FirstRunSetup(store, deps.setupToken);
  return {
    routes(app) {
      adminRoutes(app, { store, publicUrl: deps.publicUrl, limiter: deps.limiter });
      setupRoutes(app, { setup });
      userAdminRoutes(app, { store });
    },
  };
}
