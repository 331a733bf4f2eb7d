import { getDatabase } from '../../databases/databases.ts';
import { ApiError } from '../../errors.ts';
import type { Clock } from '../../infra/clock.ts';
import type { Mailer } from '../../infra/mailer/mailer.ts';
import type { Store } from '../../store/store.ts';
import type { Background } from '../background.ts';
import type { Current } from '../sessions.ts';
import { MINUTE } from '../tokens.ts';
import { wayInAddedMail } from './mails.ts';

/** API.md §2.2: a factor or passkey is added only from a session made in the last 10 minutes. */
const FRESH_MS = 10 * MINUTE;

/**
 * The checks and the notice around adding a way in (a TOTP factor or a passkey), API.md §2.2: the
 * e-mail must be verified (403 `email_not_verified`) and the session fresh (403
 * `reauthentication_required`), so a stolen older session cannot plant a lasting way in; and the
 * user is mailed that it happened, so an intruder who did it anyway is noticed.
 */
export class WayInGuard {
  constructor(private readonly d: { store: Store; clock: Clock; mailer: Mailer; background: Background }) {}

  async check(current: Current): Promise<void> {
    if (!Number(current.user.email_verified)) {
      throw new ApiError('email_not_verified', 'Verify your e-mail address before adding a second factor or a passkey');
    }
    const session = await this.d.store.get<{ created_at: string }>('SELECT created_at FROM user_sessions WHERE token_hash = ?', [current.tokenHash]);
    if (!session || Date.parse(session.created_at) < this.d.clock.now() - FRESH_MS) {
      throw new ApiError('reauthentication_required', 'Sign in again: adding a second factor or a passkey needs a session made in the last 10 minutes');
    }
  }

  /** Mails the user, in the background, that `what` was added to their account. */
  notify(databaseId: string, email: string, what: string): void {
    const { store, mailer } = this.d;
    this.d.background.run('the way-in-added e-mail', async () => {
      const db = await getDatabase(store, databaseId);
      await mailer.send(wayInAddedMail({ to: email, app: db.name, what }));
    });
  }
}
