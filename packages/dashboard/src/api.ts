/** The management API and the data routes, as the dashboard calls them (API.md §6). */

/** An error answer of the API, or a network failure (status 0), with words to show. */
export class ApiError extends Error {
  constructor(readonly status: number, readonly code: string, message: string, readonly details?: Array<{ path: string; message: string }>) {
    super(message);
  }
}

export interface Operator { id: string; email: string; createdAt: string }
export interface OAuthClient { clientId: string | null; clientSecretSet: boolean }
export interface Settings { redirectUrls: string[]; siteUrl: string | null; oauth: { google?: OAuthClient; github?: OAuthClient } }
export interface Database { id: string; name: string; settings: Settings; createdAt: string; updatedAt: string }
export interface NewKey { id: string; kind: 'secret' | 'public'; name: string | null; key: string; createdAt: string }
export interface Key { id: string; kind: 'secret' | 'public'; name: string | null; hint: string; createdAt: string; lastUsedAt: string | null; revokedAt: string | null }
export type Doc = Record<string, unknown> & { id: string; createdAt: string; updatedAt: string };
export interface DocPage { documents: Doc[]; total: number; limit: number; offset: number }
export interface User { id: string; email: string; name: string | null; avatar: string | null; emailVerified: boolean; createdAt: string; updatedAt: string }
export interface Webhook { id: string; url: string; events: string[]; collections: string[]; description: string | null; enabled: boolean; disabledReason?: string | null; createdAt: string; updatedAt: string }
export interface Delivery {
  id: string; webhookId: string; eventId: string; event: string; status: 'pending' | 'succeeded' | 'failed'; attempts: number;
  nextAttemptAt: string | null; lastAttemptAt: string | null; responseStatus: number | null; createdAt: string;
  attemptLog?: Array<{ at: string; responseStatus: number | null; durationMs: number; error: string | null; responseBody: string | null }>;
}

const TOKEN = 'svc.operatorToken';
const OPERATOR = 'svc.operator';

/** The operator session, kept in sessionStorage: it ends with the tab. */
export const session = {
  token: (): string | null => sessionStorage.getItem(TOKEN),
  operator: (): Operator | null => JSON.parse(sessionStorage.getItem(OPERATOR) ?? 'null') as Operator | null,
  set(token: string, operator: Operator): void {
    sessionStorage.setItem(TOKEN, token);
    sessionStorage.setItem(OPERATOR, JSON.stringify(operator));
  },
  clear(): void {
    sessionStorage.removeItem(TOKEN);
    sessionStorage.removeItem(OPERATOR);
  },
};

/** Fired when the server says the operator session is gone: the app shows the sign-in page. */
export const SESSION_ENDED = 'svc:session-ended';

interface CallOptions {
  body?: unknown;
  query?: Record<string, string | number | undefined>;
  /** Acts on a database's data routes (the operator token then counts as its secret key). */
  databaseId?: string;
}

/** One call to `/v1…`; resolves with the JSON body (undefined for 204), throws ApiError. */
export async function api<T>(method: string, path: string, opts: CallOptions = {}): Promise<T> {
  const url = new URL(`/v1${path}`, location.origin);
  for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined && v !== '') url.searchParams.set(k, String(v));
  const headers: Record<string, string> = {};
  const token = session.token();
  if (token) headers.authorization = `Bearer ${token}`;
  if (opts.databaseId) headers['x-database-id'] = opts.databaseId;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(url, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
  } catch {
    throw new ApiError(0, 'network', 'The server could not be reached. Check that it is running, then try again.');
  }
  const text = await res.text();
  let json: unknown;
  try { json = text ? JSON.parse(text) : undefined; } catch { json = undefined; }
  if (res.ok) return json as T;
  const err = (json as { error?: { code: string; message: string; details?: ApiError['details'] }; retryAfter?: number } | undefined);
  const code = err?.error?.code ?? 'unknown';
  let message = err?.error?.message ?? `The server answered ${res.status} ${res.statusText}`;
  if (code === 'rate_limited') message = `Too many requests; try again in ${err?.retryAfter ?? 'a few'} seconds.`;
  if (res.status === 401 && token && (code === 'invalid_session' || code === 'missing_api_key')) {
    session.clear();
    window.dispatchEvent(new CustomEvent(SESSION_ENDED));
  }
  throw new ApiError(res.status, code, message, err?.error?.details);
}

/** Words for any thrown value. */
export function describeError(e: unknown): string {
  if (e instanceof ApiError) {
    const missing = (e.details ?? []).filter((d) => !e.message.includes(d.path));
    return missing.length ? `${e.message} (${missing.map((d) => `${d.path}: ${d.message}`).join('; ')})` : e.message;
  }
  return e instanceof Error ? e.message : String(e);
}
