/**
 * A database's access rules (API.md §10) in plain words: for one collection, who may read, create,
 * update and delete its documents with the public key. Pure, so it is unit-tested without a browser.
 *
 * It reads the rules as typed, before the server has checked them: what it can't understand it says
 * so ("not a valid rule") instead of guessing, and the server's `invalid_rules` details say why.
 */

/** The four operations a collection's entry may hold, in the order they are shown. */
export const OPERATIONS = ['read', 'create', 'update', 'delete'] as const;
export type Operation = (typeof OPERATIONS)[number];

const LABEL: Record<Operation, string> = { read: 'Read', create: 'Create', update: 'Update', delete: 'Delete' };

/** The entry that stands for every collection without one of its own. */
export const ANY_COLLECTION = '*';

/** One operation in words: `Read: anyone with the public key`. */
export interface RuleLine {
  operation: Operation;
  /** `Read`, `Create`, … */
  label: string;
  /** Who may do it, and on which documents. */
  who: string;
}

/** What the rules mean for one collection, or why they can't be read. */
export type RulesSummary =
  | { ok: true /** Which entry applies, in words. */; source: string; lines: RuleLine[] /** The entry's `defaults` in words, if any. */; defaults?: string }
  | { ok: false; error: string };

const NOBODY = 'nobody with the public key (secret key only)';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const has = (o: object, k: string) => Object.hasOwn(o, k);

/** How a database that never had rules behaves (API.md §10): public keys read everything, write nothing. */
export const DEFAULT_RULES = { [ANY_COLLECTION]: { read: true } };

/**
 * The entry that applies to `collection` and where it comes from: its own entry replaces `"*"` whole
 * (operations never fall back one by one). Written rules are taken as they are: `{}` lets public
 * keys do nothing, as the server does; only rules never written (undefined) are DEFAULT_RULES.
 */
export function entryFor(rules: Record<string, unknown>, collection: string): { entry: unknown; source: string } {
  if (collection !== ANY_COLLECTION && has(rules, collection)) {
    return { entry: rules[collection], source: `From the entry for “${collection}”.` };
  }
  const which = collection === ANY_COLLECTION ? 'Collections without an entry of their own' : `“${collection}” has no entry of its own`;
  if (has(rules, ANY_COLLECTION)) return { entry: rules[ANY_COLLECTION], source: `${which}: the “*” entry applies.` };
  return { entry: {}, source: `${which}, and there is no “*” entry: public keys can do nothing there.` };
}

/** Who may do what with `collection`'s documents under `rules` (the object `PUT /v1/rules` takes). */
export function summarize(rules: unknown, collection: string): RulesSummary {
  if (rules === undefined) {
    const s = summarize(DEFAULT_RULES, collection);
    return s.ok ? { ...s, source: 'No rules were ever set, so the default applies: public keys read everything and write nothing.' } : s;
  }
  if (!isObject(rules)) return { ok: false, error: 'The rules must be a JSON object keyed by collection name, like {"posts": {"read": true}}.' };
  const { entry, source } = entryFor(rules, collection);
  if (!isObject(entry)) return { ok: false, error: `The entry that applies is not an object of operations ({"read": …, "create": …}).` };
  const lines = OPERATIONS.map((operation) => ({
    operation,
    label: LABEL[operation],
    who: describeRule(has(entry, operation) ? entry[operation] : undefined),
  }));
  if (!has(entry, 'defaults')) return { ok: true, source, lines };
  return { ok: true, source, lines, defaults: describeDefaults(entry.defaults) };
}

/**
 * An entry's `defaults` (fields a public-key create fills in when it lacks them) in words:
 * `A create fills in: owner = their user id, done = false`.
 */
export function describeDefaults(defaults: unknown): string {
  const fields = isObject(defaults) ? Object.entries(defaults) : [];
  const parts = fields.map(([field, value]) => {
    const v = isAuth(value) ? describeAuth(value.$auth) : JSON.stringify(value);
    return v === undefined ? undefined : `${field} = ${v}`;
  });
  if (!fields.length || parts.some((p) => p === undefined)) return 'Defaults: not valid (the server will refuse them)';
  return `A create with the public key fills in, when it lacks them: ${parts.join(', ')}`;
}

/** One operation's rule in words: `true`, `false` or absent, `"signedIn"`, or a filter. */
export function describeRule(rule: unknown): string {
  if (rule === true) return 'anyone with the public key';
  if (rule === false || rule === undefined) return NOBODY;
  if (rule === 'signedIn') return 'signed-in users';
  if (isObject(rule) && Object.keys(rule).length > 0) {
    const condition = describeFilter(rule);
    if (condition !== undefined) return `signed-in users, when ${condition}`;
  }
  return 'not a valid rule (the server will refuse it; nobody until it is fixed)';
}

const COMPARISONS: Record<string, string> = {
  $eq: 'equals',
  $ne: 'does not equal',
  $gt: 'is greater than',
  $gte: 'is at least',
  $lt: 'is less than',
  $lte: 'is at most',
  $prefix: 'starts with',
  $icontains: 'contains (in any case)',
};
const LISTS: Record<string, string> = { $in: 'is one of', $nin: 'is none of', $all: 'contains all of' };

/** A filter (§1, §1.1, with `$auth` operands) in words, or undefined when it is not one. */
export function describeFilter(filter: Record<string, unknown>): string | undefined {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(filter)) {
    let part: string | undefined;
    if (key === '$and' || key === '$or') part = describeGroup(key, value);
    else if (key.startsWith('$')) part = undefined;
    else part = describeField(key, value);
    if (part === undefined) return undefined;
    parts.push(part);
  }
  return parts.length ? parts.join(' and ') : undefined;
}

function describeGroup(op: '$and' | '$or', list: unknown): string | undefined {
  if (!Array.isArray(list) || list.length === 0) return undefined;
  const parts = list.map((f) => (isObject(f) ? describeFilter(f) : undefined));
  if (parts.some((p) => p === undefined)) return undefined;
  const words = parts.length === 1 ? parts[0]! : parts.map((p) => `(${p})`).join(op === '$and' ? ' and ' : ' or ');
  return parts.length === 1 || op === '$and' ? words : `either ${words}`;
}

/** `field: value` or `field: {operators}`. */
function describeField(field: string, condition: unknown): string | undefined {
  if (isObject(condition) && !isAuth(condition)) {
    const ops = Object.entries(condition);
    if (ops.length === 0) return undefined;
    const parts = ops.map(([op, operand]) => describeOperator(field, op, operand));
    return parts.some((p) => p === undefined) ? undefined : parts.join(' and ');
  }
  return describeOperator(field, '$eq', condition);
}

function describeOperator(field: string, op: string, operand: unknown): string | undefined {
  if (op in COMPARISONS) {
    if (op === '$eq' && operand === null) return `${field} is missing or empty (null)`;
    if (op === '$ne' && operand === null) return `${field} is set (not null)`;
    const v = describeOperand(operand);
    return v === undefined ? undefined : `${field} ${COMPARISONS[op]} ${v}`;
  }
  if (op in LISTS) {
    if (!Array.isArray(operand)) return undefined;
    const vs = operand.map(describeOperand);
    if (vs.some((v) => v === undefined)) return undefined;
    return `${field} ${LISTS[op]} ${vs.length ? vs.join(', ') : 'nothing'}`;
  }
  if (op === '$exists' && typeof operand === 'boolean') return operand ? `${field} is present` : `${field} is missing`;
  if (op === '$size' && Number.isInteger(operand) && (operand as number) >= 0) return `${field} has exactly ${operand} element${operand === 1 ? '' : 's'}`;
  if (op === '$elemMatch' && isObject(operand)) {
    const onElement = Object.keys(operand).every((k) => k.startsWith('$') && k !== '$and' && k !== '$or');
    const inner = onElement ? describeField('the element', operand) : describeFilter(operand);
    return inner === undefined ? undefined : `${field} has an element where ${inner}`;
  }
  return undefined;
}

const isAuth = (v: unknown): v is { $auth: unknown } => isObject(v) && Object.keys(v).length === 1 && has(v, '$auth');

/** A scalar in JSON, or a `$auth` operand as what it stands for. */
function describeOperand(v: unknown): string | undefined {
  if (isAuth(v)) return describeAuth(v.$auth);
  if (v === null || typeof v === 'number' || typeof v === 'boolean' || typeof v === 'string') return JSON.stringify(v);
  return undefined;
}

function describeAuth(field: unknown): string | undefined {
  if (field === 'id') return 'their user id';
  if (field === 'email') return 'their e-mail (once verified)';
  if (field === 'emailVerified') return 'whether their e-mail is verified';
  if (typeof field === 'string' && /^appMetadata\.[^.]+(\.[^.]+)*$/.test(field)) return `their ${field}`;
  return undefined;
}
