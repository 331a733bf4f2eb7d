import swaggerUi from '@fastify/swagger-ui';
import type { Feature } from '../feature.ts';
import { docsFavicon, docsLogo } from './branding.ts';

/**
 * The policy of the API reference page. Swagger UI's files come from this server (the package
 * ships them: no CDN), its scripts are files (no inline code), it fetches /v1/openapi.json from the
 * same origin and it sets inline `style` attributes while it renders (hence 'unsafe-inline' for
 * styles only). The "Try it out" requests go to PUBLIC_URL, which may be another host.
 */
function docsPolicy(publicUrl: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self' ${new URL(publicUrl).origin}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * API.md §11: `GET /docs`, the API reference rendered from `/v1/openapi.json` in a browser, by
 * Swagger UI (@fastify/swagger-ui): a page, its static files under /docs/static/, and the same
 * OpenAPI document under /docs/json and /docs/yaml. Like the dashboard, it is sent with a CSP, no
 * framing and no MIME sniffing (§7).
 */
export function createDocs(deps: { publicUrl: string }): Feature {
  return {
    routes: (app) => {
      app.register(swaggerUi, {
        routePrefix: '/docs',
        // The page loads the document the API serves (the same app.swagger() as /docs/json).
        uiConfig: { urls: [{ url: '/v1/openapi.json', name: 'svc API' }], deepLinking: true, tryItOutEnabled: false, displayRequestDuration: true },
        theme: { title: 'svc API reference', favicon: docsFavicon },
        logo: docsLogo,
        staticCSP: docsPolicy(deps.publicUrl),
        uiHooks: {
          onRequest: (_request, reply, done) => {
            reply.headers({ 'x-frame-options': 'DENY', 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' });
            done();
          },
        },
      });
    },
  };
}
