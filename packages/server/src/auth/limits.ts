import { ApiError, type ErrorCode } from '../errors.ts';
import type { Limiter } from '../infra/limiter/limiter.ts';

/**
 * Per-e-mail limits of the mailing routes, on top of the per-key and per-IP limits of API.md §5,
 * so nobody can mail-bomb an address from many keys or addresses. Counted per database and
 * e-mail, whether or not the account exists, in fixed windows shared by every instance when the
 * limiter is Redis. Past them the routes still answer 202 (API.md §2) and simply send nothing.
 */
const MAIL_LIMITS = {
  'forgot-password': { limit: 5, windowSeconds: 15 * 60 },
  'magic-link': { limit: 5, windowSeconds: 15 * 60 },
  // Verification links: asked for with /auth/verify-email, and mailed by a sign-up that requires them.
  'verify-email': { limit: 5, windowSeconds: 15 * 60 },
} as const;

export type MailLimited = keyof typeof MAIL_LIMITS;

/** Counts one mail request for an e-mail; answers whether it is within the limit. */
export async function withinMailLimit(limiter: Limiter, route: MailLimited, databaseId: string, email: string): Promise<boolean> {
  const { limit, windowSeconds } = MAIL_LIMITS[route];
  return (await limiter.consume(`auth:${route}:${databaseId}:${email}`, limit, windowSeconds)).allowed;
}

/** API.md §2.1 "Per-account limits": failed password checks allowed per account and client IP per window. */
const FAILED_ATTEMPTS = { limit: 10, windowSeconds: 15 * 60 } as const;

/** The answers that are a failed guess; any other outcome (success, a weak new password, 503) is not. */
const FAILED: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['invalid_credentials', 'invalid_current_password', 'invalid_mfa_code']);

/** Who is guessing at what: an account (known or not) and the client IP the guesses come from. */
export interface Attempt {
  /** The account, named the same way by every route that checks its password: `userAccount`, `operatorAccount`. */
  account: string;
  ip: string;
}

/** An end user's account as the limit names it: sign-in, change-password and account deletion share its count. */
export const userAccount = (databaseId: string, email: string): string => `user:${databaseId}:${email}`;

/** An operator's account as the limit names it. */
export const operatorAccount = (email: string): string => `operator:${email}`;

/**
 * Runs a password check under the per-account limit (sign-in, change-password, account deletion,
 * operator sign-in). Past 10 failures of one account from one IP in 15 minutes,
 * every attempt from that IP answers 429 `rate_limited` with `retryAfter` (even with the right
 * password) until the window passes; other IPs are not affected.
 *
 * The attempt is counted before the check and given back when it did not fail, rather than
 * counted after a failure: a burst of concurrent guesses then gets at most 10 checks, not one
 * per request that looked before any of them had failed.
 *
 * @example
 *   const signedIn = await limitFailedAttempts(limiter, { account: userAccount(db, email), ip: request.ip }, () => auth.signIn(db, email, password));
 */
export async function limitFailedAttempts<T>(limiter: Limiter, who: Attempt, check: () => Promise<T>): Promise<T> {
  const { limit, windowSeconds } = FAILED_ATTEMPTS;
  const key = `auth:failed:${who.account}:${who.ip}`;
  const counted = await limiter.consume(key, limit, windowSeconds);
  if (!counted.allowed) {
    throw new ApiError('rate_limited', `Too many failed attempts for this account from this address; retry in ${counted.resetSeconds} s`, undefined, {
      retryAfter: counted.resetSeconds,
    });
  }
  // A refund that fails (the limiter's store is away) leaves one attempt too many counted: better
  // than failing a sign-in that succeeded.
  const giveBack = async () => {
    try {
      await limiter.refund(key, limit, windowSeconds);
    } catch {
      /* see above */
    }
  };
  try {
    const result = await check();
    await giveBack();
    return result;
  } catch (e) {
    if (!(e instanceof ApiError && FAILED.has(e.code))) await giveBack();
    throw e;
  }
}
