/**
 * The bare HTTP baseline of the webhooks scenario: a tight node:http client loop POSTing a fixed
 * body, with `concurrency` requests always in flight over keep-alive sockets, as fast as the
 * receiver answers. Its rate is what raw HTTP to the same receiver gives, so svc's deliveries/s
 * divided by it is the share of plain POST throughput svc keeps after queueing, claiming, signing
 * and recording each attempt. Driven over IPC by bench/scenarios/webhooks.ts (lib/worker.ts).
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { serve } from '../lib/worker.ts';
import { percentiles } from '../lib/stats.ts';

function post(agent: http.Agent, url: URL, body: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', agent, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

serve({
  async run({
    url,
    concurrency,
    warmup,
    duration,
    body,
    headers,
  }: {
    url: string;
    concurrency: number;
    warmup: number;
    duration: number;
    body: string;
    headers: Record<string, string>;
  }) {
    const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
    const u = new URL(url);
    const loop = async (seconds: number) => {
      const latencies: number[] = [];
      let failed = 0;
      const started = performance.now();
      const end = started + seconds * 1000;
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (performance.now() < end) {
            const t = performance.now();
            const status = await post(agent, u, body, headers);
            if (status >= 200 && status < 300) latencies.push(performance.now() - t);
            else failed++;
          }
        }),
      );
      return { latencies, failed, seconds: (performance.now() - started) / 1000 };
    };
    if (warmup > 0) await loop(warmup);
    const r = await loop(duration);
    agent.destroy();
    const p = percentiles(r.latencies);
    return { rate: r.latencies.length / r.seconds, p50: p.p50, p99: p.p99, failed: r.failed };
  },
});
