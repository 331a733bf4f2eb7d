import type { ChangeEvent } from '../changes/events.ts';
import { ApiError } from '../errors.ts';
import { isObject } from '../json/merge-patch.ts';
import { loadRules, type Rules } from '../rules/rules.ts';
import { ruleOfCollection } from '../files/access.ts';
import type { Store } from '../store/store.ts';
import type { UserFacts } from './user-facts.ts';
import { FULL_VIEW, RuleView, type EventView } from './visibility.ts';

/**
 * Builds the view of a batch of events (visibility.ts) for the sockets of one database, live and
 * in replays alike: the one place that decides what rules a fan-out uses.
 *
 * - With no socket subject to rules, no query: every event as it happened (returned synchronously,
 *   so a database without public-key sockets fans out exactly as before rules existed).
 * - Otherwise the rules are read once for the batch, never cached: a rule change applies to the
 *   next event fanned out, on every instance. Batches queue while one is read, so under load one
 *   read serves many events.
 * - When a collection of the batch has a filter `read` rule, the held users whose facts may have
 *   changed (an invalidation named them) are read again, all in one query (user-facts.ts);
 *   `"signedIn"`, `true` and `false` need none.
 */
export class ViewSource {
  constructor(
    private readonly store: Store,
    private readonly facts: UserFacts,
  ) {}

  /** The view of `events` of a database; `ruled`: some socket that will be shown them is subject to rules. */
  viewOf(databaseId: string, events: ChangeEvent[], ruled: boolean): EventView | Promise<EventView> {
    return ruled ? this.ruleView(databaseId, events) : FULL_VIEW;
  }

  private async ruleView(databaseId: string, events: ChangeEvent[]): Promise<EventView> {
    const rules = await this.rulesOf(databaseId);
    const collections = new Set(events.map((e) => e.collection));
    if ([...collections].some((c) => isObject(ruleOfCollection(rules, c, 'read')))) await this.facts.refresh(databaseId);
    return new RuleView(rules, (userId) => this.facts.get(databaseId, userId));
  }

  /** A database deleted meanwhile shows nothing (its tokens went with it: the grant check closes the sockets). */
  private async rulesOf(databaseId: string): Promise<Rules | undefined> {
    try {
      return await loadRules(this.store, databaseId);
    } catch (e) {
      if (e instanceof ApiError && e.code === 'not_found') return {};
      throw e;
    }
  }
}
