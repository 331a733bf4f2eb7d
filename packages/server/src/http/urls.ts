/**
 * The one check of "an http(s) URL" (API.md: avatars, redirect and site URLs, webhook URLs): an
 * absolute URL the WHATWG parser accepts, with the http or https scheme. Anything else (`javascript:`,
 * `file:`, a relative path, text) is not one.
 */
export function parseHttpUrl(value: unknown): URL | undefined {
  if (typeof value !== 'string') return undefined;
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    return undefined;
  }
  return u.protocol === 'http:' || u.protocol === 'https:' ? u : undefined;
}

/** Whether `value` is an absolute http(s) URL (see parseHttpUrl). */
export function isHttpUrl(value: unknown): value is string {
  return parseHttpUrl(value) !== undefined;
}
