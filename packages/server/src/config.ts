import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DEFAULT_STORE_TIMEOUTS, type StoreTimeouts } from './store/timeouts.ts';

/** Every setting of the service (API.md §9), typed and frozen. The only reader of process.env. */
export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  databaseUrl: string;
  /** DATABASE_CONNECT_TIMEOUT_MS and DATABASE_STATEMENT_TIMEOUT_MS: how long the store waits before a request gets 503 (store/timeouts.ts). */
  storeTimeouts: Readonly<StoreTimeouts>;
  redisUrl: string | undefined;
  smtpUrl: string | undefined;
  emailFrom: string;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  rateLimitPerKey: number;
  rateLimitPerIp: number;
  trustProxy: boolean;
  webhookTimeoutMs: number;
  webhookRetryBaseMs: number;
  webhookMaxAttempts: number;
  webhookAllowPrivateUrls: boolean;
  /** A webhook is disabled after this many failed deliveries in a row… */
  webhookDisableAfterFailures: number;
  /** …when the first of them is at least this many hours old. */
  webhookDisableAfterHours: number;
  /** Finished webhook deliveries (and their attempts) older than this are pruned. */
  webhookRetentionDays: number;
  /** Webhook attempts one instance runs at once (a database gets at most a quarter of them: webhooks/slots.ts). */
  webhookConcurrency: number;
  /** Change-log events older than this are pruned (realtime replay needs at least 1 hour). */
  eventRetentionHours: number;
  sessionTtlDays: number;
  /** Live API keys, end-user sessions and operator sessions each instance remembers, each (both stores: infra/invalidation); 0: none, every request looks up. */
  credentialCacheSize: number;
  /** Answers of lists each instance keeps until their database changes, in MiB (documents/page-cache.ts); 0: none. */
  listCacheMb: number;
  /** Server pings every realtime socket this often and drops one that missed the previous pong. */
  realtimeHeartbeatMs: number;
  /** A realtime socket whose unsent data exceeds this is closed (slow consumer); it can resume. */
  realtimeMaxBufferBytes: number;
  /** How often the grants of the open realtime sockets are checked again (revoked key, expired token, ended session → closed with 4401). */
  realtimeGrantCheckMs: number;
  oauth: OAuthEndpoints;
  logLevel: string;
  /** Human-readable log lines (a terminal) instead of JSON lines (a log collector). */
  logPretty: boolean;
  /** When set, GET /metrics needs `Authorization: Bearer <metricsToken>`. */
  metricsToken: string | undefined;
  limits: Limits;
  /**
   * Tests only (crash tests of idempotency keys): the process kills itself with SIGKILL right after
   * committing a write that carried this Idempotency-Key, before answering. Unset in production.
   */
  testCrashAfterCommitKey: string | undefined;
  /** Files (API.md §12): where bytes live and their limits. */
  files: FilesConfig;
}

/** API.md §9/§12: the byte store and the file limits. */
export interface FilesConfig {
  /** `file:<dir>` or `s3://<bucket>` (infra/bytes/open.ts). */
  storageUrl: string;
  s3: { endpoint?: string; region: string; accessKeyId?: string; secretAccessKey?: string; forcePathStyle: boolean };
  /** LIMIT_FILE_BYTES: the largest file (a bucket may set less). */
  maxFileBytes: number;
  /** LIMIT_STORAGE_BYTES_PER_DATABASE: the bytes of every file of one database. */
  maxDatabaseBytes: number;
  /** RATE_LIMIT_FILES_PER_IP: downloads without a key per client IP and minute. */
  downloadsPerIp: number;
  /** Bytes with no record older than this are swept (a crash between storing and recording). */
  orphanAgeMs: number;
  /** How often the sweep looks for such bytes. */
  sweepEveryMs: number;
}

/** Provider endpoints (API.md §9), overridable for tests and self-hosted providers. */
export interface OAuthEndpoints {
  googleAuthorizeUrl: string;
  googleTokenUrl: string;
  googleUserinfoUrl: string;
  githubAuthorizeUrl: string;
  githubTokenUrl: string;
  githubApiUrl: string;
  /** docs/oauth.md: Apple, Microsoft (`{tenant}` is replaced by the database's tenant), Discord, GitLab, Facebook and X. */
  appleAuthorizeUrl: string;
  appleTokenUrl: string;
  microsoftAuthorizeUrl: string;
  microsoftTokenUrl: string;
  discordAuthorizeUrl: string;
  discordTokenUrl: string;
  discordUserUrl: string;
  gitlabAuthorizeUrl: string;
  gitlabTokenUrl: string;
  gitlabUserinfoUrl: string;
  facebookAuthorizeUrl: string;
  facebookTokenUrl: string;
  facebookUserUrl: string;
  xAuthorizeUrl: string;
  xTokenUrl: string;
  xUserUrl: string;
}

/** API.md §8: defaults, each configurable through the environment. */
export interface Limits {
  documentBytes: number;
  bodyBytes: number;
  /** The body limit of routes whose bodies are a few fields (auth, realtime token, webhooks, operator sign-in and setup). */
  smallBodyBytes: number;
  /** Request line and headers, all together (431 over it). */
  headerBytes: number;
  bulkDocuments: number;
  pageSize: number;
  jsonDepth: number;
  webhooksPerDatabase: number;
  realtimeCollections: number;
  /** Automatic field indexes one database may cause to be built (documents/indexes.ts)… */
  autoIndexesPerDatabase: number;
  /** …and that the whole store may hold (each is one collection's, but costs every write: documents/indexes.ts). */
  autoIndexes: number;
  /** Open realtime sockets per token, on one instance (429 past it). */
  realtimeSocketsPerToken: number;
  /** Operations of one POST /batch (API.md §1.2; 413 past it). */
  batchOperations: number;
  /** A list page stops growing once its documents' JSON passes this many bytes (LIMIT_PAGE_BYTES, API.md §1.1). */
  pageBytes: number;
}

type Env = Record<string, string | undefined>;

/** Reads `KEY=value` lines of a `.env` file; real environment variables win. */
function readDotEnv(path: string): Env {
  if (!existsSync(path)) return {};
  const out: Env = {};
  for (const line of readFileSync(path, 'utf8').split(/\r?\n/)) {
    const m = /^\s*([A-Z0-9_]+)\s*=\s*(.*?)\s*$/.exec(line);
    if (!m) continue;
    out[m[1]] = m[2].replace(/^(['"])(.*)\1$/, '$2');
  }
  return out;
}

class ConfigError extends Error {}

function int(env: Env, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new ConfigError(`${name} must be an integer ≥ ${min}, got "${raw}"`);
  return n;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (/^(1|true|yes)$/i.test(raw)) return true;
  if (/^(0|false|no)$/i.test(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

/** Builds the configuration from an environment (process.env plus `.env` by default). */
export function loadConfig(source: Env = { ...readDotEnv('.env'), ...process.env }): Readonly<Config> {
  const env = source;
  const port = int(env, 'PORT', 8700, 0);
  const databaseUrl = env.DATABASE_URL || 'sqlite:./data/svc.db';
  if (!/^(sqlite:|postgres(ql)?:\/\/)/.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must be sqlite:<path> or postgres://…');
  }
  return Object.freeze({
    port,
    host: env.HOST || '0.0.0.0',
    publicUrl: (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, ''),
    databaseUrl,
    storeTimeouts: Object.freeze({
      connectMs: int(env, 'DATABASE_CONNECT_TIMEOUT_MS', DEFAULT_STORE_TIMEOUTS.connectMs, 1),
      statementMs: int(env, 'DATABASE_STATEMENT_TIMEOUT_MS', DEFAULT_STORE_TIMEOUTS.statementMs, 1),
    }),
    redisUrl: env.REDIS_URL || undefined,
    smtpUrl: env.SMTP_URL || undefined,
    emailFrom: env.EMAIL_FROM || 'svc <no-reply@localhost>',
    adminEmail: env.SVC_ADMIN_EMAIL || undefined,
    adminPassword: env.SVC_ADMIN_PASSWORD || undefined,
    rateLimitPerKey: int(env, 'RATE_LIMIT_PER_KEY', 1000, 1),
    rateLimitPerIp: int(env, 'RATE_LIMIT_PER_IP', 200, 1),
    trustProxy: bool(env, 'TRUST_PROXY', false),
    webhookTimeoutMs: int(env, 'WEBHOOK_TIMEOUT_MS', 30000, 1),
    webhookRetryBaseMs: int(env, 'WEBHOOK_RETRY_BASE_MS', 30000, 1),
    webhookMaxAttempts: int(env, 'WEBHOOK_MAX_ATTEMPTS', 5, 1),
    webhookAllowPrivateUrls: bool(env, 'WEBHOOK_ALLOW_PRIVATE_URLS', false),
    webhookDisableAfterFailures: int(env, 'WEBHOOK_DISABLE_AFTER_FAILURES', 50, 1),
    webhookDisableAfterHours: int(env, 'WEBHOOK_DISABLE_AFTER_HOURS', 24, 0),
    webhookRetentionDays: int(env, 'WEBHOOK_RETENTION_DAYS', 30, 1),
    webhookConcurrency: int(env, 'WEBHOOK_CONCURRENCY', 64, 1),
    eventRetentionHours: int(env, 'EVENT_RETENTION_HOURS', 30 * 24, 1),
    sessionTtlDays: int(env, 'SESSION_TTL_DAYS', 30, 1),
    credentialCacheSize: int(env, 'CREDENTIAL_CACHE_SIZE', 10_000, 0),
    listCacheMb: int(env, 'LIST_CACHE_MB', 32, 0),
    realtimeHeartbeatMs: int(env, 'REALTIME_HEARTBEAT_MS', 30_000, 100),
    realtimeMaxBufferBytes: int(env, 'REALTIME_MAX_BUFFER_BYTES', 4 * 1024 * 1024, 1024),
    realtimeGrantCheckMs: int(env, 'REALTIME_GRANT_CHECK_MS', 2000, 100),
    oauth: Object.freeze({
      googleAuthorizeUrl: env.OAUTH_GOOGLE_AUTHORIZE_URL || 'https://accounts.google.com/o/oauth2/v2/auth',
      googleTokenUrl: env.OAUTH_GOOGLE_TOKEN_URL || 'https://oauth2.googleapis.com/token',
      googleUserinfoUrl: env.OAUTH_GOOGLE_USERINFO_URL || 'https://openidconnect.googleapis.com/v1/userinfo',
      githubAuthorizeUrl: env.OAUTH_GITHUB_AUTHORIZE_URL || 'https://github.com/login/oauth/authorize',
      githubTokenUrl: env.OAUTH_GITHUB_TOKEN_URL || 'https://github.com/login/oauth/access_token',
      githubApiUrl: (env.OAUTH_GITHUB_API_URL || 'https://api.github.com').replace(/\/+$/, ''),
      appleAuthorizeUrl: env.OAUTH_APPLE_AUTHORIZE_URL || 'https://appleid.apple.com/auth/authorize',
      appleTokenUrl: env.OAUTH_APPLE_TOKEN_URL || 'https://appleid.apple.com/auth/token',
      microsoftAuthorizeUrl: env.OAUTH_MICROSOFT_AUTHORIZE_URL || 'https://login.microsoftonline.com/{tenant}/oauth2/v2.0/authorize',
      microsoftTokenUrl: env.OAUTH_MICROSOFT_TOKEN_URL || 'https://login.microsoftonline.com/{tenant}/oauth2/v2.0/token',
      discordAuthorizeUrl: env.OAUTH_DISCORD_AUTHORIZE_URL || 'https://discord.com/oauth2/authorize',
      discordTokenUrl: env.OAUTH_DISCORD_TOKEN_URL || 'https://discord.com/api/oauth2/token',
      discordUserUrl: env.OAUTH_DISCORD_USER_URL || 'https://discord.com/api/users/@me',
      gitlabAuthorizeUrl: env.OAUTH_GITLAB_AUTHORIZE_URL || 'https://gitlab.com/oauth/authorize',
      gitlabTokenUrl: env.OAUTH_GITLAB_TOKEN_URL || 'https://gitlab.com/oauth/token',
      gitlabUserinfoUrl: env.OAUTH_GITLAB_USERINFO_URL || 'https://gitlab.com/oauth/userinfo',
      facebookAuthorizeUrl: env.OAUTH_FACEBOOK_AUTHORIZE_URL || 'https://www.facebook.com/v19.0/dialog/oauth',
      facebookTokenUrl: env.OAUTH_FACEBOOK_TOKEN_URL || 'https://graph.facebook.com/v19.0/oauth/access_token',
      facebookUserUrl: env.OAUTH_FACEBOOK_USER_URL || 'https://graph.facebook.com/v19.0/me',
      xAuthorizeUrl: env.OAUTH_X_AUTHORIZE_URL || 'https://x.com/i/oauth2/authorize',
      xTokenUrl: env.OAUTH_X_TOKEN_URL || 'https://api.x.com/2/oauth2/token',
      xUserUrl: env.OAUTH_X_USER_URL || 'https://api.x.com/2/users/me',
    }),
    logLevel: env.LOG_LEVEL || 'info',
    // LOG_FORMAT=json|pretty; by default pretty only when a person is watching the terminal.
    logPretty: env.LOG_FORMAT ? env.LOG_FORMAT === 'pretty' : Boolean(process.stdout.isTTY),
    metricsToken: env.METRICS_TOKEN || undefined,
    testCrashAfterCommitKey: env.SVC_TEST_CRASH_AFTER_COMMIT_KEY || undefined,
    limits: Object.freeze({
      documentBytes: int(env, 'LIMIT_DOCUMENT_BYTES', 1024 * 1024, 1),
      bodyBytes: int(env, 'LIMIT_BODY_BYTES', 16 * 1024 * 1024, 1),
      smallBodyBytes: int(env, 'LIMIT_SMALL_BODY_BYTES', 64 * 1024, 1),
      headerBytes: int(env, 'LIMIT_HEADER_BYTES', 16 * 1024, 1024),
      bulkDocuments: int(env, 'LIMIT_BULK_DOCUMENTS', 1000, 1),
      pageSize: int(env, 'LIMIT_PAGE_SIZE', 1000, 1),
      jsonDepth: int(env, 'LIMIT_JSON_DEPTH', 32, 1),
      webhooksPerDatabase: int(env, 'LIMIT_WEBHOOKS_PER_DATABASE', 100, 1),
      realtimeCollections: int(env, 'LIMIT_REALTIME_COLLECTIONS', 100, 1),
      autoIndexesPerDatabase: int(env, 'LIMIT_AUTO_INDEXES_PER_DATABASE', 16, 0),
      autoIndexes: int(env, 'LIMIT_AUTO_INDEXES', 64, 0),
      realtimeSocketsPerToken: int(env, 'LIMIT_REALTIME_SOCKETS_PER_TOKEN', 100, 1),
      batchOperations: int(env, 'LIMIT_BATCH_OPERATIONS', 100, 1),
      pageBytes: int(env, 'LIMIT_PAGE_BYTES', 16 * 1024 * 1024, 1),
    }),
    files: filesConfig(env, databaseUrl),
  });
}

/** The §12 settings. Bytes default to a `files` folder beside the SQLite file (`./data/files` on PostgreSQL). */
function filesConfig(env: Env, databaseUrl: string): FilesConfig {
  const beside = databaseUrl.startsWith('sqlite:') ? join(dirname(databaseUrl.slice('sqlite:'.length)), 'files') : './data/files';
  const storageUrl = env.STORAGE_URL || `file:${beside}`;
  if (!/^(file:.+|s3:\/\/[^/]+\/?)$/.test(storageUrl)) throw new ConfigError('STORAGE_URL must be file:<dir> or s3://<bucket>');
  return Object.freeze({
    storageUrl,
    s3: Object.freeze({
      endpoint: env.S3_ENDPOINT || undefined,
      region: env.S3_REGION || 'us-east-1',
      accessKeyId: env.S3_ACCESS_KEY_ID || undefined,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY || undefined,
      forcePathStyle: bool(env, 'S3_FORCE_PATH_STYLE', false),
    }),
    maxFileBytes: int(env, 'LIMIT_FILE_BYTES', 50 * 1024 * 1024, 1),
    maxDatabaseBytes: int(env, 'LIMIT_STORAGE_BYTES_PER_DATABASE', 10 * 1024 * 1024 * 1024, 0),
    downloadsPerIp: int(env, 'RATE_LIMIT_FILES_PER_IP', 3000, 1),
    orphanAgeMs: int(env, 'FILES_ORPHAN_AGE_MS', 24 * 3600 * 1000, 0),
    sweepEveryMs: int(env, 'FILES_SWEEP_EVERY_MS', 3600 * 1000, 100),
  });
}

export { ConfigError };
