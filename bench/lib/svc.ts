import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { setTimeout as sleep } from 'node:timers/promises';
import { startProcess, type ServerProcess } from './process.ts';
import { ROOT } from './paths.ts';
import { summarize } from './stats.ts';

export type StoreKind = 'sqlite' | 'postgres';

/**
 * svc's settings for scenarios that measure what the store does for each list: the list cache off
 * (LIST_CACHE_MB=0), since they repeat one list with no write between (the scale scenario shows a
 * list answered from the cache beside one with these settings).
 */
export const LISTS_FROM_STORE: Record<string, string> = { LIST_CACHE_MB: '0' };

/** Where `npm run bench` creates (and drops) its throw-away PostgreSQL databases. */
export const POSTGRES_ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const ADMIN = { email: 'bench@example.com', password: 'bench-password-0123456789' };

/** A running svc on a fresh store, signed in, with one database and its secret key. */
export interface Svc extends ServerProcess {
  store: StoreKind;
  key: string;
  /** The database's first public key (made with the database), for requests that rules bind. */
  publicKey: string;
  /** Runs a read-only SQL query directly on the store (e.g. to see which indexes exist). */
  query<T>(sql: string): Promise<T[]>;
  /** Stops the server and starts it again on the same store with `env` added (the keys stay valid). */
  restart(env: Record<string, string>): Promise<void>;
  /**
   * After a bulk load, does what the store's own housekeeping would do before long: PostgreSQL's
   * autovacuum vacuums and analyzes a table that got many inserts (the bench's server may run with
   * autovacuum off, and it would not wake within the run anyway); SQLite has nothing to do.
   */
  settle(): Promise<void>;
}

/** Is the PostgreSQL server of POSTGRES_ADMIN_URL reachable? */
export async function postgresAvailable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function adminSql(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * Starts `packages/server/src/main.ts` in its own process on a fresh store: a SQLite file in a temp
 * directory, or a new PostgreSQL database (dropped by `stop()`). Rate limits are lifted so they never
 * answer 429; `env` adds or overrides variables. `BENCH_CPU_PROF=<dir>` makes the server write V8 CPU profiles under that directory when it stops.
 * `BENCH_SVC_ROOT=<dir>` runs the svc of another tree (e.g. one commit exported by bench/profile.ts) instead of this one.
 */
export async function startSvc(store: StoreKind, env: Record<string, string> = {}): Promise<Svc> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
  let databaseUrl: string;
  let cleanup: () => Promise<void>;
  let query: Svc['query'];
  let settle: Svc['settle'] = async () => undefined;
  if (store === 'sqlite') {
    const file = join(dir, 'svc.db');
    databaseUrl = `sqlite:${file}`;
    let db: Database.Database | undefined;
    query = async <T>(sql: string) => {
      db ??= new Database(file, { readonly: true });
      return db.prepare(sql).all() as T[];
    };
    cleanup = async () => {
      db?.close();
      rmSync(dir, { recursive: true, force: true });
    };
  } else {
    const name = `svc_bench_${process.pid}_${Date.now()}`;
    await adminSql(`CREATE DATABASE ${name}`);
    const u = new URL(POSTGRES_ADMIN_URL);
    u.pathname = `/${name}`;
    databaseUrl = u.toString();
    let pool: pg.Pool | undefined;
    query = async <T>(sql: string) => {
      pool ??= new pg.Pool({ connectionString: databaseUrl, max: 1 });
      return (await pool.query(sql)).rows as T[];
    };
    settle = async () => {
      await query('VACUUM ANALYZE documents');
    };
    cleanup = async () => {
      await pool?.end();
      await adminSql(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      rmSync(dir, { recursive: true, force: true });
    };
  }

  const prof = process.env.BENCH_CPU_PROF;
  // One directory per server: node names the files itself, one per thread (the main thread's is the large one).
  const args = [
    ...(prof ? ['--cpu-prof', `--cpu-prof-dir=${join(prof, `svc-${store}-${Date.now()}`)}`] : []),
    '--import',
    'tsx',
    'packages/server/src/main.ts',
  ];
  const launch = (more: Record<string, string>) =>
    startProcess(
      `svc (${store})`,
      args,
      {
        DATABASE_URL: databaseUrl,
        LOG_LEVEL: 'warn',
        RATE_LIMIT_PER_KEY: '1000000000',
        RATE_LIMIT_PER_IP: '1000000000',
        SVC_ADMIN_EMAIL: ADMIN.email,
        SVC_ADMIN_PASSWORD: ADMIN.password,
        NODE_ENV: 'production',
        ...env,
        ...more,
      },
      process.env.BENCH_SVC_ROOT ?? ROOT,
    );
  let server: ServerProcess;
  try {
    server = await launch({});
  } catch (e) {
    await cleanup();
    throw e;
  }

  try {
    const { token } = await call<{ token: string }>(server.url, 'POST', '/v1/admin/sign-in', undefined, ADMIN);
    const created = await call<{ database: { id: string }; key: { key: string }; publicKey?: { key: string } }>(
      server.url,
      'POST',
      '/v1/admin/databases',
      token,
      { name: 'bench' },
    );
    // API.md §6 makes the first public key with the database; a server without that gets one made.
    const publicKey =
      created.publicKey?.key ??
      (await call<{ key: string }>(server.url, 'POST', `/v1/admin/databases/${created.database.id}/keys`, token, { kind: 'public', name: 'bench' })).key;
    const svc: Svc = {
      ...server,
      store,
      key: created.key.key,
      publicKey,
      query,
      settle,
      async restart(more) {
        await server.stop();
        server = await launch(more);
        Object.assign(svc, { url: server.url, child: server.child, output: server.output });
      },
      async stop() {
        await server.stop();
        await cleanup();
      },
    };
    return svc;
  } catch (e) {
    await server.stop();
    await cleanup();
    throw e;
  }
}

/** One JSON request (`headers` added, e.g. an `x-session-token`); throws on any non-2xx answer. */
export async function call<T>(
  url: string,
  method: string,
  path: string,
  bearer: string | undefined,
  body?: unknown,
  extraHeaders: Record<string, string> = {},
): Promise<T> {
  const headers: Record<string, string> = { ...extraHeaders };
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status}: ${text.slice(0, 500)}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/**
 * Inserts `count` documents made by `make(i)` through `POST <bulkPath>` in batches of 1,000, with
 * `parallel` requests in flight. Returns the ids of every `sampleEvery`-th document.
 */
export async function seed(opts: {
  url: string;
  bulkPath: string;
  key?: string;
  count: number;
  make: (i: number) => Record<string, unknown>;
  parallel?: number;
  sampleEvery?: number;
}): Promise<string[]> {
  const batch = 1000;
  const sampleEvery = opts.sampleEvery ?? 10;
  const ids: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < opts.count) {
      const start = next;
      next = Math.min(opts.count, next + batch);
      const documents = [];
      for (let i = start; i < next; i++) documents.push(opts.make(i));
      const out = await call<{ documents: Array<{ id: string }> }>(opts.url, 'POST', opts.bulkPath, opts.key, { documents });
      out.documents.forEach((d, j) => {
        if ((start + j) % sampleEvery === 0) ids.push(d.id);
      });
    }
  };
  await Promise.all(Array.from({ length: opts.parallel ?? 4 }, worker));
  return ids;
}

/**
 * Waits until svc has recorded an automatic index for every path (its `document_indexes` table),
 * i.e. the background build it starts on the first sort/filter by a field is finished. Calls
 * `poke` (a list request using those paths) every `pokeEveryMs`, as real traffic would: svc
 * retries a build that failed only when a later request asks for the path again.
 */
export async function waitForIndexes(
  svc: Svc,
  paths: string[],
  poke: () => Promise<void>,
  pokeEveryMs = 2000,
  timeoutMs = 120_000,
): Promise<{ ms: number; pokes: number }> {
  const started = Date.now();
  let pokes = 0;
  let lastPoke = started;
  for (;;) {
    const rows = await svc.query<{ path: string }>('SELECT path FROM document_indexes');
    // A collection's index is recorded as `<collection>:<path>` (documents/indexes.ts); one built
    // before indexes were per collection (a BENCH_SVC_ROOT of an older tree), as `<path>`.
    const have = new Set(rows.map((r) => r.path.slice(r.path.indexOf(':') + 1)));
    if (paths.every((p) => have.has(p))) return { ms: Date.now() - started, pokes };
    if (Date.now() - started > timeoutMs)
      throw new Error(`svc (${svc.store}) built no index on ${paths.filter((p) => !have.has(p)).join(', ')} within ${timeoutMs / 1000} s`);
    if (Date.now() - lastPoke >= pokeEveryMs) {
      await poke();
      pokes++;
      lastPoke = Date.now();
    }
    await sleep(250);
  }
}

/**
 * The stores a scenario runs on: SQLite, and PostgreSQL when reachable. `BENCH_STORES=sqlite` (or
 * `postgres`, comma-separated) narrows it. `skipped` is a note for the section when PostgreSQL is unreachable.
 */
export async function benchStores(all: StoreKind[] = ['sqlite', 'postgres']): Promise<{ stores: StoreKind[]; skipped?: string }> {
  const wanted = process.env.BENCH_STORES ? process.env.BENCH_STORES.split(',').map((s) => s.trim()) : all;
  const stores = all.filter((s) => wanted.includes(s));
  if (stores.includes('postgres') && !(await postgresAvailable())) {
    return {
      stores: stores.filter((s) => s !== 'postgres'),
      skipped: 'PostgreSQL: **skipped**, no server at BENCH_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres).',
    };
  }
  return { stores };
}

/** Stops svc and, if it printed anything (it runs at LOG_LEVEL=warn), notes what. */
export async function stopSvc(svc: Svc, name: string, notes: string[]): Promise<void> {
  await svc.stop();
  const logged = svc.output();
  if (logged.length)
    notes.push(`${name}: svc wrote ${logged.length}${logged.length === 200 ? '+' : ''} line(s) to its output (LOG_LEVEL=warn): ${summarize(logged)}.`);
}
