import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy between svc and one of its dependencies (PostgreSQL, Redis), to make that
 * dependency go away and come back while svc runs, without touching the real server:
 * - `stop()`: the dependency is down: open connections are cut and new ones refused;
 * - `freeze()`: the dependency hangs: connections are accepted (and kept), but not a byte
 *   moves either way, like a frozen server or a network that silently drops packets;
 * - `start()` / `thaw()`: back to normal (a thaw delivers what was held back, as a resumed
 *   process would read it);
 * - `cutAfter(marker, text)`: on the connection that carries `marker` (a value only one request
 *   writes), the next message from svc containing `text` (e.g. `COMMIT`) reaches the dependency,
 *   and the connection is cut as the answer comes back, before svc reads it: the dependency did
 *   the work, svc never learns whether it did.
 * Hand-written (a hundred lines of `net`) because what it must do, refusing and freezing on
 * demand, is the whole point, and proxies from the registry hide exactly that.
 */
export interface TcpProxy {
  readonly port: number;
  /** `redis://127.0.0.1:<port>`-style URL: the target's URL with host and port replaced by the proxy's. */
  url(targetUrl: string): string;
  /** Cuts every open connection and refuses new ones until `start()`. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
  /** Keeps accepting connections but forwards nothing until `thaw()`. */
  freeze(): void;
  thaw(): void;
  /** Arms a one-time cut: see above. Resolves once it happened. */
  cutAfter(marker: string, text: string): Promise<void>;
  close(): Promise<void>;
}

interface Pair {
  client: Socket;
  upstream: Socket;
}

/** Starts a proxy on 127.0.0.1 (a free port) that forwards to `target`. */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const pairs = new Set<Pair>();
  let frozen = false;
  let port = 0;
  /** An armed `cutAfter`: what to look for, and the pair whose answer to drop once it was seen. */
  let cut: { marker: string; text: string; pair?: Pair; sent?: boolean; done(): void } | undefined;

  const forward = (from: Socket, to: Socket, pair: Pair) => {
    from.on('data', (chunk: Buffer) => {
      if (cut && from === pair.client) {
        if (!cut.pair && chunk.includes(cut.marker)) cut.pair = pair;
        if (cut.pair === pair && chunk.includes(cut.text)) cut.sent = true;
      }
      if (cut?.pair === pair && cut.sent && from === pair.upstream) {
        // The dependency answered the message: cut before svc gets a byte of it.
        const done = cut.done;
        cut = undefined;
        pair.client.destroy();
        pair.upstream.destroy();
        done();
        return;
      }
      if (!to.write(chunk)) from.pause();
    });
    to.on('drain', () => {
      if (!frozen) from.resume();
    });
  };

  const onConnection = (client: Socket) => {
    const upstream = connect(target.port, target.host);
    const pair = { client, upstream };
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    for (const s of [client, upstream]) {
      s.on('error', end);
      s.on('close', end);
      if (frozen) s.pause();
    }
    forward(client, upstream, pair);
    forward(upstream, client, pair);
  };

  let server: Server = createServer(onConnection);
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        port = (server.address() as { port: number }).port;
        resolve();
      });
    });
  await listen();

  const stop = () =>
    new Promise<void>((resolve) => {
      if (!server.listening) return resolve();
      server.close(() => resolve());
      for (const p of pairs) {
        p.client.destroy();
        p.upstream.destroy();
      }
      pairs.clear();
    });

  return {
    get port() {
      return port;
    },
    url(targetUrl) {
      const u = new URL(targetUrl);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    stop,
    async start() {
      if (server.listening) return;
      server = createServer(onConnection);
      await listen();
    },
    freeze() {
      frozen = true;
      for (const p of pairs) {
        p.client.pause();
        p.upstream.pause();
      }
    },
    thaw() {
      frozen = false;
      for (const p of pairs) {
        p.client.resume();
        p.upstream.resume();
      }
    },
    cutAfter(marker, text) {
      return new Promise<void>((resolve) => {
        cut = { marker, text, done: resolve };
      });
    },
    close: stop,
  };
}
