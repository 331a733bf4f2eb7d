import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Clock } from '../../infra/clock.ts';
import type { Limiter } from '../../infra/limiter/limiter.ts';
import type { Mailer } from '../../infra/mailer/mailer.ts';
import type { Store } from '../../store/store.ts';
import type { Background } from '../background.ts';
import type { Current, Sessions } from '../sessions.ts';
import { WayInGuard } from './adding.ts';
import { Factors } from './factors.ts';
import { SignInGate } from './gate.ts';
import { MfaTokens } from './mfa-tokens.ts';
import { mfaRoutes } from './routes.ts';
import { MfaService } from './service.ts';
import { Passkeys } from '../passkeys/passkeys.ts';
import { passkeyRoutes } from '../passkeys/routes.ts';

/**
 * Second factors of end users (API.md §2.2), built once by `createAuth`: `gate` is the one place a
 * sign-in becomes a session or an mfaToken; `routes` registers `/auth/mfa/*` and
 * `/auth/passkeys/*`. Operators' factors (admin/) reuse `factors` and `tokens`.
 */
export function createSecondFactors(d: { store: Store; clock: Clock; limiter: Limiter; sessions: Sessions; mailer: Mailer; background: Background }) {
  const { store, clock, limiter, sessions } = d;
  const factors = new Factors({ store, clock });
  const tokens = new MfaTokens({ store, clock, limiter, factors });
  const guard = new WayInGuard({ store, clock, mailer: d.mailer, background: d.background });
  const gate = new SignInGate({ sessions, tokens });
  const mfa = new MfaService({ store, limiter, sessions, factors, tokens, guard });
  const passkeys = new Passkeys({ store, clock, sessions, guard });
  return {
    gate,
    factors,
    tokens,
    guard,
    routes(app: FastifyInstance, current: (request: FastifyRequest) => Promise<Current>) {
      mfaRoutes(app, { mfa, current });
      passkeyRoutes(app, { passkeys, current });
    },
  };
}
