import { LRUCache } from 'lru-cache';
import { ApiError, notFound } from '../errors.ts';
import type { Clock } from '../infra/clock.ts';
import { type Filter, matcher, parseFilter } from '@svc/filter';
import { isObject, type JsonObject } from '../json/merge-patch.ts';
import { parseChecked } from './query.ts';
import {
  authFields,
  authValue,
  defaultsFor,
  defaultsNeedUser,
  resolveDefaults,
  NEVER,
  loadRules,
  resolveRule,
  ruleFor,
  rulesOfSettings,
  settingsText,
  type Matcher,
  type Operation,
  type Rule,
  type RuleAccess,
  type RuleUser,
} from '../rules/rules.ts';
import type { Store } from '../store/store.ts';
import { settingsAndSessionUser } from './rule-user.ts';
import { splitUpdateRule } from '../rules/fields-rule.ts';
import { ruleUserOf } from '../rules/user-row.ts';
import type { Invalidation } from '../infra/invalidation/invalidation.ts';
import type { InvalidatedCache } from '../infra/invalidation/cache.ts';

/**
 * What a public-key request may do with documents (API.md §10), decided once per request from
 * the database's rules as stored now (read from the store, or from a cache whose entries die on
 * every instance with the change: CachedRuleReads), so a change applies at once
 * on every instance. Secret keys and operators never come here.
 */

/** The documents one operation of a public-key request may touch. */
export interface Scope {
  /** The rule's filter, parsed with its `$auth` operands resolved, for the list SQL; undefined: every document. */
  filter?: Filter;
  /** The same predicate in memory, over a document as the API shows it (system fields included). */
  matches: Matcher;
  /** The filter has a clause on the field `id`: only then may a create carry its own id. */
  namesId: boolean;
  /** Create: the fields the entry's `defaults` give this request, added where the body lacks them before `matches` (§10). */
  defaults?: JsonObject;
}

/** The scopes of one request: its operation's, and for update and delete the `read` rule's too. */
export interface Scopes {
  operation: Scope;
  /** Update and delete: what the read rule lets the caller see (a document it hides is 404). */
  read?: Scope;
  /** Update under a `{ "when", "fields" }` rule (§10, third version): the only top-level fields it may change. */
  fields?: string[];
  /** The request's signed-in user, if its session is live (looked up on demand: an Idempotency-Key's caller, §1.2). */
  user(): Promise<RuleUser | undefined>;
  /** The id of the user the rules resolved (a session they needed), whom a list's cursors belong to. */
  userId?: string;
}

const EVERY: Scope = { matches: () => true, namesId: false };
/** `$in: []` is `(1 = 0)` in the list SQL, and the matcher agrees. */
const NOTHING: Scope = { filter: parseFilter({ id: { $in: [] } }), matches: () => false, namesId: false };

/** Whether a filter has a clause on the system field `field`, at its top or inside `$and` / `$or`. */
function namesField(filter: Filter, field: string): boolean {
  if (filter.kind === 'field') return 'system' in filter.field && filter.field.system === field;
  return filter.parts.some((f) => namesField(f, field));
}

/** The scope of a resolved rule (never `session`: the caller resolved the user first). */
function scopeOf(access: RuleAccess): Scope {
  if (access.kind === 'all') return EVERY;
  if (access.kind !== 'filter') return NOTHING;
  try {
    const filter = parseChecked(access.filter);
    return { filter, matches: matcher(filter), namesId: namesField(filter, 'id') };
  } catch {
    // Stored rules were validated when written: a filter that no longer parses lets nothing through rather than everything.
    return NOTHING;
  }
}

/** Per filter rule: the `$auth` fields it names, and its scopes by the values they take for a user. */
interface CompiledRule {
  fields: unknown[];
  scopes: LRUCache<string, Scope>;
}
/** Rules are parsed once per settings text and shared (rules/rules.ts rulesOfSettings): a changed rule is a new object. */
const compiled = new WeakMap<object, CompiledRule>();
/** Scopes kept per rule, the least recently used forgotten first (one per distinct user of a `$auth` rule). */
const MAX_SCOPES_PER_RULE = 10_000;
/** Stands for NEVER in a key: JSON gives no scalar this text. */
const NEVER_KEY = {};

/**
 * The scope of a rule for a user, compiled once per rule and per the values of its `$auth`
 * operands: compiling (parsing and checking the filter, then the matcher) was
 * most of what deciding a public-key insert under an owner rule cost (node --cpu-prof;
 * docs/performance-notes.md). The resolved filter depends on nothing else, so the same key is the same scope.
 */
function scopeFor(rule: Rule, user: RuleUser | undefined): Scope {
  if (!user || !isObject(rule)) return scopeOf(resolveRule(rule, user));
  let entry = compiled.get(rule);
  if (!entry) compiled.set(rule, (entry = { fields: authFields(rule), scopes: new LRUCache({ max: MAX_SCOPES_PER_RULE }) }));
  const key = JSON.stringify(
    entry.fields.map((field) => {
      const v = authValue(user, field);
      return v === NEVER ? NEVER_KEY : v;
    }),
  );
  let scope = entry.scopes.get(key);
  if (!scope) {
    scope = scopeOf(resolveRule(rule, user));
    entry.scopes.set(key, scope);
  }
  return scope;
}

const refused = (collection: string, operation: Operation): ApiError =>
  operation === 'read'
    ? new ApiError('forbidden', `The rules of collection '${collection}' do not let a public key read it`)
    : new ApiError('read_only_key', `The rules of collection '${collection}' do not let a public key ${operation} documents; use a secret key`);

const noSession = () =>
  new ApiError('invalid_session', 'The rules of this collection need a signed-in user: send a live X-Session-Token of a user of this database');

/**
 * Where a database's rules and a session's user may come from memory: caches whose entries die,
 * on every instance, with the invalidations the store announces for a changed setting or an
 * ended session or changed user (PostgreSQL: migrations 7 and 11; SQLite: infra/invalidation/sqlite.ts).
 */
export interface CachedRuleReads {
  invalidation: Invalidation;
  /** A database's settings (JSON text), under `database:<id>`. */
  settings: InvalidatedCache<string>;
  /** The user of a live session of the database (auth/sessions.ts `userOf`, itself cached), or undefined. */
  sessionUser(databaseId: string, token: string): Promise<object | undefined>;
}

/** A database's settings text, and (on demand) the request's signed-in user. */
interface RuleReads {
  settings: string;
  user(): Promise<RuleUser | undefined>;
}

/** The rules of documents for public-key requests: what §10's table answers before any document is read. */
export class DocumentRules {
  constructor(private readonly deps: { store: Store; clock: Clock; cached?: CachedRuleReads }) {}

  /**
   * The rules and the user of one request. From memory when the caches are live (no read for a
   * public-key request whose database and session were seen lately), else in one query
   * (settings and session together). Undefined: the database does not exist.
   */
  private async reads(databaseId: string, sessionToken: string | undefined): Promise<RuleReads | undefined> {
    const { store, clock, cached } = this.deps;
    if (cached?.invalidation.current()) {
      const settings = await cached.settings.get(`database:${databaseId}`, clock.now(), async () => {
        const value = await settingsText(store, databaseId);
        return value === undefined ? undefined : { value };
      });
      if (settings === undefined) return undefined;
      return {
        settings,
        user: async () => {
          const row = sessionToken ? await cached.sessionUser(databaseId, sessionToken) : undefined;
          return row && ruleUserOf(row);
        },
      };
    }
    const read = await settingsAndSessionUser(store, clock, databaseId, sessionToken);
    return read && { settings: read.settings, user: async () => read.user };
  }

  /**
   * The scopes of one public-key request. Throws 403 `read_only_key` (a write whose rule is false
   * or absent), 403 `forbidden` (a read whose rule is false or absent), 401 `invalid_session` (a
   * `"signedIn"` or filter rule, the operation's or, for update and delete, the read rule's, with
   * no live session). The session is looked up only when a rule needs it.
   */
  async scopes(databaseId: string, collection: string, operation: Operation, sessionToken: string | undefined): Promise<Scopes> {
    const read = await this.reads(databaseId, sessionToken);
    if (!read) throw notFound(`Database '${databaseId}' not found`);
    const rules = rulesOfSettings(read.settings);
    const { rule, fields } = splitUpdateRule(ruleFor(rules, collection, operation));
    const readRule = operation === 'update' || operation === 'delete' ? ruleFor(rules, collection, 'read') : undefined;
    const anonymous = resolveRule(rule, undefined);
    if (anonymous.kind === 'none') throw refused(collection, operation);
    let user: RuleUser | undefined;
    if (anonymous.kind === 'session' || (readRule !== undefined && needsUser(readRule))) {
      user = await read.user();
      if (!user) throw noSession();
    }
    const scope = scopeFor(rule, user);
    const defaults = operation === 'create' ? defaultsFor(rules, collection) : undefined;
    // A `$auth` default under a rule that needs no session: the user if one is signed in, else the field is left out.
    if (defaults && !user && sessionToken && defaultsNeedUser(defaults)) user = await read.user();
    return {
      operation: defaults ? { ...scope, defaults: resolveDefaults(defaults, user) } : scope,
      read: readRule === undefined ? undefined : scopeFor(readRule, user),
      fields,
      user: user ? async () => user : read.user,
      userId: user?.id,
    };
  }

  /** The signed-in user of a public-key request's session, if live (an Idempotency-Key's caller, §1.2). */
  async sessionUser(databaseId: string, sessionToken: string): Promise<RuleUser | undefined> {
    return (await this.reads(databaseId, sessionToken))?.user();
  }

  /** `GET /collections` with a public key: the collections whose read rule is `true` (§10). */
  async readableCollections(databaseId: string): Promise<(collection: string) => boolean> {
    const rules = await loadRules(this.deps.store, databaseId);
    return (collection) => ruleFor(rules, collection, 'read') === true;
  }
}

const needsUser = (rule: Rule) => resolveRule(rule, undefined).kind === 'session';
