import assert from 'node:assert/strict';
import type { EventuallyOptions } from '../helpers/eventually.ts';

/**
 * Far past every time-out of the store and of Redis (a few seconds): a request still unanswered
 * after this is hanging, which API.md §0 rules out. The only clock these tests assert on.
 */
export const NO_HANG_MS = 20_000;

/** One answer, read whole. */
export interface Answer {
  status: number;
  headers: Headers;
  json: Record<string, any> | undefined;
}

/** One HTTP request that fails the test, instead of waiting forever, if no answer comes within NO_HANG_MS. */
export async function call(url: string, init: { method?: string; key?: string; body?: unknown } = {}): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (init.key) headers.authorization = `Bearer ${init.key}`;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(url, {
      method: init.method ?? 'GET',
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: AbortSignal.timeout(NO_HANG_MS),
    });
  } catch (e) {
    throw new Error(`${init.method ?? 'GET'} ${url} got no answer within ${NO_HANG_MS} ms (a hang): ${(e as Error).message}`);
  }
  const text = await res.text();
  let json: Record<string, any> | undefined;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, json };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `eventually` options for a wait during or after an outage: as long as a request may take (NO_HANG_MS). */
export const outageWait = (what: string): EventuallyOptions => ({ timeoutMs: NO_HANG_MS, intervalMs: 50, what });

/** One write a Writers loop sent, and what it got. */
export interface WriteOutcome {
  n: number;
  status: number;
  id?: string;
  code?: string;
  message?: string;
  retryAfter?: string | null;
  at: number;
}

/**
 * A few clients writing documents `{n}` one after another, through an outage and back: every
 * answer is recorded, so the test can check afterwards which writes were acknowledged.
 */
export class Writers {
  readonly outcomes: WriteOutcome[] = [];
  private running = true;
  private next = 0;
  private readonly loops: Promise<void>[];

  constructor(
    private readonly url: string,
    private readonly key: string,
    count = 3,
    private readonly pauseMs = 25,
  ) {
    this.loops = Array.from({ length: count }, () => this.loop());
  }

  private async loop(): Promise<void> {
    while (this.running) {
      const n = ++this.next;
      const r = await call(this.url, { method: 'POST', key: this.key, body: { n } });
      this.outcomes.push({
        n,
        status: r.status,
        id: r.json?.id,
        code: r.json?.error?.code,
        message: r.json?.error?.message,
        retryAfter: r.headers.get('retry-after'),
        at: Date.now(),
      });
      await sleep(this.pauseMs);
    }
  }

  /** Outcomes with this status since `since` (ms epoch). */
  with(status: number, since = 0): WriteOutcome[] {
    return this.outcomes.filter((o) => o.status === status && o.at >= since);
  }

  /** Stops the loops; rethrows a hang any of them saw. */
  async stop(): Promise<WriteOutcome[]> {
    this.running = false;
    await Promise.all(this.loops);
    return this.outcomes;
  }
}

/**
 * The §0 promise for every write answered during an outage: 201 (then it is stored), 503
 * `unavailable` with Retry-After (then it was not), or, for a write whose connection broke after
 * it reached the server, 503 `commit_unknown` with Retry-After (it may or may not be stored).
 */
export function assertOutageAnswers(outcomes: WriteOutcome[]): void {
  for (const o of outcomes) {
    if (o.status === 201) continue;
    assert.equal(o.status, 503, `only 201 or 503 during an outage: ${JSON.stringify(o)}`);
    assert.ok(o.code === 'unavailable' || o.code === 'commit_unknown', JSON.stringify(o));
    assert.match(o.retryAfter ?? '', /^\d+$/, 'a 503 carries Retry-After');
    if (o.code === 'commit_unknown') assert.match(o.message ?? '', /may or may not have been applied/, JSON.stringify(o));
  }
}
