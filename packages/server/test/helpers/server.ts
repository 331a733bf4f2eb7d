import { before, after } from 'node:test';
import { createServer, type AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import { buildApp } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { redisLimiter } from '../../src/infra/limiter/redis.ts';
import { localLimiter } from '../../src/infra/limiter/local.ts';
import type { Limiter } from '../../src/infra/limiter/limiter.ts';
import { redisBus } from '../../src/infra/bus/redis.ts';
import type { ChangeEvent } from '../../src/changes/events.ts';
import { createOperator } from '../../src/admin/operators.ts';
import type { Clock } from '../../src/infra/clock.ts';
import { openTestStore, type StoreKind, type TestStore } from './stores.ts';

export const OPERATOR = { email: 'operator@svc.test', password: 'operator-password-1' };

/** What a test needs of a running server. */
export interface TestServer {
  url: string;
  /** `${url}/v1` */
  base: string;
  app: FastifyInstance;
  config: Config;
  db: TestStore;
  /** Every change the server committed, in the order it announced them. */
  changes: ChangeEvent[];
  operatorToken(): Promise<string>;
  /** A new database with a secret and a public key. */
  createDatabase(name?: string): Promise<{ databaseId: string; secretKey: string; secretKeyId: string; publicKey: string; publicKeyId: string }>;
  close(): Promise<void>;
}

export interface StartOptions {
  /** Environment-style settings (API.md §9 names) on top of the test defaults. */
  env?: Record<string, string>;
  /** Use the Redis limiter and bus (needs Redis; env.REDIS_URL or the local one), as main.ts does with REDIS_URL. */
  redis?: boolean;
  /** Reuse an existing store (e.g. a second server on the same database). */
  db?: TestStore;
  /** Time source (e.g. a ManualClock). */
  clock?: Clock;
  /** Where the server logs (set env.LOG_LEVEL too; the default level is silent). */
  logStream?: DestinationStream;
  /** The first-run setup token (main.ts prints one while no operator exists); the server makes no operator until `operatorToken()`. */
  setupToken?: string;
}

/** A port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** A database made by `createDatabase`: its id and a secret and a public key. */
export type TestDatabase = Awaited<ReturnType<TestServer['createDatabase']>>;

/** `useServer`'s options: the server's, and the name of its database (mails carry it; by default a random name). */
export type UseServerOptions = StartOptions & { databaseName?: string };

/**
 * Starts a server with one database before the suite's tests and closes it after them. `opts` may
 * be a function, called in that `before`: for settings that exist only once an earlier `before`
 * ran (the URL of an SMTP sink or OAuth provider started there).
 */
export function useServer(kind: StoreKind, opts: UseServerOptions | (() => UseServerOptions) = {}): { server: TestServer; db: TestDatabase } {
  const ctx = {} as { server: TestServer; db: TestDatabase };
  before(async () => {
    const options = typeof opts === 'function' ? opts() : opts;
    ctx.server = await startServer(kind, options);
    ctx.db = await ctx.server.createDatabase(options.databaseName);
  });
  after(() => ctx.server?.close());
  return ctx;
}

/** Starts the real app on a fresh store, listening on 127.0.0.1 with a random port. */
export async function startServer(kind: StoreKind, opts: StartOptions = {}): Promise<TestServer> {
  const db = opts.db ?? (await openTestStore(kind));
  const port = await freePort();
  const config = loadConfig({
    // DATABASE_URL names the store in use, as in production (the credential caches' invalidation is picked from it).
    DATABASE_URL: db.url,
    LOG_LEVEL: 'silent',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    RATE_LIMIT_PER_KEY: '1000000',
    RATE_LIMIT_PER_IP: '1000000',
    ...opts.env,
  });
  const redisUrl = opts.env?.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const limiter: Limiter = opts.redis ? redisLimiter(redisUrl) : localLimiter();
  const bus = opts.redis ? redisBus(redisUrl) : undefined;
  await limiter.health?.settled;
  const changes: ChangeEvent[] = [];
  const app = await buildApp({
    config,
    store: db.store,
    limiter,
    bus,
    clock: opts.clock,
    logStream: opts.logStream,
    setupToken: opts.setupToken,
    onChange: (events) => changes.push(...events),
  });
  await app.listen({ port, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${port}`;
  let token: string | undefined;

  const server: TestServer = {
    url,
    base: `${url}/v1`,
    app,
    config,
    db,
    changes,
    async operatorToken() {
      if (token) return token;
      await createOperator(db.store, OPERATOR.email, OPERATOR.password).catch(() => undefined);
      const r = await request(server, 'POST', '/admin/sign-in', { body: OPERATOR });
      token = (r.json as { token: string }).token;
      return token;
    },
    async createDatabase(name = `db-${Math.random().toString(36).slice(2, 8)}`) {
      const op = await server.operatorToken();
      const c = await request(server, 'POST', '/admin/databases', { key: op, body: { name } });
      // Creating a database also creates its first public key (§6, second version).
      const created = c.json as { database: { id: string }; key: { id: string; key: string }; publicKey: { id: string; key: string } };
      const pub = created.publicKey;
      return { databaseId: created.database.id, secretKey: created.key.key, secretKeyId: created.key.id, publicKey: pub.key, publicKeyId: pub.id };
    },
    async close() {
      await app.close();
      await limiter.close();
      await bus?.close();
      if (!opts.db) await db.drop();
    },
  };
  return server;
}

export interface RequestOptions {
  key?: string;
  body?: unknown;
  /** Sent as is (string) instead of JSON-encoding `body`. */
  raw?: string;
  /** null: send no Content-Type. */
  contentType?: string | null;
  headers?: Record<string, string>;
  query?: Record<string, string | number>;
}

export interface Response {
  status: number;
  headers: Headers;
  json: unknown;
  text: string;
}

/** One HTTP request to the server; paths are relative to /v1 unless they start with `/v1` or are `/health`-style roots given with `root`. */
export async function request(
  server: { base: string; url: string },
  method: string,
  path: string,
  opts: RequestOptions & { root?: boolean } = {},
): Promise<Response> {
  const u = new URL((opts.root ? server.url : server.base) + path);
  for (const [k, v] of Object.entries(opts.query ?? {})) u.searchParams.set(k, String(v));
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  const body = opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
  if (body !== undefined && opts.contentType !== null) headers['content-type'] = opts.contentType ?? 'application/json';
  const res = await fetch(u, { method, headers, body: body === undefined ? undefined : opts.contentType === null ? new TextEncoder().encode(body) : body });
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, json, text };
}

/** The error code of a §0 error answer. */
export function errorCode(r: Response): string | undefined {
  return (r.json as { error?: { code?: string } } | undefined)?.error?.code;
}
