import * as crypto from 'node:crypto';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `length` uniformly random base62 characters (rejection sampling: no modulo bias). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export type KeyKind = 'secret' | 'public';

export const KEY_PREFIX: Record<KeyKind, string> = { secret: 'svc_sk_', public: 'svc_pk_' };

/** Operator session tokens: a distinct prefix, so one Authorization header names what it carries. */
export const OPERATOR_TOKEN_PREFIX = 'svc_op_';

/** A new API key: the prefix and 40 base62 characters (≈ 238 bits). */
export function generateKey(kind: KeyKind): string {
  return KEY_PREFIX[kind] + randomBase62(40);
}

/**
 * One-shot `crypto.hash` (Node ≥ 20.12; engines allow any 20) skips the Hash object, a third of
 * the cost, paid on every request with a key (docs/performance-notes.md). Same digest either way.
 */
const sha256Hex: (text: string) => string =
  typeof crypto.hash === 'function' ? (text) => crypto.hash('sha256', text, 'hex') : (text) => createHash('sha256').update(text).digest('hex');

/**
 * SHA-256 of a high-entropy secret (API key or token), hex. A fast hash is right here: the
 * secrets are random, so there is nothing to brute-force, and lookups happen per request.
 */
export function hashSecret(secret: string): string {
  return sha256Hex(secret);
}

/**
 * Whether a presented secret equals the expected one, in constant time: both sides are hashed
 * first, so neither their content nor their lengths leak through timing.
 */
export function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(createHash('sha256').update(given).digest(), createHash('sha256').update(expected).digest());
}

/** What a key listing shows: its prefix and last 4 characters. */
export function keyHint(key: string): string {
  return `${key.slice(0, 7)}…${key.slice(-4)}`;
}
