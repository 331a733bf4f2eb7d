import { describe, test, type TestContext } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { Redis } from 'ioredis';
import { openStore } from '../../src/store/open-store.ts';
import type { Store } from '../../src/store/store.ts';

export const PG_ADMIN_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const IN_CI = process.env.CI === 'true';

/** A fresh, migrated store of one kind, and how to throw it away. */
export interface TestStore {
  kind: 'sqlite' | 'postgres';
  url: string;
  store: Store;
  drop(): Promise<void>;
}

/** A new SQLite file in a temp folder. */
export async function sqliteTestStore(): Promise<TestStore> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-test-'));
  const url = `sqlite:${join(dir, 'svc.db')}`;
  const store = await openStore(url);
  return {
    kind: 'sqlite',
    url,
    store,
    drop: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A new PostgreSQL database on the local server, dropped afterwards. */
export async function postgresTestStore(): Promise<TestStore> {
  const name = `svc_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const u = new URL(PG_ADMIN_URL);
  u.pathname = `/${name}`;
  const url = u.toString();
  const store = await openStore(url);
  return {
    kind: 'postgres',
    url,
    store,
    drop: async () => {
      await store.close();
      const c = new pg.Client({ connectionString: PG_ADMIN_URL });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

let pgAvailable: Promise<boolean> | undefined;
/** Whether the local PostgreSQL answers. Under CI=true a missing server is a failure, never a skip. */
export function postgresAvailable(): Promise<boolean> {
  return (pgAvailable ??= (async () => {
    // Generous: on a loaded 2-core CI machine a first connection can take seconds.
    const c = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 10000 });
    try {
      await c.connect();
      await c.end();
      return true;
    } catch (e) {
      if (IN_CI) throw new Error(`PostgreSQL at ${PG_ADMIN_URL} is required under CI: ${(e as Error).message}`);
      return false;
    }
  })());
}

let redisUp: Promise<boolean> | undefined;
/** Whether the local Redis answers. Under CI=true a missing Redis is a failure, never a skip. */
export function redisAvailable(): Promise<boolean> {
  return (redisUp ??= (async () => {
    const client = new Redis(REDIS_URL, {
      lazyConnect: true,
      connectTimeout: 3000,
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      retryStrategy: () => null,
    });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.ping();
      return true;
    } catch (e) {
      if (IN_CI) throw new Error(`Redis at ${REDIS_URL} is required under CI: ${(e as Error).message}`);
      return false;
    } finally {
      client.disconnect();
    }
  })());
}

export const STORE_KINDS = ['sqlite', 'postgres'] as const;
export type StoreKind = (typeof STORE_KINDS)[number];

/** Opens a fresh store of a kind. */
export function openTestStore(kind: StoreKind): Promise<TestStore> {
  return kind === 'sqlite' ? sqliteTestStore() : postgresTestStore();
}

/**
 * Runs a suite once per store kind: `describe('documents [sqlite]')`, `describe('documents [postgres]')`.
 * Locally, without PostgreSQL the postgres suite is skipped with a reason; under CI it fails.
 */
export function forEachStore(name: string, suite: (kind: StoreKind) => void): void {
  for (const kind of STORE_KINDS) {
    describe(`${name} [${kind}]`, async () => {
      const missing = kind === 'postgres' && (await missingServices({ postgres: true }));
      if (missing) test(`${name} on PostgreSQL`, { skip: missing }, () => undefined);
      else suite(kind);
    });
  }
}

/**
 * Why tests that need these services can't run here, or false when they can: the one place a
 * test may be skipped, and only locally. Under CI=true a missing service throws, so the test
 * fails instead (postgresAvailable, redisAvailable).
 */
export async function missingServices(needs: { postgres?: boolean; redis?: boolean }): Promise<string | false> {
  if (needs.postgres && !(await postgresAvailable())) return `PostgreSQL is not reachable at ${PG_ADMIN_URL}`;
  if (needs.redis && !(await redisAvailable())) return `Redis is not reachable at ${REDIS_URL}`;
  return false;
}

export type { TestContext };
