import type { Feature } from '../feature.ts';
import type { Limiter } from '../infra/limiter/limiter.ts';
import type { Store } from '../store/store.ts';
import { adminRoutes } from './routes.ts';
import { FirstRunSetup } from './setup.ts';
import { setupRoutes } from './setup-routes.ts';
import { userAdminRoutes } from './users-routes.ts';
import { Factors } from '../auth/mfa/factors.ts';
import { MfaTokens } from '../auth/mfa/mfa-tokens.ts';
import type { Clock } from '../infra/clock.ts';
import { OperatorMfa } from './operator-mfa.ts';
import { operatorMfaRoutes } from './mfa-routes.ts';

/** §6 management: operators, databases, keys, the first-run setup and the dashboard's user pages. */
export function createAdmin(deps: { store: Store; clock: Clock; publicUrl: string; limiter: Limiter; setupToken?: string }): Feature {
  const { store, clock } = deps;
  const setup = new FirstRunSetup(store, clock, deps.setupToken);
  // Operators' second factors (API.md §2.2) share the end users' factor and mfaToken code.
  const factors = new Factors({ store, clock });
  const mfa = new OperatorMfa({ store, clock, limiter: deps.limiter, factors, tokens: new MfaTokens({ store, clock, limiter: deps.limiter, factors }) });
  return {
    routes(app) {
      adminRoutes(app, { store, clock, publicUrl: deps.publicUrl, limiter: deps.limiter, mfa });
      operatorMfaRoutes(app, { mfa });
      setupRoutes(app, { setup });
      userAdminRoutes(app, { store });
    },
  };
}
