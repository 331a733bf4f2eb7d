/**
 * svc's name on the API reference page, where @fastify/swagger-ui would show Fastify's logo and
 * Swagger's icon: a logo of text (an SVG the page shows as a data: image, allowed by its CSP) and
 * an SVG favicon. Drawn here because they are a few lines of markup, not worth a file pipeline.
 */
const LOGO = `<svg xmlns="http://www.w3.org/2000/svg" width="260" height="40" viewBox="0 0 260 40">
<text x="0" y="29" font-family="system-ui, -apple-system, Segoe UI, Roboto, sans-serif" font-size="26" font-weight="700" fill="#ffffff">svc</text>
<text x="54" y="29" font-family="system-ui, -apple-system, Segoe UI, Roboto, sans-serif" font-size="20" fill="#cbd5e1">API reference</text>
</svg>`;

const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
<rect width="32" height="32" rx="6" fill="#2457d6"/>
<text x="16" y="22" text-anchor="middle" font-family="system-ui, sans-serif" font-size="16" font-weight="700" fill="#ffffff">svc</text>
</svg>`;

export const docsLogo = { type: 'image/svg+xml', content: Buffer.from(LOGO), href: '/docs', target: '_self' as const };
export const docsFavicon = [{ filename: 'favicon.svg', rel: 'icon', sizes: 'any', type: 'image/svg+xml', content: Buffer.from(ICON) }];

/**
 * The order of the reference's sections (Swagger UI follows the document's `tags`): what an app
 * calls first (documents, its rules, files, realtime, accounts, webhooks), then the operator's routes.
 */
export const OPENAPI_TAGS = [
  { name: 'documents', description: 'Collections of JSON documents: insert, list, filter, get, update, delete' },
  { name: 'rules', description: 'What a public key may do, per collection' },
  { name: 'files', description: 'Buckets of files: upload, list, serve, thumbnails, signed links' },
  { name: 'realtime', description: 'Changes as they happen, over a WebSocket, and sync for offline replicas' },
  { name: 'auth', description: 'End-user accounts: sign-up, sign-in, sessions, e-mail links, OAuth' },
  { name: 'webhooks', description: 'Changes sent to your servers, signed' },
  { name: 'admin', description: 'Operators: databases, keys, settings, users' },
  { name: 'operations', description: 'Health, readiness and metrics' },
];
