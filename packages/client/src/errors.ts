/** One validation problem of a 400 `validation_failed` answer. */
export interface ErrorDetail {
  path: string;
  message: string;
}

/** What the SvcError constructor takes. */
export interface SvcErrorInit {
  status: number;
  code: string;
  message: string;
  details?: ErrorDetail[];
  retryAfter?: number;
  /** For 412 `precondition_failed`: the current version (its ETag) and document. */
  current?: { version: string; document: unknown };
  cause?: unknown;
}

/**
 * The one error the SDK throws: an API error answer (`status` ≥ 400 and the server's stable `code`),
 * a network failure (`status` 0, `isNetworkError`) or an aborted request (`status` 0, `isAbort`).
 *
 * @example
 * try { await client.auth.signIn({ email, password }); }
 * catch (e) {
 *   if (e instanceof SvcError && e.code === 'invalid_credentials') showWrongPassword();
 *   else if (e instanceof SvcError && e.isNetworkError) showOffline();
 *   else throw e;
 * }
 */
export class SvcError extends Error {
  override readonly name = 'SvcError';
  /** HTTP status; 0 when no answer arrived (network error or abort). */
  readonly status: number;
  /** The server's snake_case code (`not_found`, `rate_limited`, …), or `network_error` / `aborted`. */
  readonly code: string;
  /** For `validation_failed`: which fields are wrong. */
  readonly details: ErrorDetail[] | undefined;
  /** For 429: seconds to wait before trying again. */
  readonly retryAfter: number | undefined;
  /**
   * For 412 `precondition_failed` (an `ifMatch` that no longer holds): the document as it is now
   * and its version, so an app can show what changed and let the user decide.
   */
  readonly current: { version: string; document: unknown } | undefined;

  constructor(init: SvcErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.details = init.details;
    this.retryAfter = init.retryAfter;
    this.current = init.current;
  }

  /** True when the request never got an answer (DNS, refused connection, CORS, offline…). */
  get isNetworkError(): boolean {
    return this.code === 'network_error';
  }

  /** True when the request was cancelled through its AbortSignal. */
  get isAbort(): boolean {
    return this.code === 'aborted';
  }

  /** Builds the error of a non-2xx answer from its §0 body (or whatever the body was). */
  static fromResponse(status: number, body: unknown, retryAfterHeader: string | null, etag: string | null = null): SvcError {
    const b = (body && typeof body === 'object' ? body : {}) as {
      error?: { code?: unknown; message?: unknown; details?: unknown };
      retryAfter?: unknown;
      document?: unknown;
    };
    const err = b.error ?? {};
    const retryAfter =
      typeof b.retryAfter === 'number' ? b.retryAfter : retryAfterHeader !== null && /^\d+$/.test(retryAfterHeader) ? Number(retryAfterHeader) : undefined;
    return new SvcError({
      status,
      code: typeof err.code === 'string' ? err.code : status >= 500 ? 'internal' : 'http_error',
      message: typeof err.message === 'string' ? err.message : `HTTP ${status}`,
      details: Array.isArray(err.details) ? (err.details as ErrorDetail[]) : undefined,
      retryAfter,
      current: status === 412 && etag ? { version: versionOf(etag), document: b.document } : undefined,
    });
  }

  /** Wraps a fetch failure: an abort stays an abort, anything else is a network error. */
  static fromFetchFailure(e: unknown, signal: AbortSignal | undefined): SvcError {
    if (signal?.aborted || (e instanceof Error && e.name === 'AbortError')) {
      return new SvcError({ status: 0, code: 'aborted', message: 'The request was aborted', cause: e });
    }
    const why = e instanceof Error ? e.message : String(e);
    return new SvcError({ status: 0, code: 'network_error', message: `Network error: ${why}`, cause: e });
  }
}

/** The version an ETag names: `"42"` → `42`. */
export const versionOf = (etag: string): string => etag.replace(/^W\//, '').replace(/^"|"$/g, '');
