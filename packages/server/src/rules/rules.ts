import { LRUCache } from 'lru-cache';
import { notFound } from '../errors.ts';
import { updateDatabase } from '../databases/databases.ts';
import type { Settings } from '../databases/settings.ts';
import type { Queryable, Store } from '../store/store.ts';
import type { Feature } from '../feature.ts';
import type { Clock } from '../infra/clock.ts';
import { DEFAULT_RULES } from './resolve.ts';
import { validateRules } from './validate.ts';
import { rulesRoutes } from './routes.ts';
import type { Rules } from './types.ts';

export type { Operation, Rule, Rules, RuleUser } from './types.ts';
export { ruleFor, defaultsFor, resolveRule, authValue, DEFAULT_RULES, type RuleAccess } from './resolve.ts';
export { authFields, NEVER } from './auth-operands.ts';
export { compileMatcher, type Matcher, type Document } from './matcher.ts';
export { validateRules } from './validate.ts';
export { resolveDefaults, defaultsNeedUser, withDefaults } from './defaults.ts';

/**
 * A database's rules as stored, or undefined when none were ever set (then ruleFor applies
 * DEFAULT_RULES). Read from the settings row on every call (documents/rule-access.ts may cache the
 * settings, invalidated by the store). Pass `q` to read inside the transaction that checks and writes (§10).
 */
export async function loadRules(store: Store, databaseId: string, q: Queryable = store): Promise<Rules | undefined> {
  const settings = await settingsText(store, databaseId, q);
  if (settings === undefined) throw notFound(`Database '${databaseId}' not found`);
  return rulesOfSettings(settings);
}

/** A database's settings as stored (JSON text), or undefined when there is no such database. */
export async function settingsText(store: Store, databaseId: string, q: Queryable = store): Promise<string | undefined> {
  return (await q.get<{ settings: string }>(`SELECT ${store.dialect.jsonText('settings')} AS settings FROM databases WHERE id = ?`, [databaseId]))?.settings;
}

/** The rules of the settings texts used last (MAX_PARSED): rules are read on every public-key request. */
const MAX_PARSED = 1000;
const parsed = new LRUCache<string, { rules: Rules | undefined }>({ max: MAX_PARSED });

/**
 * The rules in a database's settings, as stored (JSON text of the `settings` column). Parsed once
 * per distinct text: the text is the key, so a changed setting is a new entry, never a stale one.
 * The result is shared between requests and must not be changed (resolveRule builds new objects).
 */
export function rulesOfSettings(settingsText: string): Rules | undefined {
  let entry = parsed.get(settingsText);
  if (!entry) {
    const { rules } = JSON.parse(settingsText) as Settings;
    entry = { rules: rules === undefined ? undefined : (JSON.parse(rules) as Rules) };
    parsed.set(settingsText, entry);
  }
  return entry.rules;
}

/** The rules GET /rules shows: as last written, or DEFAULT_RULES when none were ever set. */
export async function readRules(store: Store, databaseId: string): Promise<Rules> {
  return (await loadRules(store, databaseId)) ?? DEFAULT_RULES;
}

/**
 * Validates and stores a database's rules, replacing the old ones whole; returns them as GET will.
 * `at` is the pointer that error details start from (`/rules` for PUT /rules' body, `` for a file).
 */
export async function saveRules(store: Store, clock: Clock, databaseId: string, rules: unknown, at = '/rules'): Promise<Rules> {
  validateRules(rules, at);
  const database = await updateDatabase(store, clock, databaseId, { settings: { rules } });
  return (database.settings as { rules?: Rules }).rules ?? DEFAULT_RULES;
}

/** The rules feature: GET and PUT /v1/rules (the other features ask loadRules, ruleFor, resolveRule). */
export function createRules(deps: { store: Store; clock: Clock }): Feature {
  const { store, clock } = deps;
  return { routes: (app) => rulesRoutes(app, { read: (id) => readRules(store, id), save: (id, rules) => saveRules(store, clock, id, rules) }) };
}
