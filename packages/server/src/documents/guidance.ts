import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, sendError, type ErrorDetail } from '../errors.ts';

/**
 * Answers that say how to do it in svc when a request is written the way another backend (or
 * habit) spells it: unknown list parameters are a 400 naming them, with svc's name for
 * those that PocketBase, Supabase or REST habit use, instead of being silently ignored (a
 * `sort=-createdAt` answered in the default order looks like a bug in the app); a method the path
 * does not take is a 405 with `Allow` and the method to use.
 */

/** The list's query parameters (documents/schemas.ts listQuerySchema). */
const LIST_PARAMS = new Set(['limit', 'offset', 'cursor', 'fields', 'sortBy', 'sortOrder', 'search', 'filter']);

/** `-createdAt` (PocketBase), `createdAt.desc` (Supabase), `createdAt desc`, `createdAt:desc` → sortBy and sortOrder. */
function sortHint(value: unknown): string {
  const first = (typeof value === 'string' ? value : '').split(',')[0].trim();
  const m = /^([-+]?)([^\s.:]+(?:\.[^\s.:]+)*?)(?:[\s.:](asc|desc)(?:\.\w+)*)?$/i.exec(first);
  if (!m) return 'use sortBy=<field> and sortOrder=asc or desc';
  const order = m[3] ? m[3].toLowerCase() : m[1] === '-' ? 'desc' : 'asc';
  return `use sortBy=${m[2]}&sortOrder=${order} (one field; ties break by id)`;
}

/** svc's way of saying what a peer's list parameter says. */
const PEERS: Record<string, (value: unknown) => string> = {
  sort: sortHint,
  order: (v) => (typeof v === 'string' && /\w[.:\s](asc|desc)/i.test(v) ? sortHint(v) : 'use sortOrder=asc or desc (with sortBy=<field>)'),
  orderBy: sortHint,
  order_by: sortHint,
  page: () => 'use offset=(page - 1) × limit, or the cursor of the previous page (cursor=<nextCursor>)',
  perPage: () => 'use limit (0 to the server’s page size, default 20)',
  per_page: () => 'use limit (0 to the server’s page size, default 20)',
  pageSize: () => 'use limit (0 to the server’s page size, default 20)',
  page_size: () => 'use limit (0 to the server’s page size, default 20)',
  skip: () => 'use offset',
  where: () => 'use filter, a JSON object: filter={"status":"open"}',
  select: () => 'use fields=<path>,<path>',
  q: () => 'use search (full-text search of the collection’s search fields)',
};

/** preValidation of the list: 400 `validation_failed` naming each unknown parameter. */
export function knownListParams(request: FastifyRequest, _reply: FastifyReply, done: (e?: Error) => void): void {
  const query = request.query as Record<string, unknown>;
  const details: ErrorDetail[] = [];
  for (const name of Object.keys(query)) {
    if (LIST_PARAMS.has(name)) continue;
    const peer = Object.hasOwn(PEERS, name) ? PEERS[name] : undefined;
    details.push({ path: `/${name}`, message: `is not a list parameter: ${peer ? peer(query[name]) : `svc's are ${[...LIST_PARAMS].join(', ')}`}` });
  }
  if (!details.length) {
    done();
    return;
  }
  done(
    new ApiError(
      'validation_failed',
      `Unknown list parameter${details.length > 1 ? 's' : ''}: ${details.map((d) => `${d.path.slice(1)} ${d.message}`).join('; ')}`,
      details,
    ),
  );
}

/**
 * 405 for the methods a document path does not take, with `Allow` and a hint (PUT: svc has no
 * replace; PATCH merges). Hidden from the OpenAPI document: they are not routes one may call.
 */
export function methodGuidance(app: FastifyInstance): void {
  const refuse = (allow: string, hint: string) => async (request: FastifyRequest, reply: FastifyReply) =>
    sendError(reply.header('allow', allow), new ApiError('method_not_allowed', `${request.method} is not allowed here (${allow} are): ${hint}`));
  const schema = { hide: true };
  const patch = 'to change a document, send PATCH with the fields to change (JSON Merge Patch: null removes a field)';
  app.put('/v1/:collection/docs/:id', { schema }, refuse('GET, PATCH, DELETE', patch));
  app.post('/v1/:collection/docs/:id', { schema }, refuse('GET, PATCH, DELETE', `to create a document, POST to /v1/<collection>/docs; ${patch}`));
  app.put('/v1/:collection/docs', { schema }, refuse('GET, POST', 'to create documents, POST one to this path or several to /v1/<collection>/bulk'));
}
