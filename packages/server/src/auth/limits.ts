import type { FastifyReply } from 'fastify';
import { ApiError } from '../errors.ts';
import type { Limiter } from '../infra/limiter/limiter.ts';

/**
 * Per-e-mail limits, on top of the per-key and per-IP limits of API.md §5, so one account can't
 * be brute-forced or mail-bombed from many keys or addresses. Counted per database and e-mail,
 * whether or not the account exists (so a 429 tells nothing about it), in fixed windows shared by
 * every instance when the limiter is Redis.
 */
export const EMAIL_LIMITS = {
  'sign-in': { limit: 10, windowSeconds: 15 * 60 },
  'forgot-password': { limit: 5, windowSeconds: 15 * 60 },
  'magic-link': { limit: 5, windowSeconds: 15 * 60 },
} as const;

export type EmailLimited = keyof typeof EMAIL_LIMITS;

/** Counts one request for an e-mail; answers whether it is within the limit. */
export async function withinEmailLimit(limiter: Limiter, route: EmailLimited, databaseId: string, email: string): Promise<{ allowed: boolean; resetSeconds: number }> {
  const { limit, windowSeconds } = EMAIL_LIMITS[route];
  return limiter.consume(`auth:${route}:${databaseId}:${email}`, limit, windowSeconds);
}

/**
 * Sign-in past its per-e-mail limit: 429 `rate_limited` with `retryAfter` and Retry-After.
 * (forgot-password and magic-link answer 202 whatever happens, as API.md §2 says, and simply send
 * nothing past theirs.)
 */
export async function limitPerEmail(limiter: Limiter, reply: FastifyReply, route: EmailLimited, databaseId: string, email: string): Promise<void> {
  const r = await withinEmailLimit(limiter, route, databaseId, email);
  if (r.allowed) return;
  reply.header('Retry-After', r.resetSeconds);
  throw new ApiError('rate_limited', `Too many ${route} requests for this e-mail; retry in ${r.resetSeconds} s`, undefined, { retryAfter: r.resetSeconds });
}
