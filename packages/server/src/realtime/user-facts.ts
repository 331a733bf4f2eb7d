import { performance } from 'node:perf_hooks';
import type { RuleUser } from '../rules/rules.ts';
import { ruleUserOf } from '../rules/user-row.ts';
import type { Store } from '../store/store.ts';
import { jsonListSelect } from './tokens.ts';

/**
 * How old the facts about a user (what `$auth` stands for) may be when an event is shown to a
 * socket: §10 lets a change take up to a second to reach the other instances, and this cache is
 * what keeps a write fanned out to thousands of sockets of hundreds of users from reading every
 * user again for every event.
 */
export const USER_FACTS_MAX_AGE_MS = 1000;

/** Users per query of a refresh. */
const REFRESH_BATCH = 1000;

interface Entry {
  /** Sockets of this instance that watch as this user. */
  holders: number;
  /** The user as rules see it; undefined when unknown, deleted or disabled. */
  facts: RuleUser | undefined;
  /** performance.now() when the read that gave `facts` began; -Infinity before the first read. */
  readAt: number;
}

/**
 * The facts about the users that realtime sockets on this instance watch as (API.md §10 `$auth`:
 * id, e-mail, emailVerified, appMetadata), per database, at most USER_FACTS_MAX_AGE_MS old when
 * refreshed. A user is held for as long as a socket of theirs is open, so reading the facts while
 * fanning out needs no query. Ages are measured on the monotonic clock: they are about how fresh
 * a copy is, not about the API's notion of time.
 */
export class UserFacts {
  private readonly byDatabase = new Map<string, Map<string, Entry>>();
  private readonly refreshing = new Map<string, Promise<void>>();

  constructor(private readonly store: Store) {}

  /**
   * Holds a user for one socket and makes sure their facts are known; resolves with the function
   * that lets go of them (call it when the socket closes). Rejects when the store fails.
   */
  async hold(databaseId: string, userId: string): Promise<() => void> {
    let users = this.byDatabase.get(databaseId);
    if (!users) this.byDatabase.set(databaseId, (users = new Map()));
    let entry = users.get(userId);
    if (!entry) users.set(userId, (entry = { holders: 0, facts: undefined, readAt: -Infinity }));
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

  /** Reads again, in one query per thousand, the held users of a database whose facts are too old. */
  async refresh(databaseId: string): Promise<void> {
    for (;;) {
      const running = this.refreshing.get(databaseId);
      if (running) {
        // One read at a time per database; a user held after it began is read by the next one.
        await running;
        continue;
      }
      const users = this.byDatabase.get(databaseId);
      const oldest = performance.now() - USER_FACTS_MAX_AGE_MS;
      const stale = users ? [...users].filter(([, e]) => e.readAt < oldest) : [];
      if (stale.length === 0) return;
      const read = this.read(databaseId, stale).finally(() => this.refreshing.delete(databaseId));
      this.refreshing.set(databaseId, read);
      await read;
      return;
    }
  }

  private async read(databaseId: string, stale: Array<[string, Entry]>): Promise<void> {
    for (let i = 0; i < stale.length; i += REFRESH_BATCH) {
      const batch = stale.slice(i, i + REFRESH_BATCH);
      const startedAt = performance.now();
      // `*`: the columns rules read may grow (app_metadata, disabled); what a row lacks counts as missing.
      const rows = await this.store.all<Record<string, unknown>>(`SELECT * FROM users WHERE database_id = ? AND id IN (${jsonListSelect(this.store)})`, [
        databaseId,
        JSON.stringify(batch.map(([id]) => id)),
      ]);
      const found = new Map(rows.map((r) => [String(r.id), r]));
      for (const [id, entry] of batch) {
        const row = found.get(id);
        entry.facts = row === undefined ? undefined : ruleUserOf(row);
        entry.readAt = startedAt;
      }
    }
  }
}
