import { Secret, TOTP } from 'otpauth';

/** RFC 6238 as API.md §2.2 fixes it: 6 digits, 30-second steps, HMAC-SHA-1. */
const PARAMS = { algorithm: 'SHA1', digits: 6, period: 30 } as const;

/** A new TOTP secret: 160 random bits (RFC 4226 §4's recommended length), base32 without padding. */
export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

/** The `otpauth://totp/Issuer:account?secret=…&issuer=…` URL an authenticator app reads (as a QR code). */
export function otpauthUrl(secret: string, issuer: string, account: string): string {
  return new TOTP({ ...PARAMS, issuer, label: account, secret: Secret.fromBase32(secret) }).toString();
}

/**
 * The time step a code belongs to, checked at `nowMs` against the previous, current and next
 * step (clocks drift; a code typed just before its step ends arrives in the next), or undefined
 * when it matches none. The caller accepts it only if that step is later than the last one
 * accepted (factors.ts), so a code works once. otpauth compares in constant time.
 */
export function totpStep(secret: string, code: string, nowMs: number): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const totp = new TOTP({ ...PARAMS, secret: Secret.fromBase32(secret) });
  const delta = totp.validate({ token: code, timestamp: nowMs, window: 1 });
  return delta === null ? undefined : totp.counter({ timestamp: nowMs }) + delta;
}
