// Test helpers: the SDK is tested against the real server, started in-process with the server
// package's own test helpers (tests may import server code; the SDK itself never does).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocket as WsWebSocket } from 'ws';
import { startServer, type StartOptions, type TestServer } from '../../server/test/helpers/server.ts';
import { createClient, MemorySessionStore, type ClientOptions, type SvcClient, type WebSocketConstructor } from '../src/index.ts';

export { startServer, type TestServer };

/** A server with one database, and clients for its secret and public keys. */
export interface Fixture {
  server: TestServer;
  secretKey: string;
  publicKey: string;
  /** A client with the secret key (plus any options). */
  admin(opts?: Partial<ClientOptions>): SvcClient;
  /** A client with the public key, as a browser would have. */
  browser(opts?: Partial<ClientOptions>): SvcClient;
  close(): Promise<void>;
}

/** Starts a SQLite-backed server and creates a database on it. */
export async function fixture(opts: StartOptions = {}): Promise<Fixture> {
  const server = await startServer('sqlite', opts);
  const { secretKey, publicKey } = await server.createDatabase();
  const make =
    (key: string) =>
    (o: Partial<ClientOptions> = {}) =>
      createClient({ url: server.url, key, sessionStore: new MemorySessionStore(), ...o });
  return { server, secretKey, publicKey, admin: make(secretKey), browser: make(publicKey), close: () => server.close() };
}

/** Polls `cond` every 20 ms until it holds; throws after `ms`. */
export async function until(cond: () => boolean, ms = 10_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** `ws`'s WebSocket, remembering every socket so a test can kill the live one from under the SDK. */
export function killableWebSocket() {
  const sockets: WsWebSocket[] = [];
  class Killable extends WsWebSocket {
    constructor(url: string) {
      super(url);
      sockets.push(this);
    }
  }
  return { WebSocket: Killable as unknown as WebSocketConstructor, sockets, kill: () => sockets.at(-1)?.terminate() };
}

/** One request that went through a recorder. */
export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. `/v1/todos/docs?limit=20`. */
  url: string;
  /** The X-Session-Token header as it arrived, if any. */
  session: string | undefined;
  status: number;
}

/**
 * A real HTTP proxy in front of the real server that records what each request carried: it shows
 * at the HTTP level which headers the SDK sends, while the answers stay the server's own.
 */
export async function startRecorder(target: string) {
  const requests: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const session = req.headers['x-session-token'];
      const seen: RecordedRequest = { method: req.method ?? '', url: req.url ?? '', session: typeof session === 'string' ? session : undefined, status: 0 };
      requests.push(seen);
      seen.status = await forward(target, req, chunks, res);
    });
  });
  return { ...(await listenLocal(server)), requests };
}

/**
 * Forwards one request (its body already read into `chunks`) to `target` and writes the answer
 * back; returns the answer's status, or 0 when the target could not be reached (the socket is then
 * destroyed).
 */
export async function forward(target: string, req: http.IncomingMessage, chunks: Buffer[], res: http.ServerResponse): Promise<number> {
  try {
    const r = await fetch(target + req.url, {
      method: req.method,
      headers: req.headers as Record<string, string>,
      body: chunks.length ? Buffer.concat(chunks) : undefined,
    });
    const h: Record<string, string> = {};
    // fetch has already decoded the body, so these headers would describe bytes we no longer send.
    r.headers.forEach((v, k) => {
      if (k !== 'content-encoding' && k !== 'transfer-encoding') h[k] = v;
    });
    res.writeHead(r.status, h).end(Buffer.from(await r.arrayBuffer()));
    return r.status;
  } catch {
    res.destroy();
    return 0;
  }
}

/** Listens on a free local port; `close` also drops kept-alive connections so it never hangs. */
export async function listenLocal(server: http.Server): Promise<{ url: string; close(): Promise<void> }> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
