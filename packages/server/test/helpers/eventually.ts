import { setTimeout as sleep } from 'node:timers/promises';

/** How long `eventually` keeps trying, how often, and what it waits for (named in the failure). */
export interface EventuallyOptions {
  /** Give up after this long (default 10 s: far past anything that works, short of a hang). */
  timeoutMs?: number;
  /** Pause between two tries (default 25 ms). */
  intervalMs?: number;
  /** What is awaited, for the failure message. */
  what?: string;
}

/**
 * Calls `fn` until it passes and returns what it returned. A try fails when `fn` throws (an
 * `assert.*` that does not hold yet) or returns `false` (so a bare predicate can never pass by
 * accident); after `timeoutMs` the last failure is thrown, with the wait named in its message.
 *
 * Hand-written: a dozen lines, and the libraries that poll (p-wait-for, async-retry) take
 * predicates or back off exponentially, where a test wants an assertion retried at a steady pace.
 */
export async function eventually<T>(fn: () => T | Promise<T>, opts: EventuallyOptions = {}): Promise<Exclude<T, false>> {
  const { timeoutMs = 10_000, intervalMs = 25, what = 'the condition' } = opts;
  const deadline = Date.now() + timeoutMs;
  let tries = 0;
  for (;;) {
    let failure: unknown;
    tries += 1;
    try {
      const value = await fn();
      if (value !== false) return value as Exclude<T, false>;
      failure = new Error('returned false');
    } catch (e) {
      failure = e;
    }
    if (Date.now() >= deadline) {
      const last = failure instanceof Error ? failure.message : String(failure);
      throw new Error(`waited ${timeoutMs} ms (${tries} tries) for ${what}; the last try: ${last}`, { cause: failure });
    }
    await sleep(intervalMs);
  }
}
