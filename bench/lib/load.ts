import autocannon, { type Options, type Request } from 'autocannon';

/** How every scenario drives load, so figures of one run are comparable. Overridable by environment. */
export const LOAD = {
  connections: Number(process.env.BENCH_CONNECTIONS ?? 10),
  /** Seconds measured per scenario. */
  duration: Number(process.env.BENCH_DURATION ?? 5),
  /** Seconds of the same load before measuring (JIT, caches, connection pools), discarded. */
  warmup: Number(process.env.BENCH_WARMUP ?? 1),
};

/** One request shape: fixed, or rebuilt per request by `setup` (e.g. a random id in the path). */
export interface LoadTarget {
  url: string;
  method?: 'GET' | 'POST' | 'PATCH';
  path: string;
  body?: string;
  /** Sent as `Authorization: Bearer …` */
  key?: string;
  /** Returns the path of the next request. */
  nextPath?: () => string;
  /** More headers on every request. */
  headers?: Record<string, string>;
  /** Rebuilds each request: its path, body and/or headers (merged over `headers`). */
  next?: () => { path?: string; body?: string; headers?: Record<string, string> };
  connections?: number;
  /**
   * Requests each connection sends in turn, instead of `path`/`body` (e.g. an insert then a list):
   * each step with its own method, path, body and `next()`; `key` and `headers` apply to all.
   */
  sequence?: Array<Pick<LoadTarget, 'method' | 'path' | 'body' | 'nextPath' | 'next'>>;
}

/** What one measured scenario produced. Latencies in milliseconds. */
export interface Measurement {
  rps: number;
  p50: number;
  p99: number;
  mean: number;
  requests: number;
  /** Non-2xx answers, errors and time-outs: any of them makes the figure suspect. */
  failures: number;
  failureDetail: string;
}

/** One autocannon request of a target (or of one step of its sequence); `headers`: the target's own. */
function request(step: Pick<LoadTarget, 'method' | 'path' | 'body' | 'nextPath' | 'next'>, headers: Record<string, string>): Request {
  const { nextPath, next } = step;
  const own = step.body !== undefined ? { ...headers, 'content-type': 'application/json' } : headers;
  return {
    method: step.method ?? 'GET',
    path: step.path,
    body: step.body,
    headers: own,
    ...(nextPath ? { setupRequest: (req: Request) => ({ ...req, path: nextPath() }) } : {}),
    ...(next
      ? {
          setupRequest: (req: Request) => {
            const n = next();
            return {
              ...req,
              ...(n.path ? { path: n.path } : {}),
              ...(n.body !== undefined ? { body: n.body } : {}),
              headers: { ...own, ...req.headers, ...n.headers },
            };
          },
        }
      : {}),
  };
}

function options(t: LoadTarget, duration: number): Options {
  const headers: Record<string, string> = { ...t.headers };
  if (t.key) headers.authorization = `Bearer ${t.key}`;
  return {
    url: t.url,
    connections: t.connections ?? LOAD.connections,
    duration,
    timeout: 30,
    headers: t.body !== undefined ? { ...headers, 'content-type': 'application/json' } : headers,
    requests: t.sequence ? t.sequence.map((step) => request(step, headers)) : [request(t, headers)],
  };
}

/** The q-quantile (0..1) of sorted values, nearest rank. */
function quantile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/**
 * Warms up, then measures `LOAD.duration` seconds of closed-loop load with autocannon. Latencies
 * of 2xx answers are collected per response (autocannon's own histogram keeps whole milliseconds).
 */
export async function measure(t: LoadTarget): Promise<Measurement> {
  if (LOAD.warmup > 0) await autocannon(options(t, LOAD.warmup));
  const latencies: number[] = [];
  const instance = autocannon(options(t, LOAD.duration));
  instance.on('response', (_client, status, _bytes, ms) => {
    if (status >= 200 && status < 300) latencies.push(ms);
  });
  const r = await instance;
  const sorted = Float64Array.from(latencies).sort();
  const ok = r['2xx'];
  const codes = Object.entries(r.statusCodeStats)
    .filter(([code]) => !code.startsWith('2'))
    .map(([code, s]) => `${s.count}× ${code}`);
  if (r.errors) codes.push(`${r.errors} errors`);
  if (r.timeouts) codes.push(`${r.timeouts} time-outs`);
  return {
    rps: ok / r.duration,
    p50: quantile(sorted, 0.5),
    p99: quantile(sorted, 0.99),
    mean: sorted.reduce((a, b) => a + b, 0) / sorted.length,
    requests: ok,
    failures: r.non2xx + r.errors + r.timeouts,
    failureDetail: codes.join(', '),
  };
}
