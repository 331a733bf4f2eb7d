import { ApiError } from '../errors.ts';
import type { JsonObject } from '../json/merge-patch.ts';
import { compileMatcher, type Matcher, resolveRule, ruleFor, rulesOfSettings, type Operation, type Rule, type RuleUser, type Rules } from '../rules/rules.ts';
import type { FileRecord } from './record.ts';

/**
 * What a public key may do with files (API.md §12 "Access"): §10's rules, written under
 * `"files/<bucket>"`, else `"files/*"`; `"*"` never covers buckets, and with neither a public key
 * may do nothing with files. A secret key or an operator is never asked (undefined scope).
 */
export interface FileScope {
  /** The rule's filter for the list SQL (`$auth` replaced); undefined: every file. */
  filter?: JsonObject;
  matches: (file: FileRecord) => boolean;
}

const EVERY: FileScope = { matches: () => true };

/** The rule of one operation on a bucket. */
function fileRule(rules: Rules | undefined, bucket: string, operation: Operation): Rule {
  const all = rules ?? {};
  const own = `files/${bucket}`;
  const entry = Object.hasOwn(all, own) ? all[own] : Object.hasOwn(all, 'files/*') ? all['files/*'] : undefined;
  return entry && Object.hasOwn(entry, operation) ? (entry[operation] as Rule) : false;
}

/** The rule of an operation on a change-log collection: a bucket's (`files/<bucket>`) or a document collection's. */
export function ruleOfCollection(rules: Rules | undefined, collection: string, operation: Operation): Rule {
  return collection.startsWith('files/') ? fileRule(rules, collection.slice('files/'.length), operation) : ruleFor(rules, collection, operation);
}

/**
 * The files a public-key request may touch with `operation`, or the refusal §10 gives: a rule
 * `false` or absent → 403 `read_only_key` for writes, `forbidden` for reads; `"signedIn"` or a
 * filter with no valid session → 401 `invalid_session`.
 */
export function fileScope(settingsText: string, user: RuleUser | undefined, bucket: string, operation: Operation): FileScope {
  const access = resolveRule(fileRule(rulesOfSettings(settingsText), bucket, operation), user);
  if (access.kind === 'all') return EVERY;
  if (access.kind === 'session') throw new ApiError('invalid_session', 'This bucket needs a signed-in user: send a valid X-Session-Token');
  if (access.kind === 'none') {
    if (operation === 'read') throw new ApiError('forbidden', `The rules do not let a public key read the bucket '${bucket}'`);
    throw new ApiError('read_only_key', `The rules do not let a public key ${operation === 'create' ? 'upload to' : `${operation}`} the bucket '${bucket}'`);
  }
  let matcher: Matcher;
  try {
    matcher = compileMatcher(access.filter);
  } catch {
    // Stored rules were validated when written: one that no longer compiles lets nothing through.
    return { filter: { id: { $in: [] } }, matches: () => false };
  }
  return { filter: access.filter, matches: (file) => matcher(file as unknown as JsonObject) };
}

/** Whether the `read` rule of a bucket is `true` (GET /buckets with a public key lists only those). */
export function bucketReadable(settingsText: string, bucket: string): boolean {
  return fileRule(rulesOfSettings(settingsText), bucket, 'read') === true;
}
