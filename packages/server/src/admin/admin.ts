import type { Feature } from '../feature.ts';
import type { Limiter } from '../infra/limiter/limiter.ts';
import type { Store } from '../store/store.ts';
import { adminRoutes } from './routes.ts';
import { FirstRunSetup } from './setup.ts';
import { setupRoutes } from './setup-routes.ts';
import { operatorUserRoutes } from '../users/operator-routes.ts';
import { Factors } from '../auth/mfa/factors.ts';
import { MfaTokens } from '../auth/mfa/mfa-tokens.ts';
import type { Clock } from '../infra/clock.ts';
import { OperatorMfa } from './operator-mfa.ts';
import { operatorMfaRoutes } from './mfa-routes.ts';
import { operatorClock } from '../keys/operator-sessions.ts';

/** §6 management: operators, databases, keys, the first-run setup and the dashboard's user pages. */
export function createAdmin(deps: { store: Store; clock: Clock; publicUrl: string; limiter: Limiter; setupToken?: string }): Feature {
  const { store, clock } = deps;
  // Operators, their sessions and second factors run on the wall clock (keys/operator-sessions.ts); databases and keys on the app's.
  const setup = new FirstRunSetup(store, operatorClock, deps.setupToken);
  // Operators' second factors (API.md §2.2) share the end users' factor and mfaToken code.
  const factors = new Factors({ store, clock: operatorClock });
  const tokens = new MfaTokens({ store, clock: operatorClock, limiter: deps.limiter, factors });
  const mfa = new OperatorMfa({ store, clock: operatorClock, limiter: deps.limiter, factors, tokens });
  return {
    routes(app) {
      adminRoutes(app, { store, clock, publicUrl: deps.publicUrl, limiter: deps.limiter, mfa });
      operatorMfaRoutes(app, { mfa });
      setupRoutes(app, { setup });
      operatorUserRoutes(app, { store });
    },
  };
}
