import { ApiError } from '../errors.ts';
import { hashSecret } from '../keys/key-format.ts';
import type { Limiter } from '../infra/limiter/limiter.ts';
import type { Store } from '../store/store.ts';
import type { Clock } from '../infra/clock.ts';
import { type CodeAnswer, type Factors, hasVerifiedFactor, removeAllFactors, wrongCode } from '../auth/mfa/factors.ts';
import { normalizeEmail } from '../users/users.ts';
import type { MfaStep, MfaTokens } from '../auth/mfa/mfa-tokens.ts';
import { ANY_IP, codeAccount, type Owner } from '../auth/mfa/owner.ts';
import { limitFailedAttempts } from '../auth/limits.ts';
import { checkOperatorCredentials } from './operators.ts';
import { startOperatorSession, type Operator } from '../keys/operator-sessions.ts';

/** What authenticator apps show for an operator's factor. */
const ISSUER = 'svc dashboard';
/** As for end users (API.md §2.2): a factor is added only from a session made in the last 10 minutes. */
const FRESH_MS = 10 * 60_000;

const ownerOf = (operator: Operator): Owner => ({ kind: 'operator', id: operator.id });

/**
 * `svc operator reset-mfa --email E`: removes an operator's factors, recovery codes and pending
 * mfaTokens (one who lost their phone and codes). 404 `not_found` for no such operator.
 */
export async function resetOperatorMfa(store: Store, email: string): Promise<{ operator: Operator; removed: number }> {
  return store.transaction(async (tx) => {
    const row = await tx.get<{ id: string; email: string; created_at: string }>('SELECT id, email, created_at FROM operators WHERE email = ?', [
      normalizeEmail(email),
    ]);
    if (!row) throw new ApiError('not_found', `No operator has the e-mail ${normalizeEmail(email)}`);
    const removed = await removeAllFactors(tx, { kind: 'operator', id: row.id });
    await tx.run('DELETE FROM mfa_tokens WHERE operator_id = ?', [row.id]);
    return { operator: { id: row.id, email: row.email, createdAt: row.created_at }, removed };
  });
}

/**
 * Operators' second factors (API.md §2.2 "Operators"): the same TOTP factors, recovery codes and
 * mfaTokens as end users (auth/mfa/), owned by an operator. With a verified factor the operator
 * sign-in answers an mfaToken, and creating another operator needs the caller's current code.
 */
export class OperatorMfa {
  constructor(private readonly d: { store: Store; clock: Clock; limiter: Limiter; factors: Factors; tokens: MfaTokens }) {}

  /** `POST /admin/sign-in`: a session token, or `{token: null, mfa}` while a second step is due. */
  async signIn(email: string, password: string): Promise<{ token: string; operator: Operator } | { token: null; mfa: MfaStep }> {
    const { store, tokens } = this.d;
    const operator = await checkOperatorCredentials(store, email, password);
    if (await hasVerifiedFactor(store, ownerOf(operator))) return { token: null, mfa: await tokens.issue(store, ownerOf(operator)) };
    return { token: await startOperatorSession(store, this.d.clock, operator.id), operator };
  }

  /** `POST /admin/mfa/challenge`: the second step → a session token and the operator. */
  challenge(mfaToken: string, answer: CodeAnswer): Promise<{ token: string; operator: Operator }> {
    return this.d.tokens.complete(null, mfaToken, answer, async (tx, owner) => {
      const row = await tx.get<{ id: string; email: string; created_at: string }>('SELECT id, email, created_at FROM operators WHERE id = ?', [owner.id]);
      return { token: await startOperatorSession(tx, this.d.clock, owner.id), operator: { id: row!.id, email: row!.email, createdAt: row!.created_at } };
    });
  }

  async enrol(operator: Operator, sessionToken: string) {
    const session = await this.d.store.get<{ created_at: string }>('SELECT created_at FROM operator_sessions WHERE token_hash = ?', [hashSecret(sessionToken)]);
    if (!session || Date.parse(session.created_at) < this.d.clock.now() - FRESH_MS) {
      throw new ApiError('reauthentication_required', 'Sign in again: adding a second factor needs a session made in the last 10 minutes');
    }
    return this.d.factors.enrol(ownerOf(operator), ISSUER, operator.email);
  }

  activate(operator: Operator, factorId: string, code: string): Promise<string[]> {
    return this.d.factors.activate(ownerOf(operator), factorId, code);
  }

  list(operator: Operator) {
    return this.d.factors.list(ownerOf(operator));
  }

  remove(operator: Operator, factorId: string, code: string): Promise<void> {
    return this.limited(operator, () => this.d.factors.remove(ownerOf(operator), factorId, code));
  }

  /**
   * Before an operator with a factor creates another operator: their current code (TOTP or
   * recovery), so a stolen operator token alone cannot make a lasting account. Missing or wrong →
   * 401 `invalid_mfa_code`, counted under the account's limit.
   */
  async requireCode(operator: Operator, code: string | undefined): Promise<void> {
    const { store, factors } = this.d;
    const owner = ownerOf(operator);
    if (!(await hasVerifiedFactor(store, owner))) return;
    if (code === undefined) throw new ApiError('invalid_mfa_code', 'You have a second factor: send your current code as code');
    const answer: CodeAnswer = /^\d{6}$/.test(code.trim()) ? { code: code.trim() } : { recoveryCode: code };
    await this.limited(operator, () =>
      store.transaction(async (tx) => {
        if (!(await factors.accept(tx, owner, answer))) throw wrongCode();
      }),
    );
  }

  private limited<T>(operator: Operator, fn: () => Promise<T>): Promise<T> {
    return limitFailedAttempts(this.d.limiter, { account: codeAccount(ownerOf(operator)), ip: ANY_IP }, fn);
  }
}
