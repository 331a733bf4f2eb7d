import { ApiError, notFound } from '../../errors.ts';
import { newId } from '../../ids/ids.ts';
import type { Clock } from '../../infra/clock.ts';
import type { Queryable, Store } from '../../store/store.ts';
import { isoAt } from '../tokens.ts';
import { column, type Owner } from './owner.ts';
import { RECOVERY_CODE_COUNT, newRecoveryCode, recoveryCodeHash } from './recovery-codes.ts';
import { newTotpSecret, otpauthUrl, totpStep } from './totp.ts';

/** A factor as `GET /auth/mfa` lists it: never the secret. */
export interface Factor {
  id: string;
  type: 'totp';
  createdAt: string;
  verified: boolean;
}

/** What the owner typed: a TOTP code (6 digits) or a recovery code. */
export interface CodeAnswer {
  code?: string;
  recoveryCode?: string;
}

interface FactorRow {
  id: string;
  secret: string;
  verified: number | boolean;
  created_at: string;
}

export const wrongCode = () => new ApiError('invalid_mfa_code', 'The code is wrong, already used or expired');

/** Whether an owner has a verified factor: then every sign-in takes a second step. */
export async function hasVerifiedFactor(q: Queryable, owner: Owner): Promise<boolean> {
  return Boolean(await q.get(`SELECT 1 AS one FROM mfa_factors WHERE ${column(owner)} = ? AND verified = 1`, [owner.id]));
}

/** Removes every factor and recovery code of an owner (takeover rule, support desk, `svc operator reset-mfa`). */
export async function removeAllFactors(q: Queryable, owner: Owner): Promise<number> {
  const n = await q.run(`DELETE FROM mfa_factors WHERE ${column(owner)} = ?`, [owner.id]);
  await q.run(`DELETE FROM mfa_recovery_codes WHERE ${column(owner)} = ?`, [owner.id]);
  return n;
}

/**
 * TOTP factors and recovery codes of users and operators (API.md §2.2). A code is accepted by
 * one UPDATE that moves the factor's `last_step` forward (`WHERE last_step < step`), and a
 * recovery code by one DELETE: two instances checking the same code at once cannot both win, so
 * a code, and a recovery code, works once.
 */
export class Factors {
  constructor(private readonly d: { store: Store; clock: Clock }) {}

  /** A new unverified TOTP factor, replacing an earlier unverified one; 409 when a verified one exists. */
  async enrol(owner: Owner, issuer: string, account: string): Promise<{ factorId: string; secret: string; otpauthUrl: string }> {
    const { store, clock } = this.d;
    const secret = newTotpSecret();
    const factorId = newId();
    await store.transaction(async (tx) => {
      if (await hasVerifiedFactor(tx, owner)) throw new ApiError('conflict', 'This account already has a verified TOTP factor; remove it first');
      await tx.run(`DELETE FROM mfa_factors WHERE ${column(owner)} = ? AND verified = 0`, [owner.id]);
      await tx.run(
        `INSERT INTO mfa_factors (id, database_id, ${column(owner)}, type, secret, verified, last_step, created_at) VALUES (?, ?, ?, 'totp', ?, 0, 0, ?)`,
        [factorId, owner.kind === 'user' ? owner.databaseId : null, owner.id, secret, isoAt(clock)],
      );
    });
    return { factorId, secret, otpauthUrl: otpauthUrl(secret, issuer, account) };
  }

  /** Activates an enrolled factor with a right code; answers 10 new recovery codes (the old ones stop working). */
  async activate(owner: Owner, factorId: string, code: string): Promise<string[]> {
    return this.d.store.transaction(async (tx) => {
      const row = await tx.get<FactorRow>(`SELECT id, secret, verified, created_at FROM mfa_factors WHERE id = ? AND ${column(owner)} = ?`, [
        factorId,
        owner.id,
      ]);
      if (!row) throw notFound(`Factor '${factorId}' not found`);
      if (Number(row.verified)) throw new ApiError('conflict', 'This factor is already verified');
      if (await hasVerifiedFactor(tx, owner)) throw new ApiError('conflict', 'This account already has a verified TOTP factor');
      if (!(await this.acceptTotp(tx, row, code))) throw wrongCode();
      await tx.run('UPDATE mfa_factors SET verified = 1 WHERE id = ?', [row.id]);
      return this.replaceRecoveryCodes(tx, owner);
    });
  }

  /** The owner's factors and how many recovery codes are left. */
  async list(owner: Owner): Promise<{ factors: Factor[]; recoveryCodesLeft: number }> {
    const { store } = this.d;
    const rows = await store.all<FactorRow>(`SELECT id, secret, verified, created_at FROM mfa_factors WHERE ${column(owner)} = ? ORDER BY created_at, id`, [
      owner.id,
    ]);
    const left = await store.get<{ n: number | string }>(`SELECT count(*) AS n FROM mfa_recovery_codes WHERE ${column(owner)} = ?`, [owner.id]);
    return {
      factors: rows.map((r) => ({ id: r.id, type: 'totp', createdAt: r.created_at, verified: Boolean(Number(r.verified)) })),
      recoveryCodesLeft: Number(left?.n ?? 0),
    };
  }

  /**
   * Removes a factor, proven by a current TOTP code or a recovery code (`code` holds either). With
   * no verified factor left the recovery codes go too: sign-in is one step again.
   */
  async remove(owner: Owner, factorId: string, code: string): Promise<void> {
    await this.d.store.transaction(async (tx) => {
      const row = await tx.get(`SELECT id FROM mfa_factors WHERE id = ? AND ${column(owner)} = ?`, [factorId, owner.id]);
      if (!row) throw notFound(`Factor '${factorId}' not found`);
      if (!(await this.accept(tx, owner, either(code)))) throw wrongCode();
      await tx.run('DELETE FROM mfa_factors WHERE id = ?', [factorId]);
      if (!(await hasVerifiedFactor(tx, owner))) await removeAllFactors(tx, owner);
    });
  }

  /** New recovery codes, proven by a current code (TOTP or recovery); the old ones stop working. */
  async newRecoveryCodes(owner: Owner, code: string): Promise<string[]> {
    return this.d.store.transaction(async (tx) => {
      if (!(await hasVerifiedFactor(tx, owner))) throw new ApiError('conflict', 'This account has no verified factor');
      if (!(await this.accept(tx, owner, either(code)))) throw wrongCode();
      return this.replaceRecoveryCodes(tx, owner);
    });
  }

  /**
   * Accepts a TOTP code of one of the owner's verified factors, or one of their recovery codes
   * (used up), inside the caller's transaction; false when it is wrong, used or replayed.
   */
  async accept(tx: Queryable, owner: Owner, answer: CodeAnswer): Promise<boolean> {
    if (answer.recoveryCode !== undefined) {
      const used = await tx.run(`DELETE FROM mfa_recovery_codes WHERE ${column(owner)} = ? AND code_hash = ?`, [
        owner.id,
        recoveryCodeHash(answer.recoveryCode),
      ]);
      return used === 1;
    }
    const rows = await tx.all<FactorRow>(`SELECT id, secret, verified, created_at FROM mfa_factors WHERE ${column(owner)} = ? AND verified = 1`, [owner.id]);
    for (const row of rows) if (await this.acceptTotp(tx, row, answer.code ?? '')) return true;
    return false;
  }

  /** A TOTP code of one factor, accepted only if its step is later than the last one accepted. */
  private async acceptTotp(tx: Queryable, row: FactorRow, code: string): Promise<boolean> {
    const step = totpStep(row.secret, code, this.d.clock.now());
    if (step === undefined) return false;
    return (await tx.run('UPDATE mfa_factors SET last_step = ? WHERE id = ? AND last_step < ?', [step, row.id, step])) === 1;
  }

  private async replaceRecoveryCodes(tx: Queryable, owner: Owner): Promise<string[]> {
    await tx.run(`DELETE FROM mfa_recovery_codes WHERE ${column(owner)} = ?`, [owner.id]);
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    const now = isoAt(this.d.clock);
    for (const code of codes) {
      await tx.run(`INSERT INTO mfa_recovery_codes (code_hash, ${column(owner)}, created_at) VALUES (?, ?, ?)`, [recoveryCodeHash(code), owner.id, now]);
    }
    return codes;
  }
}

/** One field that holds a TOTP code (6 digits) or a recovery code. */
const either = (code: string): CodeAnswer => (/^\s*\d{6}\s*$/.test(code) ? { code: code.trim() } : { recoveryCode: code });
