import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { UrlNotAllowed, type UrlGuard } from './url-guard.ts';

/** What one attempt got back. `status` is null when no answer came (refused, time-out, guard). */
interface AttemptResult {
  status: number | null;
  durationMs: number;
  error: string | null;
  /** The first 1 KiB of the answer. */
  body: string | null;
  /** The `Retry-After` header of a 429 or 503 answer, as sent (seconds or an HTTP date). */
  retryAfter: string | null;
}

const BODY_KEPT = 1024;
/** Past this much answer the socket is dropped: nobody needs a receiver's megabytes. */
const BODY_READ_MAX = 64 * 1024;

/** The longest a `Retry-After` defers the next attempt (API.md §4). */
const RETRY_AFTER_MAX_MS = 3_600_000;

/**
 * How long a 429 or 503 answer asked to wait (`Retry-After`: whole seconds or an HTTP date, read
 * against the dispatcher's clock), at most an hour; 0 when it asked nothing readable.
 */
export function retryAfterMs(r: AttemptResult, now: number): number {
  const v = r.retryAfter?.trim();
  if (!v) return 0;
  const ms = /^\d+$/.test(v) ? Number(v) * 1000 : Date.parse(v) - now;
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), RETRY_AFTER_MAX_MS) : 0;
}

function describe(e: Error & { code?: string }): string {
  if (e instanceof UrlNotAllowed) return `url_not_allowed: ${e.message}`;
  if (e.code === 'ECONNREFUSED') return 'connection refused';
  return e.code ? `${e.code}: ${e.message}` : e.message;
}

/**
 * POSTs webhook bodies. Built on node:http rather than fetch because its `lookup` hook lets the
 * SSRF guard pick the address the socket connects to; redirects are never followed (node:http
 * does not).
 *
 * The time-out is a plain `setTimeout` that destroys the request, not an `AbortSignal.timeout`:
 * Node holds such a signal only weakly once it is combined through `AbortSignal.any` (its timer
 * keeps a weak reference so an unobserved signal can be collected), so a full GC during an
 * attempt collected it and the attempt hung for as long as the receiver did, holding its slot.
 * An active timer is held strongly by Node's timer list until it fires or is
 * cleared, so every attempt ends at the time-out whatever the process does meanwhile. The
 * dispatcher's shutdown signal is listened to directly (its controller is held by the
 * dispatcher) and the listener removed when the attempt ends.
 *
 * The outcome is decided by the status line: once a status came, the time-out (or the end of the
 * answer, whichever is first) ends the attempt with that status, and whatever body is still
 * trickling is discarded. A 2xx received in time is a success however slowly its body follows.
 */
export class Sender {
  // No per-host socket cap: the dispatcher bounds attempts (slots.ts), and a host-wide cap would
  // let one database's hanging receiver queue another database's attempts to the same host.
  private readonly httpAgent = new http.Agent({ keepAlive: true });
  private readonly httpsAgent = new https.Agent({ keepAlive: true });

  constructor(
    private readonly guard: UrlGuard,
    private readonly timeoutMs: number,
  ) {}

  /** One attempt: never throws, every failure is in the result. `signal` aborts it (shutdown). */
  post(url: string, body: string, headers: Record<string, string>, signal?: AbortSignal): Promise<AttemptResult> {
    const started = performance.now();
    return new Promise((resolve) => {
      let settled = false;
      let status: number | null = null;
      let statusError: string | null = null;
      let retryAfter: string | null = null;
      const chunks: Buffer[] = [];
      let timer: NodeJS.Timeout | undefined;
      let req: http.ClientRequest | undefined;
      /** The answer was read to its end: its keep-alive socket went back to the agent. */
      let complete = false;
      const onShutdown = () => end(null, 'aborted: the server is shutting down');
      /** Settles the attempt once: with the status if one came, else with `error`; then drops the request. */
      const end = (answered: number | null, error: string | null) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onShutdown);
        const gotStatus = answered ?? status;
        resolve({
          status: gotStatus,
          durationMs: Math.round(performance.now() - started),
          error: gotStatus === null ? error : statusError,
          body: gotStatus === null ? null : Buffer.concat(chunks).subarray(0, BODY_KEPT).toString('utf8'),
          retryAfter,
        });
        // Unless the answer ended, the socket goes, with whatever was still to come.
        if (!complete) req?.destroy();
      };
      let u: URL;
      try {
        u = this.guard.parse(url);
        this.guard.checkLiteral(u);
      } catch (e) {
        return end(null, describe(e as Error));
      }
      if (signal?.aborted) return end(null, 'aborted: the server is shutting down');
      timer = setTimeout(() => end(null, `timed out after ${this.timeoutMs} ms`), this.timeoutMs);
      signal?.addEventListener('abort', onShutdown, { once: true });
      const isHttps = u.protocol === 'https:';
      req = (isHttps ? https : http).request(
        u,
        {
          method: 'POST',
          agent: isHttps ? this.httpsAgent : this.httpAgent,
          headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
          lookup: this.guard.lookup,
        },
        (res) => {
          status = res.statusCode ?? null;
          if (status !== null && status >= 300 && status < 400) statusError = `redirect to ${String(res.headers.location ?? '?').slice(0, 200)} not followed`;
          if (status === 429 || status === 503) retryAfter = typeof res.headers['retry-after'] === 'string' ? res.headers['retry-after'] : null;
          let size = 0;
          res.on('data', (c: Buffer) => {
            if (size < BODY_KEPT) chunks.push(c);
            size += c.length;
            if (size > BODY_READ_MAX) end(null, null);
          });
          // The status came in time; an answer body cut short does not change the outcome.
          res.on('end', () => {
            complete = true;
            end(null, null);
          });
          res.on('error', () => end(null, null));
          res.on('close', () => end(null, null));
        },
      );
      req.on('error', (e) => end(null, describe(e)));
      req.end(body);
    });
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}
