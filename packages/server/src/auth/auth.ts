import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { Feature } from '../feature.ts';
import type { Clock } from '../infra/clock.ts';
import type { Jobs } from '../infra/jobs.ts';
import type { Limiter } from '../infra/limiter/limiter.ts';
import { createMailer } from '../infra/mailer/mailer.ts';
import { DatabaseMailers } from '../email/mailers.ts';
import type { Store } from '../store/store.ts';
import { InvalidatedCache } from '../infra/invalidation/cache.ts';
import type { Invalidation } from '../infra/invalidation/invalidation.ts';
import { Background } from './background.ts';
import { PURGE_EVERY_MS, purgeExpired } from './cleanup.ts';
import { EmailLinks } from './email-links.ts';
import { OAuthFlow } from './oauth/flow.ts';
import { authRoutes } from './routes.ts';
import { AuthService } from './service.ts';
import { Sessions, type SessionEntry } from './sessions.ts';
import { currentSession } from './request-session.ts';
import { UserAdmin } from '../users/user-admin.ts';
import { userAdminRoutes } from '../users/routes.ts';
import { DAY } from './tokens.ts';
import { createSecondFactors } from './mfa/mfa.ts';

/** What the auth feature needs from the app. */
export interface AuthDeps {
  store: Store;
  config: Config;
  limiter: Limiter;
  clock: Clock;
  jobs: Jobs;
  log: FastifyBaseLogger;
  /** Where live sessions learn they died: `resolve` caches them under it (config.credentialCacheSize). */
  invalidation?: Invalidation;
}

/**
 * §2 end-user accounts as one feature, wired once by the app: passwords and sessions, reset and
 * magic links by e-mail, sign-in with Google or GitHub. The purge of expired rows runs as a job;
 * `stop` waits for the mails still being sent, then closes the mailer.
 */
export function createAuth(deps: AuthDeps): Feature & { sessions: Sessions } {
  const { store, config, limiter, clock, jobs, log } = deps;
  const cache = deps.invalidation && new InvalidatedCache<SessionEntry>(deps.invalidation, { max: config.credentialCacheSize });
  const sessions = new Sessions(store, clock, config.sessionTtlDays * DAY, cache);
  const serverMailer = createMailer({ smtpUrl: config.smtpUrl, from: config.emailFrom, log });
  const mailer = new DatabaseMailers(serverMailer, config.emailFrom);
  const background = new Background(log);
  // Second factors (API.md §2.2): `gate` is where every sign-in turns into a session or an mfaToken.
  const mfa = createSecondFactors({ store, clock, limiter, sessions, mailer: serverMailer, background });
  const { gate } = mfa;
  const links = new EmailLinks({ store, clock, mailer, sessions, background, gate });
  const auth = new AuthService({ store, clock, sessions, links, gate });
  const users = new UserAdmin({ store, clock });
  const oauth = new OAuthFlow({ store, clock, sessions, gate, endpoints: config.oauth, publicUrl: config.publicUrl, log });
  const current = (request: FastifyRequest) => currentSession(sessions, request);
  return {
    sessions,
    routes(app) {
      authRoutes(app, { auth, links, oauth, limiter, current });
      userAdminRoutes(app, { users, maxPageSize: config.limits.pageSize });
      mfa.routes(app, current);
    },
    start() {
      jobs.every('auth: purge expired sessions and tokens', PURGE_EVERY_MS, () => purgeExpired(store, clock));
    },
    async stop() {
      await background.drain();
      await mailer.close();
    },
  };
}
