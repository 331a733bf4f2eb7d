// Test helpers: the SDK is tested against the real server, started in-process with the server
// package's own test helpers (tests may import server code; the SDK itself never does).
import { startServer, type StartOptions, type TestServer } from '../../server/test/helpers/server.ts';
import { createClient, MemorySessionStore, type ClientOptions, type SvcClient } from '../src/index.ts';

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
  const make = (key: string) => (o: Partial<ClientOptions> = {}) =>
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
