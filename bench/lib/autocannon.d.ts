// autocannon ships no types; this covers the part of its programmatic API that bench/ uses.
declare module 'autocannon' {
  export interface Request {
    method?: string;
    path?: string;
    body?: string | Buffer;
    headers?: Record<string, string>;
    setupRequest?: (request: Request, context: Record<string, unknown>) => Request | undefined;
  }
  export interface Options {
    url: string;
    connections?: number;
    duration?: number;
    /** Requests to send in all (instead of `duration`). */
    amount?: number;
    timeout?: number;
    method?: string;
    body?: string | Buffer;
    headers?: Record<string, string>;
    requests?: Request[];
  }
  export interface Histogram {
    average: number;
    mean: number;
    p50: number;
    p90: number;
    p99: number;
    max: number;
    total: number;
  }
  export interface Result {
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    statusCodeStats: Record<string, { count: number }>;
    latency: Histogram;
    requests: Histogram;
  }
  /** The running load: an EventEmitter that is also a promise of the result. */
  export interface Instance extends PromiseLike<Result> {
    on(event: 'response', listener: (client: unknown, statusCode: number, bytes: number, responseTimeMs: number) => void): this;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }
  function autocannon(options: Options): Instance;
  export default autocannon;
}
