/** The management API and the data routes, as the dashboard calls them (API.md §6). */
import type { ErrorBody, ErrorDetail, Operator } from './types.ts';

/** An error answer of the API, or a network failure (status 0), with words to show. */
export class ApiCallError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: ErrorDetail[],
    /** The whole error body (a 412's current `document`) and the answer's ETag. */
    readonly body?: unknown,
    readonly etag?: string | null,
  ) {
    super(message);
  }
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
  /** More request headers (`If-Match`). */
  headers?: Record<string, string>;
  /** Told the answer's `ETag` (a document's version, API.md §1.2). */
  onEtag?: (etag: string | null) => void;
}

/** One call to `/v1…`; resolves with the JSON body (undefined for 204), throws ApiCallError. */
export async function api<T>(method: string, path: string, opts: CallOptions = {}): Promise<T> {
  const url = new URL(`/v1${path}`, location.origin);
  for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined && v !== '') url.searchParams.set(k, String(v));
  const headers: Record<string, string> = { ...opts.headers };
  const token = session.token();
  if (token) headers.authorization = `Bearer ${token}`;
  if (opts.databaseId) headers['x-database-id'] = opts.databaseId;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(url, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
  } catch {
    throw new ApiCallError(0, 'network', 'The server could not be reached. Check that it is running, then try again.');
  }
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  if (res.ok) {
    opts.onEtag?.(res.headers.get('etag'));
    return json as T;
  }
  const err = json as Partial<ErrorBody> | undefined;
  const code = err?.error?.code ?? 'unknown';
  let message = err?.error?.message ?? `The server answered ${res.status} ${res.statusText}`;
  if (code === 'rate_limited') message = `Too many requests; try again in ${err?.retryAfter ?? 'a few'} seconds.`;
  if (res.status === 401 && token && (code === 'invalid_session' || code === 'missing_api_key')) {
    session.clear();
    window.dispatchEvent(new CustomEvent(SESSION_ENDED));
  }
  throw new ApiCallError(res.status, code, message, err?.error?.details, json, res.headers.get('etag'));
}

/** Words for any thrown value. */
export function describeError(e: unknown): string {
  if (e instanceof ApiCallError) {
    const missing = (e.details ?? []).filter((d) => !e.message.includes(d.path));
    return missing.length ? `${e.message} (${missing.map((d) => `${d.path}: ${d.message}`).join('; ')})` : e.message;
  }
  return e instanceof Error ? e.message : String(e);
}
