import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { UrlNotAllowed, type UrlGuard } from './url-guard.ts';

/** What one attempt got back. `status` is null when no answer came (refused, time-out, guard). */
export interface AttemptResult {
  status: number | null;
  durationMs: number;
  error: string | null;
  /** The first 1 KiB of the answer. */
  body: string | null;
}

const BODY_KEPT = 1024;
/** Past this much answer the socket is dropped: nobody needs a receiver's megabytes. */
const BODY_READ_MAX = 64 * 1024;

function describe(e: Error & { code?: string }, timeoutMs: number): string {
  if (e instanceof UrlNotAllowed) return `url_not_allowed: ${e.message}`;
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return `timed out after ${timeoutMs} ms`;
  if (e.code === 'ECONNREFUSED') return 'connection refused';
  return e.code ? `${e.code}: ${e.message}` : e.message;
}

/**
 * POSTs webhook bodies. Built on node:http rather than fetch because its `lookup` hook lets the
 * SSRF guard pick the address the socket connects to; redirects are never followed (node:http
 * does not), and one AbortSignal bounds the whole attempt (DNS, connect, answer).
 */
export class Sender {
  private readonly httpAgent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  private readonly httpsAgent = new https.Agent({ keepAlive: true, maxSockets: 64 });

  constructor(
    private readonly guard: UrlGuard,
    private readonly timeoutMs: number,
  ) {}

  /** One attempt: never throws, every failure is in the result. */
  post(url: string, body: string, headers: Record<string, string>, signal?: AbortSignal): Promise<AttemptResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    return new Promise((resolve) => {
      let settled = false;
      const finish = (status: number | null, error: string | null, answer: Buffer | null) => {
        if (settled) return;
        settled = true;
        resolve({ status, durationMs: elapsed(), error, body: answer ? answer.subarray(0, BODY_KEPT).toString('utf8') : null });
      };
      let u: URL;
      try {
        u = this.guard.parse(url);
        this.guard.checkLiteral(u);
      } catch (e) {
        return finish(null, describe(e as Error, this.timeoutMs), null);
      }
      const timeout = AbortSignal.timeout(this.timeoutMs);
      const isHttps = u.protocol === 'https:';
      const req = (isHttps ? https : http).request(
        u,
        {
          method: 'POST',
          agent: isHttps ? this.httpsAgent : this.httpAgent,
          headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
          signal: signal ? AbortSignal.any([timeout, signal]) : timeout,
          lookup: this.guard.lookup,
        },
        (res) => {
          const status = res.statusCode ?? null;
          const chunks: Buffer[] = [];
          let size = 0;
          const error =
            status !== null && status >= 300 && status < 400 ? `redirect to ${String(res.headers.location ?? '?').slice(0, 200)} not followed` : null;
          res.on('data', (c: Buffer) => {
            if (size < BODY_KEPT) chunks.push(c);
            size += c.length;
            if (size > BODY_READ_MAX) {
              res.destroy();
              finish(status, error, Buffer.concat(chunks));
            }
          });
          res.on('end', () => finish(status, error, Buffer.concat(chunks)));
          // The status came in time; an answer body cut short does not change the outcome.
          res.on('error', () => finish(status, error, Buffer.concat(chunks)));
          res.on('close', () => finish(status, error, Buffer.concat(chunks)));
        },
      );
      req.on('error', (e) => finish(null, describe(e, this.timeoutMs), null));
      req.end(body);
    });
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}
