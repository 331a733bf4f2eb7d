import { useEffect, useState } from 'preact/hooks';

const NAVIGATED = 'svc:navigated';

/** Goes to a dashboard path without reloading the page. */
export function navigate(path: string, replace = false): void {
  if (path === location.pathname + location.search) return;
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  window.dispatchEvent(new Event(NAVIGATED));
  window.scrollTo(0, 0);
}

/** The current path, re-rendering on every navigation (links, back and forward). */
export function usePath(): string {
  const [path, setPath] = useState(location.pathname);
  useEffect(() => {
    const update = () => setPath(location.pathname);
    window.addEventListener('popstate', update);
    window.addEventListener(NAVIGATED, update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener(NAVIGATED, update);
    };
  }, []);
  return path;
}

/** The current query string (`?sortBy=score`), re-rendering on every navigation: page state kept in the URL. */
export function useSearch(): URLSearchParams {
  const [search, setSearch] = useState(location.search);
  useEffect(() => {
    const update = () => setSearch(location.search);
    window.addEventListener('popstate', update);
    window.addEventListener(NAVIGATED, update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener(NAVIGATED, update);
    };
  }, []);
  return new URLSearchParams(search);
}

/** Matches `/databases/:id/keys`-style patterns; returns the decoded parameters or null. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const names: string[] = [];
  const re = new RegExp(
    '^' +
      pattern.replace(/:([a-zA-Z]+)/g, (_m, n: string) => {
        names.push(n);
        return '([^/]+)';
      }) +
      '/?$',
  );
  const m = re.exec(path);
  if (!m) return null;
  return Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1])]));
}
