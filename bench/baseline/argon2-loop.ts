/**
 * The argon2 ceiling for the auth scenario: how many password verifications per second this machine
 * does with svc's parameters (packages/server/src/passwords/passwords.ts: Argon2id, 19 MiB, 2
 * iterations, 1 lane), with `concurrency` verify() calls always in flight, as the server gets them
 * from `concurrency` clients. @node-rs/argon2 runs them on libuv's threadpool, like in svc; the
 * process inherits the same environment (UV_THREADPOOL_SIZE) as the server. Driven over IPC by
 * bench/scenarios/auth.ts (lib/worker.ts).
 */
import { Algorithm, hash, verify } from '@node-rs/argon2';
import { performance } from 'node:perf_hooks';
import { serve } from '../lib/worker.ts';
import { percentiles } from '../lib/stats.ts';

const OPTIONS = { algorithm: Algorithm.Argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;
const PASSWORD = 'bench-user-password-0123';

async function loop(concurrency: number, seconds: number, fn: () => Promise<unknown>): Promise<{ ops: number; seconds: number; latencies: number[] }> {
  const latencies: number[] = [];
  const started = performance.now();
  const end = started + seconds * 1000;
  const worker = async () => {
    while (performance.now() < end) {
      const t = performance.now();
      await fn();
      latencies.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { ops: latencies.length, seconds: (performance.now() - started) / 1000, latencies };
}

serve({
  /** verify() (or hash() with `op: 'hash'`) of a correct password, `concurrency` in flight, after `warmup` s. */
  async run({ op, concurrency, warmup, duration }: { op: 'verify' | 'hash'; concurrency: number; warmup: number; duration: number }) {
    const stored = await hash(PASSWORD, OPTIONS);
    const fn = op === 'hash' ? () => hash(PASSWORD, OPTIONS) : () => verify(stored, PASSWORD);
    if (warmup > 0) await loop(concurrency, warmup, fn);
    const r = await loop(concurrency, duration, fn);
    const p = percentiles(r.latencies);
    // Every run ends its last calls after `duration`: count per elapsed second, like autocannon.
    return { rate: r.ops / r.seconds, ops: r.ops, p50: p.p50, p99: p.p99 };
  },
});
