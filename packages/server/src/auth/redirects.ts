import { ApiError } from '../errors.ts';
import { parseHttpUrl } from '../http/urls.ts';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

const notAllowed = (why: string) => new ApiError('redirect_url_not_allowed', `redirectUrl is not allowed: ${why}`);

/** Whether `path` is `prefix` or lies under it (`/app` covers `/app` and `/app/x`, not `/apple`). */
function underPath(path: string, prefix: string): boolean {
  if (path === prefix || prefix === '/' || prefix === '') return true;
  return path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`);
}

/**
 * API.md §2: a redirect URL must have the origin of one of the database's allowed redirect URLs
 * and lie under its path; with an empty list only loopback origins pass (local development).
 * Returns the parsed URL; else 400 `redirect_url_not_allowed`.
 */
export function checkRedirectUrl(url: string, allowed: string[]): URL {
  const u = parseHttpUrl(url);
  if (!u) throw notAllowed('it must be an absolute http(s) URL');
  if (u.username || u.password) throw notAllowed('it must not carry credentials');
  if (allowed.length === 0) {
    if (LOOPBACK.has(u.hostname)) return u;
    throw notAllowed(
      'the database allows no redirect URLs yet, so only localhost, 127.0.0.1 and [::1] are accepted (add yours to the settings.redirectUrls of the database)',
    );
  }
  for (const entry of allowed) {
    const a = parseHttpUrl(entry);
    if (a && a.origin === u.origin && underPath(u.pathname, a.pathname)) return u;
  }
  throw notAllowed("it matches none of the database's allowed redirect URLs (settings.redirectUrls: same origin, path prefix)");
}

/** A URL with parameters added to (or replacing those in) its query. */
export function withQuery(url: URL | string, params: Record<string, string>): string {
  const u = new URL(url);
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  return u.toString();
}
