import type { PortableRow } from '../store/bulk/bulk.ts';

/**
 * The export format: NDJSON, one JSON value per line, store-neutral (the same file imports into
 * SQLite or PostgreSQL).
 *
 *   {"format":"svc-export","version":1,"database":"<id>","schema":9,"exportedAt":"…"}
 *   {"table":"databases","row":{…}}            then api_keys, users, user_identities, webhooks,
 *   {"table":"documents","row":{…}}            webhook_deliveries, webhook_attempts, documents
 *   {"end":true,"lastEventId":"1042","rows":{"documents":1000,…}}
 *
 * A row is the table's stored columns as the source store has them (SELECT *), with portable
 * values (store/bulk/portable.ts): JSON columns as their JSON text, booleans 0/1, integers past
 * 2^53 as decimal text. So columns later migrations add travel without this file knowing them.
 * The end line carries the counter of event ids and how many rows each table sent: an import
 * continues numbering above that id, and a file cut short (no end line, or fewer rows) is refused.
 */
export const FORMAT = 'svc-export';
/** Version 3 adds files (API.md §11): their records, the file-signing key, and their bytes as chunk lines. */
export const FORMAT_VERSION = 3;
/** Versions an import reads: a file without files is read the same way. */
const READABLE_VERSIONS = new Set([1, 2, FORMAT_VERSION]);

/** A file's bytes, in order, after every row and before the end line: `data` is base64 of at most 1 MiB. */
export interface ChunkLine {
  type: 'chunk';
  file: string;
  data: string;
}
export const CHUNK_BYTES = 1024 * 1024;

/** The first line. `schema` is the newest migration the source store had applied. */
export interface Header {
  format: typeof FORMAT;
  version: number;
  database: string;
  schema: number;
  exportedAt: string;
}

/** A line of rows. */
export interface RowLine {
  table: string;
  row: PortableRow;
}

/** The last line. */
export interface EndLine {
  end: true;
  lastEventId: string;
  rows: Record<string, number>;
  /** Version 3: how many chunk lines the file holds. */
  chunks?: number;
}

/**
 * A table whose rows of one database travel: which rows (`where`, with the database id as its one
 * parameter), in which order (a key, so the cursor walks an index), and the columns an import
 * resets because their value means nothing on another store.
 */
interface CarriedTable {
  table: string;
  where: string;
  order: string;
  reset?: Record<string, null>;
}

const PENDING = "status = 'pending' AND webhook_id IN (SELECT id FROM webhooks WHERE database_id = ?)";

/**
 * The tables carried, in the order written and read back (parents before children: foreign
 * keys hold at every insert). Only pending deliveries travel (with their attempts so far, so the
 * attempt numbers go on): finished ones are history, like past events. A pending delivery's
 * lease belonged to an instance of the old store.
 */
export const CARRIED: readonly CarriedTable[] = [
  { table: 'databases', where: 'id = ?', order: 'id' },
  { table: 'api_keys', where: 'database_id = ?', order: 'id' },
  { table: 'users', where: 'database_id = ?', order: 'id' },
  { table: 'user_identities', where: 'database_id = ?', order: 'provider, issuer, provider_user_id' },
  // Second factors and passkeys of the database's users (API.md §2.2, §11): TOTP secrets,
  // recovery-code hashes, passkey public keys and counters.
  { table: 'mfa_factors', where: 'database_id = ?', order: 'id' },
  { table: 'mfa_recovery_codes', where: 'user_id IN (SELECT id FROM users WHERE database_id = ?)', order: 'code_hash' },
  { table: 'passkeys', where: 'database_id = ?', order: 'id' },
  { table: 'webhooks', where: 'database_id = ?', order: 'id' },
  { table: 'webhook_deliveries', where: PENDING, order: 'id', reset: { lease_until: null, lease_token: null } },
  { table: 'webhook_attempts', where: `delivery_id IN (SELECT id FROM webhook_deliveries WHERE ${PENDING})`, order: 'delivery_id, n' },
  { table: 'documents', where: 'database_id = ?', order: 'collection, id' },
  { table: 'file_keys', where: 'database_id = ?', order: 'database_id' },
  { table: 'files', where: 'database_id = ?', order: 'id' },
];

/**
 * The store's other tables, and why they don't travel. A table in neither list (added by a later
 * migration) makes export warn, and test/transfer/tables.test.ts fail, until it is placed here or
 * in CARRIED.
 */
export const LEFT_BEHIND: Readonly<Record<string, string>> = {
  events: 'past events are not carried; the import continues the event counter above the last id',
  collections: 'document counts per collection: rebuilt from the documents on import',
  document_indexes: 'automatic indexes belong to the store (each serves a collection of every database): the target builds its own on demand',
  operators: 'operators belong to the store, not to a database',
  operator_sessions: 'sessions are not carried',
  user_sessions: 'sessions are not carried: users sign in again',
  realtime_tokens: 'sessions are not carried: clients ask for a new realtime token',
  auth_tokens: 'password-reset and magic links in flight are not carried',
  oauth_states: 'OAuth sign-ins in flight are not carried',
  mfa_tokens: 'two-step sign-ins in flight are not carried',
  passkey_challenges: 'passkey sign-ins and registrations in flight are not carried',
  schema_migrations: 'each store has its own migrations',
  server_secrets: 'secrets of the whole store (the list cursor key): the target makes its own',
  file_jobs: 'byte removals in progress belong to the old byte store',
  file_thumb_claims: 'thumbnails being made right now: the target makes its own on first request',
  idempotency_keys: 'recorded answers of recent writes (kept 24 hours): retries after a move write anew',
  document_search: 'search words: the import indexes the documents of searched collections as they arrive',
  search_builds: 'search back-fills in progress: the import indexes every document itself',
  // SQLite's FTS5 index over document_search (store/sqlite/search-sql.ts), kept by triggers.
  document_search_fts: 'kept by triggers from document_search',
  document_search_fts_config: 'part of the FTS5 index',
  document_search_fts_data: 'part of the FTS5 index',
  document_search_fts_docsize: 'part of the FTS5 index',
  document_search_fts_idx: 'part of the FTS5 index',
};

/** The database id of the file, or what is wrong with its first line. */
export function parseHeader(value: unknown): Header {
  const h = value as Partial<Header> | null;
  if (!h || typeof h !== 'object' || h.format !== FORMAT) throw new Error(`not an svc export: the first line must name the format "${FORMAT}"`);
  if (typeof h.version !== 'number' || !READABLE_VERSIONS.has(h.version))
    throw new Error(`export format version ${String(h.version)} is not supported (this svc reads version ${FORMAT_VERSION})`);
  if (typeof h.database !== 'string' || h.database === '') throw new Error('the first line names no database');
  if (typeof h.schema !== 'number') throw new Error('the first line names no schema version');
  return h as Header;
}
