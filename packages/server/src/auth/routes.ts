import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Limiter } from '../infra/limiter/limiter.ts';
import type { EmailLinks } from './email-links.ts';
import { emailLinkRoutes } from './email-link-routes.ts';
import type { OAuthFlow } from './oauth/flow.ts';
import { oauthRoutes } from './oauth/routes.ts';
import { passwordRoutes } from './password-routes.ts';
import type { Current } from './sessions.ts';
import { sessionRoutes } from './session-routes.ts';
import type { AuthService } from './service.ts';

/** The services the routes call (built once by `createAuth`). */
export interface AuthRouteDeps {
  auth: AuthService;
  links: EmailLinks;
  oauth: OAuthFlow;
  limiter: Limiter;
  /** The request's live session, else 401 `invalid_session` (request-session.ts `currentSession`). */
  current: (request: FastifyRequest) => Promise<Current>;
}

/**
 * §2 end-user accounts, one file per way in: a password, the signed-in session, links by e-mail
 * (reset, magic link, verification), OAuth and OpenID Connect. Registered here in this order,
 * which is the order of the OpenAPI reference. Second factors and passkeys register beside them
 * (mfa/mfa.ts); the app's management of its users under /auth/users is users/routes.ts.
 */
export function authRoutes(app: FastifyInstance, deps: AuthRouteDeps): void {
  passwordRoutes(app, deps);
  sessionRoutes(app, deps);
  emailLinkRoutes(app, deps);
  oauthRoutes(app, deps);
}
