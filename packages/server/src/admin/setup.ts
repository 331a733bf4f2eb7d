import { ApiError } from '../errors.ts';
import { randomBase62, sameSecret } from '../keys/key-format.ts';
import type { Store } from '../store/store.ts';
import type { Clock } from '../infra/clock.ts';
import { countOperators, createOperator, signInOperator } from './operators.ts';
import type { Operator } from '../keys/operator-sessions.ts';

/** Prefix of first-run setup tokens, so a pasted one is recognisable. */
const SETUP_TOKEN_PREFIX = 'svc_setup_';

/** A new one-time setup token (≈ 190 bits). */
export function newSetupToken(): string {
  return SETUP_TOKEN_PREFIX + randomBase62(32);
}

/**
 * First run: while no operator exists, whoever holds the setup token this process printed in its
 * log may create the first operator from the dashboard. The token lives in this process only
 * (a restart prints a new one), and it stops working the moment an operator exists, however that
 * operator was made (setup, the CLI or SVC_ADMIN_EMAIL).
 */
export class FirstRunSetup {
  /** Set while a setup is being completed, so two concurrent requests can't both create one. */
  private busy = false;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    readonly token: string = newSetupToken(),
  ) {}

  /** Whether the instance still needs its first operator. */
  async needsSetup(): Promise<boolean> {
    return (await countOperators(this.store)) === 0;
  }

  /**
   * Creates the first operator and signs it in. 409 `conflict` once an operator exists;
   * 401 `invalid_token` for a wrong token (checked first, in constant time).
   */
  async complete(setupToken: string, email: string, password: string): Promise<{ token: string; operator: Operator }> {
    if (!sameSecret(setupToken, this.token)) throw new ApiError('invalid_token', 'The setup token is wrong; copy it from the server log');
    const closed = () => new ApiError('conflict', 'This instance is already set up; sign in instead');
    if (this.busy) throw closed();
    this.busy = true; // before the first await: concurrent requests see it
    try {
      if (!(await this.needsSetup())) throw closed();
      await createOperator(this.store, email, password, this.clock);
      return await signInOperator(this.store, this.clock, email, password);
    } finally {
      this.busy = false;
    }
  }
}
