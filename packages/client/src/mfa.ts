import type { CallOptions, Http } from './http.js';
import type { UserSession } from './session.js';
import { toStored } from './session-store.js';
import type { AuthResult, MfaCode, MfaFactors, MfaRequired, TotpEnrolment } from './types.js';

/**
 * Second factors of the signed-in user (API.md §2.2): a TOTP authenticator app with recovery
 * codes, and `challenge`, the second step of a sign-in that answered `mfa`.
 */
export class MfaService {
  constructor(
    private readonly http: Http,
    private readonly session: UserSession,
  ) {}

  /**
   * Starts adding an authenticator app: show `otpauthUrl` as a QR code (or `secret` to type), then
   * call `verifyTotp` with the code the app shows. Needs a verified e-mail (403
   * `email_not_verified`) and a session younger than 10 minutes (403 `reauthentication_required`).
   */
  enrolTotp(opts?: CallOptions): Promise<TotpEnrolment> {
    return this.session.send<TotpEnrolment>({ method: 'POST', path: '/auth/mfa/totp', signal: opts?.signal });
  }

  /** Turns the factor on with a code; resolves the 10 recovery codes, shown this once. */
  async verifyTotp(params: { factorId: string; code: string }, opts?: CallOptions): Promise<string[]> {
    const r = await this.session.send<{ recoveryCodes: string[] }>({ method: 'POST', path: '/auth/mfa/totp/verify', body: params, signal: opts?.signal });
    return r.recoveryCodes;
  }

  /** The user's factors and how many recovery codes are left. */
  list(opts?: CallOptions): Promise<MfaFactors> {
    return this.session.send<MfaFactors>({ method: 'GET', path: '/auth/mfa', signal: opts?.signal });
  }

  /** Removes a factor, proven by a current code or a recovery code (`code` holds either). */
  async remove(factorId: string, params: { code: string }, opts?: CallOptions): Promise<void> {
    await this.session.send({ method: 'DELETE', path: `/auth/mfa/${encodeURIComponent(factorId)}`, body: params, signal: opts?.signal });
  }

  /** New recovery codes (the old ones stop working), proven by a current code. */
  async newRecoveryCodes(params: { code: string }, opts?: CallOptions): Promise<string[]> {
    const r = await this.session.send<{ recoveryCodes: string[] }>({ method: 'POST', path: '/auth/mfa/recovery-codes', body: params, signal: opts?.signal });
    return r.recoveryCodes;
  }

  /**
   * Completes a sign-in that answered `mfa` (or an OAuth redirect with `?mfa_token=`): stores the
   * session and resolves the user. A wrong code → 401 `invalid_mfa_code` (try again); a dead
   * token (used, 5 minutes, 5 wrong codes) → 401 `invalid_token` (sign in again).
   */
  async challenge(step: MfaRequired['mfa'] | string, code: MfaCode, opts?: CallOptions): Promise<AuthResult> {
    const mfaToken = typeof step === 'string' ? step : step.token;
    const result = await this.http.send<AuthResult>({ method: 'POST', path: '/auth/mfa/challenge', body: { mfaToken, ...code }, signal: opts?.signal });
    await this.session.set(toStored(result), 'SIGNED_IN');
    return result;
  }
}
