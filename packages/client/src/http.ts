import { SvcError } from './errors.js';

/** A fetch function (the global one, or the caller's: undici, a test double, a proxy). */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** One request of `Http.send`. */
export interface SendOptions {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Relative to `/v1`, e.g. `/posts/docs`. */
  path: string;
  query?: Record<string, string | number | undefined>;
  /** JSON-encoded; omitted when undefined. */
  body?: unknown;
  /** Default `application/json`. */
  contentType?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /**
   * A write the server deduplicates by Idempotency-Key (API.md §1.2): it carries one (this one, or
   * one made here) on every attempt, so it may also be retried after a network failure, a 409 of
   * the same key still running or a 503, and is never applied twice.
   */
  idempotent?: boolean | { key: string };
  /** Called with the answer's headers (a 2xx): e.g. its `ETag`. */
  onHeaders?: (headers: Headers) => void;
  /** Sent as is instead of `body` (file uploads: a Blob, bytes or a stream), with `contentType`. */
  raw?: BodyInit;
  /** Upload progress, in browsers (sent with XMLHttpRequest there: fetch reports none). */
  onUploadProgress?: (sent: number, total: number) => void;
  /** `blob`: the answer's bytes as a Blob instead of decoded JSON (file downloads). */
  responseType?: 'json' | 'blob';
}

/** Whatever sends requests: the bare Http (the key alone), or the UserSession (as the signed-in user). */
export interface Sender {
  send<T>(opts: SendOptions): Promise<T>;
}

/** Per-call options every SDK method accepts. */
export interface CallOptions {
  /** Cancels the request (and any 429 wait); the promise rejects with an SvcError whose `isAbort` is true. */
  signal?: AbortSignal;
}

/** Options of a write: its own Idempotency-Key (by default the SDK makes one per call). */
export interface WriteOptions extends CallOptions {
  idempotencyKey?: string;
}

/** How 429 answers are retried. */
export interface RetryOptions {
  /** Retries after a 429 (default 2; 0 turns retrying off). */
  maxRetries?: number;
  /** A 429 asking to wait longer than this many seconds is thrown at once (default 60). */
  maxRetryAfterSeconds?: number;
}

/** Waits `ms`, or rejects with an abort SvcError as soon as `signal` fires. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(SvcError.fromFetchFailure(signal.reason, signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(SvcError.fromFetchFailure(signal?.reason, signal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * A fresh Idempotency-Key: a UUIDv7 (RFC 9562: 48 bits of milliseconds, then 74 random bits from
 * Web Crypto, in browsers and Node 20), so keys sort by the time they were made. Written here
 * rather than taken from the `uuid` package to keep the SDK free of another dependency for a few
 * lines.
 */
export function newKey(now = Date.now()): string {
  const b = randomBytes16();
  for (let i = 5, t = now; i >= 0; i--, t = Math.floor(t / 256)) b[i] = t % 256;
  b[6] = 0x70 | (b[6] & 0x0f);
  b[8] = 0x80 | (b[8] & 0x3f);
  let key = '';
  for (let i = 0; i < 16; i++) key += (i === 4 || i === 6 || i === 8 || i === 10 ? '-' : '') + HEX[b[i]];
  return key;
}

/** Two hex digits of each byte value (a key built from them costs a tenth of Number.toString per byte). */
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** Random bytes drawn 4 KiB at a time: a call to getRandomValues costs more than the bytes it fills. */
let pool = new Uint8Array(0);
let drawn = 0;
function randomBytes16(): Uint8Array {
  if (drawn + 16 > pool.length) {
    pool = globalThis.crypto.getRandomValues(new Uint8Array(4096));
    drawn = 0;
  }
  drawn += 16;
  return pool.subarray(drawn - 16, drawn);
}

/**
 * Seconds to wait before retrying a failure, or undefined when it is not retried: a 429 always
 * (nothing was done); with an Idempotency-Key also a network failure (the answer may have been
 * lost after the write committed), a 409 `conflict` with Retry-After (the key's first attempt
 * still runs) and a 503 (the store was unreachable).
 */
function retryWait(e: unknown, idempotent: boolean): number | undefined {
  if (!(e instanceof SvcError)) return undefined;
  if (e.status === 429) return e.retryAfter ?? 1;
  if (!idempotent) return undefined;
  if (e.isNetworkError) return 1;
  if ((e.status === 409 && e.retryAfter !== undefined) || e.status === 503) return e.retryAfter ?? 1;
  return undefined;
}

/**
 * The one place the SDK talks HTTP (pocketbase/js-sdk's `send()`): adds the API key, encodes the
 * body, decodes the answer, maps every failure to SvcError and retries 429s after `retryAfter`.
 */
export class Http implements Sender {
  private readonly base: string;
  private readonly maxRetries: number;
  private readonly maxRetryAfter: number;

  constructor(
    url: string,
    private readonly key: string,
    private readonly fetchFn: FetchLike,
    retry: RetryOptions = {},
  ) {
    this.base = url.replace(/\/+$/, '').replace(/\/v1$/, '') + '/v1';
    this.maxRetries = retry.maxRetries ?? 2;
    this.maxRetryAfter = retry.maxRetryAfterSeconds ?? 60;
  }

  /** `http(s)://host:port/v1` */
  get baseUrl(): string {
    return this.base;
  }

  /** The full URL of an API path with its query. */
  url(path: string, query: Record<string, string | number | undefined> = {}): string {
    const u = new URL(this.base + path);
    for (const [k, v] of Object.entries(query)) if (v !== undefined) u.searchParams.set(k, String(v));
    return u.toString();
  }

  /**
   * Sends one request; resolves with the decoded JSON answer (undefined for 204). Retries a 429
   * after its `retryAfter`; an idempotent write (`opts.idempotent`) also after a network failure,
   * a 409 whose first attempt is still running, or a 503, with the same Idempotency-Key, so the
   * server answers a retry of a write that did commit with its recorded answer.
   */
  async send<T>(opts: SendOptions): Promise<T> {
    const key = opts.idempotent === undefined || opts.idempotent === false ? undefined : opts.idempotent === true ? newKey() : opts.idempotent.key;
    const sent = key === undefined ? opts : { ...opts, headers: { ...opts.headers, 'idempotency-key': key } };
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.once<T>(sent);
      } catch (e) {
        const wait = retryWait(e, key !== undefined);
        if (wait === undefined || attempt >= this.maxRetries || wait > this.maxRetryAfter) throw e;
        await sleep(wait * 1000, opts.signal);
      }
    }
  }

  private async once<T>(opts: SendOptions): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.key}`, accept: 'application/json', ...opts.headers };
    let body: BodyInit | undefined;
    if (opts.raw !== undefined) {
      body = opts.raw;
      // FormData: fetch writes the multipart type with its boundary.
      if (!(body instanceof FormData)) headers['content-type'] = opts.contentType ?? 'application/octet-stream';
    } else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] = opts.contentType ?? 'application/json';
    }
    let res: Response;
    try {
      const init: RequestInit & { duplex?: 'half' } = { method: opts.method, headers, body, signal: opts.signal };
      // A streamed body (Node, modern browsers) must say so.
      if (body instanceof ReadableStream) init.duplex = 'half';
      res =
        opts.onUploadProgress && typeof XMLHttpRequest !== 'undefined'
          ? await xhr(this.url(opts.path, opts.query), init, headers, opts.onUploadProgress)
          : await this.fetchFn(this.url(opts.path, opts.query), init);
    } catch (e) {
      throw SvcError.fromFetchFailure(e, opts.signal);
    }
    if (opts.responseType === 'blob' && res.ok) return (await res.blob()) as T;
    let text: string;
    try {
      text = await res.text();
    } catch (e) {
      throw SvcError.fromFetchFailure(e, opts.signal);
    }
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    if (!res.ok) throw SvcError.fromResponse(res.status, json, res.headers.get('retry-after'), res.headers.get('etag'));
    opts.onHeaders?.(res.headers);
    return json as T;
  }
}

/** fetch's answer for an XMLHttpRequest, so an upload can report progress in browsers. */
function xhr(url: string, init: RequestInit, headers: Record<string, string>, onProgress: (sent: number, total: number) => void): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = new XMLHttpRequest();
    req.open(init.method ?? 'GET', url);
    for (const [k, v] of Object.entries(headers)) req.setRequestHeader(k, v);
    req.upload.onprogress = (e) => onProgress(e.loaded, e.total);
    req.onload = () => resolve(new Response(req.responseText, { status: req.status, headers: { 'retry-after': req.getResponseHeader('retry-after') ?? '' } }));
    req.onerror = () => reject(new TypeError('network error'));
    req.onabort = () => reject(new DOMException('aborted', 'AbortError'));
    init.signal?.addEventListener('abort', () => req.abort());
    req.send(init.body as XMLHttpRequestBodyInit | null);
  });
}
