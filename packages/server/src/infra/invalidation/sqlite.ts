import type Database from 'better-sqlite3';
import type { Invalidation, InvalidationLog } from './invalidation.ts';

/** The SQL function the triggers call with each dead tag (on the writer connection only). */
const FUNCTION = 'svc_invalidated';
/** Past this many tags pending in one transaction, everything goes (a large DELETE of sessions). */
const MAX_PENDING = 64;

/**
 * The tags of migration 7 (and 11, settings), as TEMP triggers: they exist only on this
 * process's writer connection and call a function only it has, so the file itself, the `svc`
 * CLI and a `sqlite3` shell never see them.
 */
const TRIGGERS = [
  `AFTER DELETE ON main.api_keys BEGIN SELECT ${FUNCTION}('key:' || OLD.key_hash); END`,
  `AFTER UPDATE ON main.api_keys WHEN OLD.revoked_at IS NOT NEW.revoked_at OR OLD.key_hash IS NOT NEW.key_hash
     OR OLD.kind IS NOT NEW.kind OR OLD.database_id IS NOT NEW.database_id BEGIN SELECT ${FUNCTION}('key:' || OLD.key_hash); END`,
  `AFTER DELETE ON main.user_sessions BEGIN SELECT ${FUNCTION}('session:' || OLD.token_hash); END`,
  `AFTER UPDATE ON main.users BEGIN SELECT ${FUNCTION}('user:' || OLD.id); END`,
  `AFTER DELETE ON main.users BEGIN SELECT ${FUNCTION}('user:' || OLD.id); END`,
  `AFTER DELETE ON main.operator_sessions BEGIN SELECT ${FUNCTION}('operator-session:' || OLD.token_hash); END`,
  `AFTER UPDATE ON main.operators BEGIN SELECT ${FUNCTION}('operator:' || OLD.id); END`,
  `AFTER DELETE ON main.operators BEGIN SELECT ${FUNCTION}('operator:' || OLD.id); END`,
  `AFTER UPDATE OF settings ON main.databases WHEN OLD.settings IS NOT NEW.settings BEGIN SELECT ${FUNCTION}('database:' || OLD.id); END`,
  `AFTER DELETE ON main.databases BEGIN SELECT ${FUNCTION}('database:' || OLD.id); END`,
];

/**
 * The instances started on each writer connection. A connection has one `FUNCTION` (registering
 * it again replaces it), so it is registered once and hands each tag to every instance here;
 * `close()` leaves the set (with none left, the function does nothing).
 */
const hearers = new WeakMap<Database.Database, Set<SqliteInvalidation>>();

/** Registers `FUNCTION` on `writer` (once) and adds `instance` to those that hear its tags. */
function listen(writer: Database.Database, instance: SqliteInvalidation): void {
  let instances = hearers.get(writer);
  if (!instances) {
    const set = new Set<SqliteInvalidation>();
    writer.function(FUNCTION, (tag: unknown) => {
      const text = String(tag);
      for (const each of set) each.heard(text);
      return null;
    });
    instances = set;
    hearers.set(writer, instances);
  }
  instances.add(instance);
}

/**
 * Invalidation for the SQLite store (one process serves; the `svc` CLI, a backup or a `sqlite3`
 * shell may write the same file). invalidation.ts says what the caches expect.
 *
 * - This process's writes all go through the store's one writer connection: TEMP triggers there
 *   hand the tags of what died to `changed` at once, and the caches stay off (`current()` false)
 *   until the writer's transaction has ended, when the same tags are dropped again. So a lookup
 *   on the reader between the write and its COMMIT (which still sees the old row) keeps nothing,
 *   and none is served from memory after the COMMIT.
 * - Another process's commit moves the writer's `PRAGMA data_version` (the writer's own commits
 *   never do): `beforeRequest`, run for every HTTP request and upgrade before any hook, checks it
 *   and drops everything when it moved. So a key revoked or a session ended by the CLI is refused
 *   from the next request on, as without a cache. The check is a read transaction on the writer,
 *   cheaper than the reads it spares (the rules, an API key, a session and its user;
 *   docs/performance-notes.md).
 * - Jobs and open sockets see another process's writes within MAINTAIN_EVERY_MS (`maintain`).
 * - Several instances may share one writer connection: the tests run two apps on one store
 *   object, as may any embedder. The SQL function is registered once per connection and hands
 *   each tag to every started, unclosed instance on it (`hearers`).
 */
class SqliteInvalidation implements Invalidation {
  private live = false;
  epoch = 0;
  private readonly listeners: Array<(tags: readonly string[] | 'all') => void> = [];
  /** Tags dropped inside the writer's open transaction, dropped again once it ends. */
  private pending: string[] | 'all' | undefined;
  private version: number | undefined;
  private dataVersion: Database.Statement | undefined;
  /** Whether `beforeRequest` checked in this turn of the event loop. */
  private checkedThisTurn = false;
  private readonly nextTurn = () => {
    this.checkedThisTurn = false;
  };

  constructor(
    private readonly writer: Database.Database,
    private readonly log: InvalidationLog,
  ) {}

  current(): boolean {
    if (!this.live) return false;
    if (this.pending !== undefined) {
      if (this.writer.inTransaction) return false;
      const tags = this.pending;
      this.pending = undefined;
      this.changed(tags);
    }
    return true;
  }

  subscribe(listener: (tags: readonly string[] | 'all') => void): void {
    this.listeners.push(listener);
  }

  /**
   * Drops everything if another connection committed since the last check: once per turn of the
   * event loop. Every request a turn serves was read from a socket that the turn's poll reported
   * ready, so it was sent before the poll returned, before the turn's first check: a client that
   * saw another process commit and then sent a request is checked after that commit. Under load a
   * turn serves many requests; the check (a read transaction on the writer) is made for the
   * first.
   */
  beforeRequest(): void {
    if (!this.live || !this.dataVersion || this.checkedThisTurn) return;
    this.checkedThisTurn = true;
    setImmediate(this.nextTurn);
    let version: number;
    try {
      version = this.dataVersion.get() as number;
    } catch (err) {
      this.off(err);
      return;
    }
    if (version !== this.version) {
      this.version = version;
      this.changed('all');
    }
  }

  async barrier(): Promise<void> {
    this.current(); // applies what this process's committed writes killed
  }

  async start(): Promise<void> {
    try {
      listen(this.writer, this);
      for (const [i, body] of TRIGGERS.entries()) this.writer.exec(`CREATE TEMP TRIGGER IF NOT EXISTS svc_invalidate_${i} ${body}`);
      this.dataVersion = this.writer.prepare('PRAGMA data_version').pluck();
      this.version = this.dataVersion.get() as number;
    } catch (err) {
      hearers.get(this.writer)?.delete(this);
      this.log.warn({ err }, 'credential caches are off: cannot install the invalidation triggers');
      return;
    }
    this.live = true;
    this.changed('all');
  }

  async maintain(): Promise<void> {
    this.checkedThisTurn = false;
    this.beforeRequest();
  }

  async close(): Promise<void> {
    this.live = false;
    hearers.get(this.writer)?.delete(this);
  }

  /**
   * A trigger on the writer (through `listen`): the entry dies now, and the caches stay off until
   * the transaction ends.
   */
  heard(tag: string): void {
    if (this.pending !== 'all') {
      this.pending ??= [];
      this.pending.push(tag);
      if (this.pending.length > MAX_PENDING) this.pending = 'all';
    }
    this.changed([tag]);
  }

  private off(err: unknown): void {
    this.live = false;
    this.changed('all');
    this.log.warn({ err }, 'credential caches are off: cannot read PRAGMA data_version');
  }

  private changed(tags: readonly string[] | 'all'): void {
    this.epoch += 1;
    for (const listener of this.listeners) listener(tags);
  }
}

/** Invalidation of the SQLite store whose writer connection is `writer`. */
export function sqliteInvalidation(writer: Database.Database, log: InvalidationLog): Invalidation {
  return new SqliteInvalidation(writer, log);
}
