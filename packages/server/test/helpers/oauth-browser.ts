import assert from 'node:assert/strict';
import { parseSetCookie, type SetCookie } from 'cookie';

/** One GET as a browser sees it, without following the redirect. */
export interface Hop {
  url: string;
  status: number;
  location: string | null;
  headers: Headers;
  text: string;
  /** The cookies svc set on this answer, parsed. */
  setCookies: SetCookie[];
}

/**
 * A browser for OAuth tests: one GET at a time (redirects are the test's to follow), a cookie jar
 * for the cookies svc sets (the `state`'s browser binding), and `publicUrl` (PUBLIC_URL, where
 * callbacks are registered) mapped onto the test server. Providers get no cookies: the fakes
 * need none. Cookie paths are ignored: svc sets its OAuth cookies on /v1/auth/oauth/ only.
 */
export function oauthBrowser(server: { url: string }, publicUrl: string) {
  const jar = new Map<string, string>();
  return {
    jar,
    /** GETs `url`; `cookies: false` leaves the jar out of the request (another browser). */
    async hop(url: string, opts: { cookies?: boolean } = {}): Promise<Hop> {
      const toSvc = url.startsWith(publicUrl) || url.startsWith(server.url);
      const real = url.startsWith(publicUrl) ? server.url + url.slice(publicUrl.length) : url;
      const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
      const res = await fetch(real, { redirect: 'manual', headers: toSvc && opts.cookies !== false && cookie ? { cookie } : {} });
      const setCookies = toSvc ? res.headers.getSetCookie().map((c) => parseSetCookie(c)) : [];
      for (const c of setCookies) {
        if (c.maxAge === 0 || !c.value) jar.delete(c.name);
        else jar.set(c.name, c.value);
      }
      return { url, status: res.status, location: res.headers.get('location'), headers: res.headers, text: await res.text(), setCookies };
    },
  };
}

/** The `?error=` of where a callback sent the browser, asserting it went back to `app`. */
export function errorOf(final: URL, app: string): string | null {
  assert.equal(`${final.origin}${final.pathname}`, app);
  return final.searchParams.get('error');
}
