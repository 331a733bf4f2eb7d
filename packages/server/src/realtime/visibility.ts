import type { ChangeEvent } from '../changes/events.ts';
import { compileMatcher, resolveRule, type Document, type Matcher, type RuleUser, type Rules } from '../rules/rules.ts';
import { ruleOfCollection } from '../files/access.ts';

/**
 * Who a socket subject to rules watches as (API.md §10): the user its token belongs to, or nobody.
 * A socket of a secret key or an operator has no viewer: it sees every event.
 */
export interface Viewer {
  userId: string | undefined;
}

/**
 * What a batch of events looks like to each socket: the message to send it for one event, or
 * undefined when it may not see it. Built once per batch for every socket of a database, so that
 * the rules are read once and each (rule, user) matcher compiled once, whatever the number of sockets.
 */
export interface EventView {
  message(event: ChangeEvent, viewer: Viewer | undefined): string | undefined;
}

// Every socket of an instance gets the same event object from the feed: each message is serialised once.
const asIs = new WeakMap<ChangeEvent, string>();
const movedOut = new WeakMap<ChangeEvent, string>();

/** Files (§12): their events carry the record as "file" in place of "document". */
const isFile = (e: ChangeEvent) => e.type.startsWith('file.');
const body = (e: ChangeEvent, record: unknown) => (isFile(e) ? { file: record } : { document: record });

/** The §3 message of an event, as it happened. */
function eventMessage(e: ChangeEvent): string {
  let text = asIs.get(e);
  if (text === undefined) {
    text = JSON.stringify({ type: 'event', id: e.id, event: e.type, collection: e.collection, ...body(e, e.document), timestamp: e.timestamp });
    asIs.set(e, text);
  }
  return text;
}

/** An update that moved a document out of what a socket may see: a `document.deleted` of the version it could see. */
function movedOutMessage(e: ChangeEvent): string {
  let text = movedOut.get(e);
  if (text === undefined) {
    const event = isFile(e) ? 'file.deleted' : 'document.deleted';
    text = JSON.stringify({ type: 'event', id: e.id, event, collection: e.collection, ...body(e, e.previous), timestamp: e.timestamp });
    movedOut.set(e, text);
  }
  return text;
}

/** The view of sockets that rules do not apply to: every event as it happened. */
export const FULL_VIEW: EventView = { message: (e) => eventMessage(e) };

/**
 * The message one socket gets for an event, given what it may see: created and deleted documents
 * (a deleted one as it was) when it sees them; an update as is when it sees the new version (it
 * moved in, or stayed), as `document.deleted` of the previous version when only that one was
 * visible (it moved out), not at all when it saw neither.
 */
export function shownMessage(e: ChangeEvent, sees: Matcher): string | undefined {
  if (e.type !== 'document.updated' && e.type !== 'file.updated') return sees(e.document as Document) ? eventMessage(e) : undefined;
  if (sees(e.document as Document)) return eventMessage(e);
  return e.previous !== null && sees(e.previous as Document) ? movedOutMessage(e) : undefined;
}

const everything: Matcher = () => true;
const nothing: Matcher = () => false;

/**
 * The view under a database's rules: each socket sees what the collection's `read` rule lets its
 * user see, `$auth` standing for the user's facts as `userFacts` has them (as of the event: user-facts.ts).
 * Predicates are built lazily and kept for the batch, one per (collection, user).
 */
export class RuleView implements EventView {
  private readonly predicates = new Map<string, Map<string | undefined, Matcher>>();

  /**
   * @param rules the database's rules as stored (undefined: none were ever set, the default applies)
   * @param userFacts the user as rules see it now, or undefined (unknown, deleted or disabled)
   */
  constructor(
    private readonly rules: Rules | undefined,
    private readonly userFacts: (userId: string) => RuleUser | undefined,
  ) {}

  message(e: ChangeEvent, viewer: Viewer | undefined): string | undefined {
    if (!viewer) return eventMessage(e);
    return shownMessage(e, this.predicate(e.collection, viewer.userId));
  }

  private predicate(collection: string, userId: string | undefined): Matcher {
    let byUser = this.predicates.get(collection);
    if (!byUser) this.predicates.set(collection, (byUser = new Map()));
    let sees = byUser.get(userId);
    if (!sees) byUser.set(userId, (sees = this.compile(collection, userId)));
    return sees;
  }

  private compile(collection: string, userId: string | undefined): Matcher {
    const access = resolveRule(ruleOfCollection(this.rules, collection, 'read'), userId === undefined ? undefined : this.userFacts(userId));
    switch (access.kind) {
      case 'all':
        return everything;
      case 'filter':
        try {
          return compileMatcher(access.filter);
        } catch {
          // Stored rules were validated when written: a filter that no longer compiles shows nothing rather than everything.
          return nothing;
        }
      default:
        return nothing; // 'none', or 'session' (no live user): nothing, silently, as a list under the rule would refuse
    }
  }
}
