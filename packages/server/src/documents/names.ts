import { ApiError } from '../errors.ts';

const COLLECTION = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
const RESERVED_COLLECTIONS = new Set(['auth', 'realtime', 'webhooks', 'admin', 'collections', 'openapi.json', 'sync']);
const DOCUMENT_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** Validates a collection name (§1). Reserved names are checked first: "openapi.json" is both. */
/** Why `name` can't be a collection's name (checkCollection's message), or undefined when it can. */
export function collectionNameProblem(name: string): string | undefined {
  try {
    checkCollection(name);
    return undefined;
  } catch (e) {
    if (e instanceof ApiError) return e.message;
    throw e;
  }
}

export function checkCollection(name: string): string {
  if (RESERVED_COLLECTIONS.has(name)) throw new ApiError('reserved_collection_name', `"${name}" is a reserved name`);
  if (!COLLECTION.test(name)) {
    throw new ApiError('invalid_collection_name', `Collection names match ${COLLECTION.source}; got "${name.slice(0, 80)}"`);
  }
  return name;
}

/** A client-chosen document id: 1–128 characters of [A-Za-z0-9_-]. */
export function checkDocumentId(id: unknown): string {
  if (typeof id !== 'string' || !DOCUMENT_ID.test(id)) {
    throw new ApiError('validation_failed', 'id must be 1 to 128 characters of [A-Za-z0-9_-]', [{ path: '/id', message: 'must match [A-Za-z0-9_-]{1,128}' }]);
  }
  return id;
}

/** Whether a path id could name a document at all (else it is a 404 without asking the store). */
export function isDocumentId(id: string): boolean {
  return DOCUMENT_ID.test(id);
}

/** Splits a field path (`author.name`) into validated segments, or undefined when malformed: the query language's own rule. */
export { parseFieldPath } from '@svc/filter';
