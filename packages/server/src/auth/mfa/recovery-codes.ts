import { randomBytes } from 'node:crypto';
import { tokenHash } from '../tokens.ts';

/** Recovery codes given at once (API.md §2.2: 10). */
export const RECOVERY_CODE_COUNT = 10;

/** Lower-case RFC 4648 base32: no 0/1/8/9 to mistake for o/l/b/g when typed from paper. */
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/**
 * A recovery code: 80 random bits (§2.2 asks ≥ 50) as 16 base32 letters in four groups,
 * `abcd-efgh-ijkl-mnop`. 80 bits keep a fast SHA-256 (tokens.ts) enough as its stored form: a
 * stolen table cannot be searched for them.
 */
export function newRecoveryCode(): string {
  const bytes = randomBytes(10);
  let bits = 0;
  let value = 0;
  let out = '';
  // Hand-written base32 of 10 bytes: Node has no base32 encoder, and this is 8 lines.
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return out.match(/.{4}/g)!.join('-');
}

/** What is stored of a code: the SHA-256 of its letters, lower-cased, spaces and dashes dropped (typed any way). */
export const recoveryCodeHash = (code: string): string => tokenHash(code.toLowerCase().replace(/[\s-]/g, ''));
