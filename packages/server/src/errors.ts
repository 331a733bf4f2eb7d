import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { teachingDetails, type AjvError } from './http/validation-errors.ts';
import { CommitOutcomeUnknown, STORE_RETRY_AFTER_SECONDS, StoreUnavailable } from './store/errors.ts';

/** The catalogue of stable error codes (API.md §0), with the HTTP status each one maps to. */
export const ERROR_STATUS = {
  invalid_json: 400,
  validation_failed: 400,
  invalid_collection_name: 400,
  reserved_collection_name: 400,
  invalid_field_name: 400,
  invalid_filter: 400,
  redirect_url_not_allowed: 400,
  invalid_current_password: 400,
  weak_password: 400,
  url_not_allowed: 400,
  invalid_rules: 400,
  invalid_cursor: 400,
  missing_api_key: 401,
  invalid_api_key: 401,
  invalid_session: 401,
  invalid_credentials: 401,
  invalid_token: 401,
  invalid_mfa_code: 401,
  read_only_key: 403,
  forbidden: 403,
  email_not_verified: 403,
  signup_disabled: 403,
  reauthentication_required: 403,
  not_found: 404,
  conflict: 409,
  // Safe writes (API.md §1.2, third version).
  invalid_update: 400,
  precondition_failed: 412,
  idempotency_key_reused: 422,
  payload_too_large: 413,
  // Third version (§12 files; precondition_failed above is theirs too).
  quota_exceeded: 413,
  range_not_satisfiable: 416,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
  commit_unknown: 503,
  // A method the path does not take (PUT on a document): the answer's Allow header names those it does.
  method_not_allowed: 405,
  // The HTTP layer's own refusals (API.md §0: every error has the shape, these included).
  bad_request: 400,
  request_timeout: 408,
  headers_too_large: 431,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** One `{path, message}` item of a `validation_failed` error. */
export interface ErrorDetail {
  path: string;
  message: string;
}

/**
 * The one error type of the service: thrown anywhere, turned into the §0 shape in one place.
 * `status` overrides the catalogue's only where API.md pins another one for a code (the OAuth
 * callback's unknown `state` is 400 `invalid_token`).
 */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    readonly extra?: Record<string, unknown>,
    status?: number,
  ) {
    super(message);
    this.status = status ?? ERROR_STATUS[code];
  }

  /** Response headers the error carries (a 412's current `ETag`, API.md §1.2); set by who throws it. */
  headers?: Record<string, string>;
}

/** Shorthand for the common 404. */
export function notFound(message: string): ApiError {
  return new ApiError('not_found', message);
}

/** Maps Fastify's own errors (parsing, validation, limits, malformed URLs) onto the catalogue. */
function fromFastify(err: FastifyError, request: FastifyRequest): ApiError | undefined {
  if (err.validation) {
    const details = teachingDetails(err.validation as AjvError[]);
    const where = err.validationContext ?? 'request';
    return new ApiError('validation_failed', `Invalid ${where}: ${details.map((d) => `${d.path} ${d.message}`).join('; ')}`, details);
  }
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError('unsupported_media_type', 'Send a JSON body with Content-Type: application/json');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError('bad_request', 'The body is not as long as its Content-Length says');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(
        'payload_too_large',
        `The request body is over this route's limit of ${request.routeOptions.bodyLimit} bytes (the server's LIMIT_BODY_BYTES; LIMIT_SMALL_BODY_BYTES on routes that take a few fields)`,
      );
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ApiError('invalid_json', 'The body is not valid JSON');
    case 'FST_ERR_BAD_URL':
      return new ApiError('bad_request', 'The URL is not validly percent-encoded');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new ApiError('not_found', 'A path segment is too long to name anything');
    default:
      return undefined;
  }
}

/**
 * Any error as the ApiError to answer with: an ApiError as is, Fastify's own errors mapped onto the
 * catalogue, anything else 500 `internal` (logged; the answer names the request id, never a stack).
 */
export function toApiError(err: FastifyError, request: FastifyRequest): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof StoreUnavailable) {
    // Not logged per request: during an outage that would be every request (/ready reports it).
    return new ApiError('unavailable', 'The store is unreachable right now; retry shortly', undefined, { retryAfter: STORE_RETRY_AFTER_SECONDS });
  }
  if (err instanceof CommitOutcomeUnknown) {
    // Logged: rare, and whoever runs the server may want to know which write is in doubt.
    request.log.warn({ err }, 'COMMIT outcome unknown');
    return new ApiError(
      'commit_unknown',
      `The connection to the store broke while the write was committing: it may or may not have been applied; retry with the same Idempotency-Key, or read it back first (request ${request.id})`,
      undefined,
      { retryAfter: STORE_RETRY_AFTER_SECONDS },
    );
  }
  const known = fromFastify(err, request);
  if (known) return known;
  if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
    // A client error Fastify raised that the catalogue has no better name for.
    return new ApiError('validation_failed', err.message);
  }
  request.log.error({ err }, 'unhandled error');
  return new ApiError('internal', `Internal error (request ${request.id})`);
}

/** The §0 body of an error: `{"error": {"code", "message", "details"?}}` and its extra top-level fields (`retryAfter`). */
export function errorBody(e: ApiError): Record<string, unknown> {
  return {
    error: { code: e.code, message: e.message, ...(e.details ? { details: e.details } : {}) },
    ...(e.extra ?? {}),
  };
}

/** An error as a status and a JSON text, for answers written outside Fastify's reply (a refused WebSocket upgrade). */
function renderError(e: ApiError): { status: number; body: string } {
  return { status: e.status, body: JSON.stringify(errorBody(e)) };
}

/**
 * A whole raw HTTP/1.1 error response, for a socket no Fastify reply exists for (the HTTP parser's
 * refusals, a refused upgrade). It closes the connection: after such an error the stream's framing
 * cannot be trusted.
 */
export function rawErrorResponse(e: ApiError, headers: Record<string, string | number> = {}): string {
  const { status, body } = renderError(e);
  const head = { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body), Connection: 'close', ...headers };
  const lines = Object.entries(head)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  return `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n${lines}\r\n${body}`;
}

/**
 * Sends an ApiError in the §0 shape; a `retryAfter` (every 429) is also sent as the Retry-After
 * header. The one producer of error bodies on a Fastify reply.
 */
export function sendError(reply: FastifyReply, e: ApiError): FastifyReply {
  if (typeof e.extra?.retryAfter === 'number') reply.header('Retry-After', e.extra.retryAfter);
  if (e.headers) reply.headers(e.headers);
  return reply.code(e.status).type('application/json; charset=utf-8').send(errorBody(e));
}

/** Installs the one error handler and the 404 handler. Unknown errors become 500 `internal`. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request: FastifyRequest, reply: FastifyReply) => sendError(reply, toApiError(err, request)));
  app.setNotFoundHandler((request, reply) => sendError(reply, notFound(`No route ${request.method} ${request.url.split('?')[0]}`)));
}
