import type { Store } from './store.ts';
import { SqliteStore } from './sqlite/sqlite-store.ts';
import { PostgresStore } from './postgres/postgres-store.ts';
import { DEFAULT_STORE_TIMEOUTS, type StoreTimeouts } from './timeouts.ts';

/** Opens the store named by DATABASE_URL (`sqlite:<path>` or `postgres://…`) and migrates it. */
export async function openStore(databaseUrl: string, timeouts: StoreTimeouts = DEFAULT_STORE_TIMEOUTS): Promise<Store> {
  const store: Store = databaseUrl.startsWith('sqlite:')
    ? new SqliteStore(databaseUrl.slice('sqlite:'.length), timeouts)
    : new PostgresStore(databaseUrl, timeouts);
  try {
    await store.migrate();
  } catch (e) {
    await store.close().catch(() => undefined);
    throw e;
  }
  return store;
}
