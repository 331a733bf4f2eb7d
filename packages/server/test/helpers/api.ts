import assert from 'node:assert/strict';
import { errorCode, request, type RequestOptions, type Response } from './server.ts';

/** A value, or a function that gives it when a request is made (for what `useServer` sets up in `before`). */
export type Lazy<T> = T | (() => T);

/** Where requests go: a TestServer, a ServerProcess, or anything with its two URLs. */
export type ServerLike = { base: string; url: string };

/** The bearer credential: an API key or operator token (an operator token comes from a promise). */
export type KeySource = Lazy<string | undefined | Promise<string | undefined>>;

/** Per-request options beside the body: query, headers, another key, `root` for paths outside /v1. */
export type CallOptions = Omit<RequestOptions, 'body' | 'raw'> & { root?: boolean };

/** Requests to one server with one credential; the typed methods assert the status and return the JSON. */
export interface ApiClient {
  /** The answer as it is, whatever its status: for tests about errors and headers. */
  request(method: string, path: string, opts?: RequestOptions & { root?: boolean }): Promise<Response>;
  get<T = unknown>(path: string, status?: number, opts?: CallOptions): Promise<T>;
  post<T = unknown>(path: string, body: unknown, status: number, opts?: CallOptions): Promise<T>;
  patch<T = unknown>(path: string, body: unknown, status?: number, opts?: CallOptions): Promise<T>;
  put<T = unknown>(path: string, body: unknown, status?: number, opts?: CallOptions): Promise<T>;
  delete<T = undefined>(path: string, status?: number, opts?: CallOptions): Promise<T>;
}

const resolve = <T>(v: Lazy<T>): T => (typeof v === 'function' ? (v as () => T)() : v);

/** Asserts an answer's status, naming the request and showing the body when it is another. */
export function assertStatus(r: Response, status: number, what: string): void {
  assert.equal(r.status, status, `${what} answered ${r.status}, expected ${status}: ${r.text.slice(0, 1000)}`);
}

/** Asserts an API.md §0 error answer: this status, this code, a message. */
export function assertError(r: Response, status: number, code: string, what = 'the request'): void {
  assertStatus(r, status, what);
  assert.equal(errorCode(r), code, `${what}: ${r.text.slice(0, 1000)}`);
  assert.equal(typeof (r.json as { error: { message?: unknown } }).error.message, 'string', `${what}: the error has a message`);
}

/**
 * A client for one server and credential, on top of `request()`:
 * `const api = apiClient(() => t.server, () => t.db.secretKey)`, then `await api.post<Doc>('/posts/docs', body, 201)`.
 * `server` and `key` may be functions, read at each request, so a client can be made beside `useServer()`.
 */
export function apiClient(server: Lazy<ServerLike>, key?: KeySource, defaults: Lazy<RequestOptions> = {}): ApiClient {
  const send = async (method: string, path: string, opts: RequestOptions & { root?: boolean } = {}): Promise<Response> => {
    const base = resolve(defaults);
    const headers = { ...base.headers, ...opts.headers };
    return request(resolve(server), method, path, { key: await resolve(key), ...base, ...opts, headers });
  };
  const expect = async <T>(method: string, path: string, status: number, opts: RequestOptions & { root?: boolean }): Promise<T> => {
    const r = await send(method, path, opts);
    assertStatus(r, status, `${method} ${path}`);
    return r.json as T;
  };
  return {
    request: send,
    get: <T>(path: string, status = 200, opts: CallOptions = {}) => expect<T>('GET', path, status, opts),
    post: <T>(path: string, body: unknown, status: number, opts: CallOptions = {}) => expect<T>('POST', path, status, { ...opts, body }),
    patch: <T>(path: string, body: unknown, status = 200, opts: CallOptions = {}) => expect<T>('PATCH', path, status, { ...opts, body }),
    put: <T>(path: string, body: unknown, status = 200, opts: CallOptions = {}) => expect<T>('PUT', path, status, { ...opts, body }),
    delete: <T>(path: string, status = 204, opts: CallOptions = {}) => expect<T>('DELETE', path, status, opts),
  };
}
