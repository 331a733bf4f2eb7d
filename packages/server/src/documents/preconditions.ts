import { ApiError } from '../errors.ts';

/**
 * Entity tags of documents (API.md §1.2): a document's version, the id of the event that last
 * created or updated it, sent as the strong tag `"<version>"`.
 *
 * Hand-written rather than a library: the `fresh`/`etag` packages answer conditional GETs of
 * whole responses, not "does this write's precondition hold against the row just locked", and the
 * grammar needed here (RFC 9110 §8.8.3, a list of tags or `*`) is a few lines.
 */

/** `If-Match` as parsed: any existing document (`*`), or the versions its strong tags name (weak tags never match). */
export type IfMatch = { any: true } | { any: false; versions: string[] };

/** The tag of a version, as the ETag header carries it. */
export const etagOf = (version: string): string => `"${version}"`;

/** `W/"…"` or `"…"`, separated by commas and optional whitespace (RFC 9110 entity-tag list). */
const TAG = /\s*(W\/)?"([\x21\x23-\x7e\x80-\xff]*)"\s*(?:,|$)/y;

/** The tags of a header value: undefined when it is not a list of entity tags. */
function tags(value: string): Array<{ weak: boolean; opaque: string }> | undefined {
  const out: Array<{ weak: boolean; opaque: string }> = [];
  TAG.lastIndex = 0;
  while (TAG.lastIndex < value.length) {
    const start = TAG.lastIndex;
    const m = TAG.exec(value);
    if (!m) return value.slice(start).trim() === '' ? out : undefined;
    out.push({ weak: m[1] !== undefined, opaque: m[2] });
  }
  return out.length ? out : undefined;
}

const malformed = (header: string) =>
  new ApiError('validation_failed', `${header} must be * or a list of entity tags such as "42"`, [
    { path: `/headers/${header.toLowerCase()}`, message: 'is not * or a list of entity tags' },
  ]);

/** The `If-Match` of a request (several headers joined as one list); undefined when absent. */
export function parseIfMatch(header: string | string[] | undefined): IfMatch | undefined {
  if (header === undefined) return undefined;
  const value = Array.isArray(header) ? header.join(',') : header;
  if (value.trim() === '*') return { any: true };
  const list = tags(value);
  if (!list) throw malformed('If-Match');
  // Strong comparison: a weak tag never matches (RFC 9110 §13.1.1).
  return { any: false, versions: list.filter((t) => !t.weak).map((t) => t.opaque) };
}

/** A bare version or `*` (a batch operation's `ifMatch`), as a precondition. */
export const ifMatchOf = (value: string): IfMatch => (value === '*' ? { any: true } : { any: false, versions: [value] });

/** Whether a document at `version` satisfies the precondition. */
export const satisfies = (pre: IfMatch, version: string): boolean => pre.any || pre.versions.includes(version);

/** Whether an `If-None-Match` names `version` (weak comparison, RFC 9110 §13.1.2): then GET answers 304. */
export function noneMatchHits(header: string | string[] | undefined, version: string): boolean {
  if (header === undefined) return false;
  const value = Array.isArray(header) ? header.join(',') : header;
  if (value.trim() === '*') return true;
  // A malformed If-None-Match is ignored, as RFC 9110 lets a server do: the GET is answered in full.
  return tags(value)?.some((t) => t.opaque === version) ?? false;
}

/**
 * The 412 of a write whose precondition failed: the current version as the ETag header, and the
 * current document (as the caller may see it) as a top-level `document`.
 */
export function preconditionFailed(version: string, document: unknown, what: string): ApiError {
  const e = new ApiError('precondition_failed', `${what} is at version ${version}, which If-Match does not name`, undefined, { document });
  e.headers = { etag: etagOf(version) };
  return e;
}
