import { StoreUnavailable } from '../errors.ts';

/** Socket errors: the server or the network between went away. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * SQLSTATEs of a server that can't serve right now: class 08 (connection exception), 53300 (too
 * many connections), 57014 (statement_timeout), 57P01/57P02/57P03 (shutting down, crashed,
 * starting up), 25P03 (idle-in-transaction time-out ended the session).
 */
const UNAVAILABLE_STATES = new Set(['53300', '57014', '57P01', '57P02', '57P03', '25P03']);

/** pg's and pg-pool's own messages for a lost, refused or timed-out connection (they carry no code). */
const CONNECTION_MESSAGES =
  /^(Connection terminated|timeout expired|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error|Client was closed|Cannot use a pool after calling end)/;

/** Whether a pg error means the server can't be reached (as opposed to a bad statement or a constraint). */
export function isConnectionError(e: unknown): boolean {
  if (e instanceof StoreUnavailable) return true;
  if (!(e instanceof Error)) return false;
  const code = (e as { code?: unknown }).code;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_STATES.has(code) || code.startsWith('08'))) return true;
  return CONNECTION_MESSAGES.test(e.message);
}

/**
 * Connection-class failures that prove the statement never ran, or was rolled back: the
 * connection was refused or never opened, the pool had no client to give, or the server
 * cancelled or aborted it (57014 statement time-out, 57P01/57P02 shutdown, 57P03, 53300).
 * Any other (a reset, a read time-out, an unexpected end) may have come after the server ran it.
 */
const NEVER_RAN_CODES = new Set([
  'ECONNREFUSED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  '53300',
  '57014',
  '57P01',
  '57P02',
  '57P03',
  '08001',
  '08004',
]);
const NEVER_RAN_MESSAGES =
  /^(timeout exceeded when trying to connect|Connection terminated due to connection timeout|timeout expired|Client was closed|Cannot use a pool after calling end)/;

/** Whether a connection-class failure leaves it open whether the statement ran (see NEVER_RAN_CODES). */
export function mayHaveRun(e: unknown): boolean {
  const cause = e instanceof StoreUnavailable ? e.cause : e;
  if (!(cause instanceof Error)) return true;
  const code = (cause as { code?: unknown }).code;
  return !((typeof code === 'string' && NEVER_RAN_CODES.has(code)) || NEVER_RAN_MESSAGES.test(cause.message));
}

/** Whether a pg error is a unique violation (23505) of one of the named constraints. */
export function violates(e: unknown, constraints: readonly string[] | undefined): boolean {
  const { code, constraint } = (e ?? {}) as { code?: unknown; constraint?: unknown };
  return code === '23505' && typeof constraint === 'string' && constraints?.includes(constraint) === true;
}

/** The error to throw for a failed pg call: StoreUnavailable for a connection-class failure, else the error itself. */
export function storeError(e: unknown): unknown {
  return isConnectionError(e) && !(e instanceof StoreUnavailable) ? new StoreUnavailable(e) : e;
}
