import { performance } from 'node:perf_hooks';
import type { RuleUser } from '../rules/rules.ts';
import { ruleUserOf } from '../rules/user-row.ts';
import type { Store } from '../store/store.ts';
import { CACHE_TTL_MS } from '../infra/invalidation/cache.ts';
import type { Invalidation } from '../infra/invalidation/invalidation.ts';

/**
 * The longest a held user's facts are kept without a read, even if no invalidation named them:
 * the bound on staleness should the invalidation listener fail in a way nobody notices (the
 * credential caches' bound, infra/invalidation/cache.ts).
 */
export const USER_FACTS_MAX_AGE_MS = CACHE_TTL_MS;

/** Users per query of a refresh. */
const REFRESH_BATCH = 1000;

interface Entry {
  /** Sockets of this instance that watch as this user. */
  holders: number;
  /** The user as rules see it; undefined when unknown, deleted or disabled. */
  facts: RuleUser | undefined;
  /** performance.now() when the read that gave `facts` began; -Infinity before the first read and once invalidated. */
  readAt: number;
  /** Grows with every invalidation of the user: a read during which it grew keeps `readAt` at -Infinity. */
  version: number;
}

/**
 * The facts about the users that realtime sockets on this instance watch as (API.md §10 `$auth`:
 * id, e-mail, emailVerified, appMetadata), per database. A user is held for as long as a socket
 * of theirs is open, so reading the facts while fanning out needs no query per event: a write
 * fanned out to thousands of sockets of hundreds of users reads nobody again.
 *
 * §10: `$auth` values are those of the user at the time of the event. The facts are therefore
 * kept only as the credential caches are, through the invalidation channel
 * (infra/invalidation): every write to a user row (the API, the CLI, SQL by hand) names
 * `user:<id>`, and the entry is read again before the next batch that needs it. A route that
 * changes a user answers only after every instance applied the invalidation (its barrier), so an
 * event written after that answer is shown with the new facts, on every instance. While the
 * invalidation cannot be trusted (`current()` false: its listener is down, or this process's own
 * write is not committed yet) every batch reads its held users again. (Before: facts up to a
 * second old were used, and a user removed from a team still received the team's new documents.)
 * Ages are measured on the monotonic clock: they are about how fresh a copy is, not about the
 * API's notion of time.
 */
export class UserFacts {
  private readonly byDatabase = new Map<string, Map<string, Entry>>();
  private readonly refreshing = new Map<string, Promise<void>>();

  constructor(
    private readonly store: Store,
    private readonly invalidation: Invalidation,
  ) {
    invalidation.subscribe((tags) => {
      if (tags === 'all') {
        for (const users of this.byDatabase.values()) for (const e of users.values()) invalidate(e);
        return;
      }
      for (const tag of tags) {
        if (!tag.startsWith('user:')) continue;
        const id = tag.slice('user:'.length);
        for (const users of this.byDatabase.values()) {
          const e = users.get(id);
          if (e) invalidate(e);
        }
      }
    });
  }

  /**
   * Holds a user for one socket and makes sure their facts are known; resolves with the function
   * that lets go of them (call it when the socket closes). Rejects when the store fails.
   */
  async hold(databaseId: string, userId: string): Promise<() => void> {
    let users = this.byDatabase.get(databaseId);
    if (!users) this.byDatabase.set(databaseId, (users = new Map()));
    let entry = users.get(userId);
    if (!entry) users.set(userId, (entry = { holders: 0, facts: undefined, readAt: -Infinity, version: 0 }));
    entry.holders += 1;
    const e = entry;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      e.holders -= 1;
      const now = this.byDatabase.get(databaseId);
      if (e.holders === 0 && now?.get(userId) === e) {
        now.delete(userId);
        if (now.size === 0) this.byDatabase.delete(databaseId);
      }
    };
    try {
      await this.refresh(databaseId);
    } catch (err) {
      release();
      throw err;
    }
    return release;
  }

  /** The facts of a held user, as last read (undefined: unknown, deleted, disabled, or not held). */
  get(databaseId: string, userId: string): RuleUser | undefined {
    return this.byDatabase.get(databaseId)?.get(userId)?.facts;
  }

  /**
   * Reads again, in one query per thousand, the held users of a database whose facts may be out of
   * date: those invalidated (or older than USER_FACTS_MAX_AGE_MS), or all of them while the
   * invalidation cannot be trusted. Users invalidated during the read are read once more.
   */
  async refresh(databaseId: string): Promise<void> {
    let reads = 0;
    for (;;) {
      const running = this.refreshing.get(databaseId);
      if (running) {
        // One read at a time per database; a user held or invalidated after it began is read by the next one.
        await running;
        continue;
      }
      // Also applies the invalidations of this process's own writes once they committed (SQLite).
      const trusted = this.invalidation.current();
      const users = this.byDatabase.get(databaseId);
      const oldest = trusted ? performance.now() - USER_FACTS_MAX_AGE_MS : Infinity;
      const stale = users ? [...users].filter(([, e]) => e.readAt < oldest) : [];
      if (stale.length === 0 || reads === (trusted ? 2 : 1)) return;
      reads += 1;
      const read = this.read(databaseId, stale).finally(() => this.refreshing.delete(databaseId));
      this.refreshing.set(databaseId, read);
      await read;
    }
  }

  private async read(databaseId: string, stale: Array<[string, Entry]>): Promise<void> {
    for (let i = 0; i < stale.length; i += REFRESH_BATCH) {
      const batch = stale.slice(i, i + REFRESH_BATCH);
      const versions = batch.map(([, e]) => e.version);
      const startedAt = performance.now();
      // `*`: the columns rules read may grow (app_metadata, disabled); what a row lacks counts as missing.
      const rows = await this.store.all<Record<string, unknown>>(`SELECT * FROM users WHERE database_id = ? AND id IN ${this.store.dialect.json.textList()}`, [
        databaseId,
        JSON.stringify(batch.map(([id]) => id)),
      ]);
      const found = new Map(rows.map((r) => [String(r.id), r]));
      for (const [n, [id, entry]] of batch.entries()) {
        const row = found.get(id);
        entry.facts = row === undefined ? undefined : ruleUserOf(row);
        // Invalidated while reading: the row may predate the change, so it is read again next time.
        if (entry.version === versions[n]) entry.readAt = startedAt;
      }
    }
  }
}

function invalidate(e: Entry): void {
  e.version += 1;
  e.readAt = -Infinity;
}
