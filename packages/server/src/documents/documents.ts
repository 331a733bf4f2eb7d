import type { FastifyBaseLogger } from 'fastify';
import type { Limits } from '../config.ts';
import type { Feature } from '../feature.ts';
import type { Clock } from '../infra/clock.ts';
import type { Store } from '../store/store.ts';
import type { ChangeListener } from '../changes/events.ts';
import { DocumentsService, type WriteHook } from './service.ts';
import { AutoIndexer } from './indexes.ts';
import { CursorCodec } from './cursor.ts';
import { cursorSecret } from './cursor-key.ts';
import { PageCache, type PageCacheOptions } from './page-cache.ts';
import { DocumentRules, type CachedRuleReads } from './rule-access.ts';
import { documentRoutes } from './routes.ts';
import { SearchBuilder } from './search-builds.ts';
import { hearRuleSaves } from './rule-indexes.ts';
import type { Jobs } from '../infra/jobs.ts';
import { IdempotencyKeys } from '../idempotency/keys.ts';

/** What the documents feature needs from the app. */
interface DocumentsFeatureDeps {
  store: Store;
  limits: Limits;
  clock: Clock;
  log: FastifyBaseLogger;
  /** Told about every committed change, after the commit (realtime fan-out, tests). */
  onChange: ChangeListener;
  /** Side effects that commit or roll back with each write (webhook deliveries). */
  inTransaction: WriteHook[];
  /** Runs the poll of search index builds (search-builds.ts). */
  jobs: Jobs;
  /** Where rules and sessions may be read from memory (PostgreSQL; rule-access.ts). */
  cachedRuleReads?: CachedRuleReads;
  /** Keeps answers of lists until their database changes (page-cache.ts); absent: off. */
  pageCache?: PageCacheOptions;
  /** Tests only: config.testCrashAfterCommitKey (idempotency/http.ts). */
  crashAfterCommit?: string;
}

/** How often expired idempotency keys are pruned (they are kept 24 hours: idempotency/keys.ts). */
const IDEMPOTENCY_PRUNE_MS = 10 * 60_000;

/** How often an instance looks for search index builds to run (the instance that queued one starts it at once). */
const SEARCH_BUILD_POLL_MS = 2000;

/** §1 documents (and §10 rules on them): the service, its automatic indexes and its routes. */
export function createDocuments(deps: DocumentsFeatureDeps): Feature & { service: DocumentsService; rules: DocumentRules } {
  const { store, limits, clock, log } = deps;
  const indexer = new AutoIndexer(
    store,
    { perDatabase: limits.autoIndexesPerDatabase, perStore: limits.autoIndexes },
    (e) => log.warn({ err: e }, 'automatic index failed'),
    () => clock.now(),
  );
  const cursors = new CursorCodec(() => cursorSecret(store));
  const pages = new PageCache(store, deps.pageCache);
  const service = new DocumentsService({ store, limits, indexer, clock, onChange: deps.onChange, inTransaction: deps.inTransaction, cursors, pages });
  const rules = new DocumentRules({ store, clock, cached: deps.cachedRuleReads });
  const searchBuilder = new SearchBuilder(store, log);
  const idempotency = new IdempotencyKeys(store, clock);
  let unhear: (() => void) | undefined;
  return {
    service,
    rules,
    routes: (app) =>
      documentRoutes(app, {
        documents: service,
        rules,
        maxPageSize: limits.pageSize,
        idempotency,
        batchOperations: limits.batchOperations,
        crashAfterCommit: deps.crashAfterCommit,
      }),
    async start() {
      unhear = hearRuleSaves(store, indexer);
      deps.jobs.every('idempotency keys: prune', IDEMPOTENCY_PRUNE_MS, async () => {
        await idempotency.prune();
      });
      // Builds queued by another instance, or left unfinished by a stop, are picked up here.
      searchBuilder.start();
      deps.jobs.every('search index builds', SEARCH_BUILD_POLL_MS, () => searchBuilder.runOnce(), { firstAfterMs: 0 });
      // The cursor key, made now if the store has none: a write, which should not wait for the
      // first list (it could meet another process's lock there). If the store is away, the first list reads it.
      await cursors.ready().catch((e: unknown) => log.warn({ err: e }, 'the list cursor key could not be read yet'));
    },
    stop: () => {
      unhear?.();
      return searchBuilder.stop();
    },
  };
}
