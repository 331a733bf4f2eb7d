import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a receiver got. */
export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

/** What the receiver answers: a status (and body), after an optional delay; 'hang' never answers. */
export type Answer = { status: number; body?: string; delayMs?: number; headers?: Record<string, string> } | 'hang';

/** A real node:http webhook receiver on 127.0.0.1 that records every request. */
export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** Resolves once `n` requests arrived (rejects after `ms`). */
  waitFor(n: number, ms?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(answer: (r: Received, index: number) => Answer = () => ({ status: 200, body: 'ok' })): Promise<Receiver> {
  const received: Received[] = [];
  const waiters: Array<() => void> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: Received = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      const index = received.push(r) - 1;
      for (const w of waiters.splice(0)) w();
      const a = answer(r, index);
      if (a === 'hang') return;
      const send = () => res.writeHead(a.status, { 'content-type': 'text/plain', ...a.headers }).end(a.body ?? '');
      if (a.delayMs) setTimeout(send, a.delayMs);
      else send();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    async waitFor(n, ms = 10_000) {
      const deadline = Date.now() + ms;
      while (received.length < n) {
        if (Date.now() > deadline) throw new Error(`receiver got ${received.length} of ${n} requests in ${ms} ms`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
      return received;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
