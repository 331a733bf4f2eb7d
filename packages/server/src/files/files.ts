import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { ChangeEvent } from '../changes/events.ts';
import { cursorSecret } from '../documents/cursor-key.ts';
import { CursorCodec } from '../documents/cursor.ts';
import type { Feature } from '../feature.ts';
import type { Clock } from '../infra/clock.ts';
import type { ByteStore } from '../infra/bytes/bytes.ts';
import { openByteStore } from '../infra/bytes/open.ts';
import type { InvalidatedCache } from '../infra/invalidation/cache.ts';
import type { Invalidation } from '../infra/invalidation/invalidation.ts';
import type { Jobs } from '../infra/jobs.ts';
import type { Limiter } from '../infra/limiter/limiter.ts';
import type { Store } from '../store/store.ts';
import { IdempotencyKeys } from '../idempotency/keys.ts';
import { FilesApi } from './api.ts';
import { UploadKeys } from './idempotent.ts';
import { Cleanup } from './cleanup.ts';
import { Links } from './links.ts';
import { fileRoutes } from './routes.ts';
import { FilesService, type FileWriteHook } from './service.ts';
import { Thumbnails } from './thumbs.ts';
import { Uploads } from './uploader.ts';

/** How often due byte removals run. */
const JOBS_EVERY_MS = 1000;

interface FilesDeps {
  config: Config;
  store: Store;
  clock: Clock;
  limiter: Limiter;
  jobs: Jobs;
  log: FastifyBaseLogger;
  onChange?: (events: ChangeEvent[]) => void;
  inTransaction?: FileWriteHook;
  /** The byte store (default: the one STORAGE_URL names). */
  bytes?: ByteStore;
  /** What keeps in-memory figures valid (the databases' file bytes, for the quota: usage.ts). */
  invalidation?: Invalidation;
  /** Databases' settings kept in memory, shared with the documents (files/api.ts). */
  settings?: InvalidatedCache<string>;
}

export interface Files extends Feature {
  service: FilesService;
  cleanup: Cleanup;
  bytes: ByteStore;
}

/** Files (API.md §12): records in the store, bytes in the byte store, cleaned up by durable jobs. */
export function createFiles(deps: FilesDeps): Files {
  const { config, store, clock, log } = deps;
  const bytes = deps.bytes ?? openByteStore(config.files);
  const service = new FilesService({
    store,
    maxDatabaseBytes: config.files.maxDatabaseBytes,
    inTransaction: deps.inTransaction,
    onChange: deps.onChange,
    invalidation: deps.invalidation,
  });
  // Idempotency-Key on uploads (§1.2): the documents' keys, in the same table.
  const uploadKeys = new UploadKeys(new IdempotencyKeys(store, clock));
  const cleanup = new Cleanup({ store, bytes, clock, log, retryBaseMs: 1000, orphanAgeMs: config.files.orphanAgeMs });
  const api = new FilesApi({
    store,
    clock,
    service,
    uploads: new Uploads({ bytes, service, keys: uploadKeys, maxFileBytes: config.files.maxFileBytes, log, now: () => new Date(clock.now()).toISOString() }),
    bytes,
    thumbs: new Thumbnails(bytes, store, clock, log),
    links: new Links(store),
    limiter: deps.limiter,
    // Cursors are signed like the documents': with the random key kept in the store (documents/cursor-key.ts).
    cursors: new CursorCodec(async () => `files\u0000${await cursorSecret(store)}`),
    publicUrl: config.publicUrl,
    maxPageSize: config.limits.pageSize,
    downloadsPerIp: config.files.downloadsPerIp,
    settings: deps.settings,
  });
  return {
    service,
    cleanup,
    bytes,
    routes: (app) => fileRoutes(app, api, uploadKeys),
    start() {
      deps.jobs.every('file byte removals', JOBS_EVERY_MS, () => cleanup.runJobs(), { firstAfterMs: 0 });
      deps.jobs.every('file sweep', config.files.sweepEveryMs, () => cleanup.sweep(), { firstAfterMs: Math.min(60_000, config.files.sweepEveryMs) });
    },
    async stop() {
      await bytes.close();
    },
  };
}
