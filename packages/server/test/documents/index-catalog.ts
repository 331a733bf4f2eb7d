import { setTimeout as sleep } from 'node:timers/promises';
import type { StoreKind } from '../helpers/stores.ts';
import type { TestServer } from '../helpers/server.ts';

/** An automatic index as the engine's catalogue shows it. */
export interface IndexRow {
  name: string;
  sql: string;
}

/** Reads svc's automatic indexes (`documents_by_path_…`) from the engine's own catalogue. */
export function indexCatalog(server: () => TestServer, kind: StoreKind) {
  const indexes = async (): Promise<IndexRow[]> => {
    const { store } = server().db;
    return kind === 'sqlite'
      ? store.all<IndexRow>("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'documents' AND name LIKE 'documents_by_path_%'")
      : store.all<IndexRow>("SELECT indexname AS name, indexdef AS sql FROM pg_indexes WHERE tablename = 'documents' AND indexname LIKE 'documents_by_path_%'");
  };
  /** The engine's spelling of a path inside an index definition. */
  const spelled = (path: string) => (kind === 'sqlite' ? `'$.${path}'` : `'{${path.split('.').join(',')}}'`);
  const indexOn = async (path: string) => (await indexes()).filter((i) => i.sql.includes(spelled(path)));
  /** The indexer runs in the background after the list answered: poll for a while, never assert on timing. */
  const waitForIndex = async (path: string) => {
    for (let i = 0; i < 400; i += 1) {
      const found = await indexOn(path);
      if (found.length) return found;
      await sleep(25);
    }
    return [];
  };
  return { indexes, indexOn, waitForIndex };
}
