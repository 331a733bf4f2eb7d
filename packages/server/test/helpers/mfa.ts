import assert from 'node:assert/strict';
import { Secret, TOTP } from 'otpauth';
import type { ManualClock } from '../../src/infra/clock.ts';
import { request } from './server.ts';

type Server = { base: string; url: string };

/** The 6-digit RFC 6238 code of a base32 secret at a time (what an authenticator app shows). */
export const codeAt = (secret: string, atMs: number): string => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: atMs });

/** A 6-digit code that is none of the codes of the steps around `atMs` (a wrong code). */
export function wrongCodeAt(secret: string, atMs: number): string {
  const near = new Set([-1, 0, 1].map((d) => codeAt(secret, atMs + d * 30_000)));
  for (let n = 0; ; n += 1) {
    const code = String(n).padStart(6, '0');
    if (!near.has(code)) return code;
  }
}

/**
 * A TOTP authenticator for tests on a server running on `clock`: `next()` moves the clock to the
 * next 30-second step first, so each code is new (the server refuses a step twice).
 */
export function authenticator(secret: string, clock: ManualClock) {
  return {
    secret,
    next(): string {
      clock.advance(30_000);
      return codeAt(secret, clock.now());
    },
    current: () => codeAt(secret, clock.now()),
    wrong: () => wrongCodeAt(secret, clock.now()),
  };
}

const sessionHeaders = (token: string) => ({ 'x-session-token': token });

/** Enrols and activates a TOTP factor for a signed-in user; returns the factor, its authenticator and the recovery codes. */
export async function addTotp(server: Server, key: string, session: string, clock: ManualClock) {
  const e = await request(server, 'POST', '/auth/mfa/totp', { key, headers: sessionHeaders(session) });
  assert.equal(e.status, 201, e.text);
  const { factorId, secret, otpauthUrl } = e.json as { factorId: string; secret: string; otpauthUrl: string };
  const device = authenticator(secret, clock);
  const v = await request(server, 'POST', '/auth/mfa/totp/verify', { key, headers: sessionHeaders(session), body: { factorId, code: device.next() } });
  assert.equal(v.status, 200, v.text);
  return { factorId, secret, otpauthUrl, device, recoveryCodes: (v.json as { recoveryCodes: string[] }).recoveryCodes };
}
