import type { Store } from './store.ts';
import { SqliteStore } from './sqlite/sqlite-store.ts';
import { PostgresStore } from './postgres/postgres-store.ts';

/** Opens the store named by DATABASE_URL (`sqlite:<path>` or `postgres://…`) and migrates it. */
export async function openStore(databaseUrl: string): Promise<Store> {
  const store: Store = databaseUrl.startsWith('sqlite:')
    ? new SqliteStore(databaseUrl.slice('sqlite:'.length))
    : new PostgresStore(databaseUrl);
  await store.migrate();
  return store;
}
