import { ApiError } from '../errors.ts';
import { newId } from '../ids/ids.ts';
import { systemClock, type Clock } from '../infra/clock.ts';
import { hashPassword, verifyPassword } from '../passwords/passwords.ts';
import type { Store } from '../store/store.ts';
import { normalizeEmail } from '../users/users.ts';
import { type Operator, startOperatorSession } from '../keys/operator-sessions.ts';

/** An operator's password: 8 to 256 characters (400 `weak_password`). */
function checkOperatorPassword(password: string): void {
  if (password.length < 8 || password.length > 256) throw new ApiError('weak_password', 'The password must be 8 to 256 characters');
}

/** Creates an operator; 409 when the e-mail is taken (`clock`: the app's; the CLI and tests may leave it). */
export async function createOperator(store: Store, email: string, password: string, clock: Clock = systemClock): Promise<Operator> {
  if (!/^[^\s@]+@[^\s@]+$/.test(email.trim()))
    throw new ApiError('validation_failed', 'A valid e-mail is required', [{ path: '/email', message: 'must be an e-mail address' }]);
  checkOperatorPassword(password);
  const op: Operator = { id: newId(), email: normalizeEmail(email), createdAt: new Date(clock.now()).toISOString() };
  const passwordHash = await hashPassword(password);
  const inserted = await store.get(
    'INSERT INTO operators (id, email, password_hash, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (email) DO NOTHING RETURNING id',
    [op.id, op.email, passwordHash, op.createdAt],
  );
  if (!inserted) throw new ApiError('conflict', `An operator with e-mail ${op.email} already exists`);
  return op;
}

/** Creates the operator of SVC_ADMIN_EMAIL/SVC_ADMIN_PASSWORD unless it exists. */
export async function ensureOperator(store: Store, email: string, password: string): Promise<boolean> {
  const existing = await store.get('SELECT id FROM operators WHERE email = ?', [normalizeEmail(email)]);
  if (existing) return false;
  await createOperator(store, email, password).catch((e) => {
    if (!(e instanceof ApiError && e.code === 'conflict')) throw e; // another instance won the race
  });
  return true;
}

export async function countOperators(store: Store): Promise<number> {
  const row = await store.get<{ n: number }>('SELECT count(*) AS n FROM operators');
  return row?.n ?? 0;
}

/** Signs an operator in: 401 `invalid_credentials` for a wrong e-mail or password, in the same time. */
export async function signInOperator(store: Store, clock: Clock, email: string, password: string): Promise<{ token: string; operator: Operator }> {
  const operator = await checkOperatorCredentials(store, email, password);
  return { token: await startOperatorSession(store, clock, operator.id), operator };
}

/** The operator of an e-mail and password, or 401 `invalid_credentials` (same time for a wrong e-mail or password). */
export async function checkOperatorCredentials(store: Store, email: string, password: string): Promise<Operator> {
  const row = await store.get<{ id: string; email: string; password_hash: string; created_at: string }>(
    'SELECT id, email, password_hash, created_at FROM operators WHERE email = ?',
    [normalizeEmail(email)],
  );
  if (!(await verifyPassword(row?.password_hash, password)) || !row) {
    throw new ApiError('invalid_credentials', 'Wrong e-mail or password');
  }
  return { id: row.id, email: row.email, createdAt: row.created_at };
}

/** Every operator, oldest first. */
export async function listOperators(store: Store): Promise<Operator[]> {
  const rows = await store.all<{ id: string; email: string; created_at: string }>('SELECT id, email, created_at FROM operators ORDER BY created_at, id');
  return rows.map((r) => ({ id: r.id, email: r.email, createdAt: r.created_at }));
}

const noOperator = (email: string) => new ApiError('not_found', `No operator has the e-mail ${normalizeEmail(email)}`);

/**
 * Deletes the operator of an e-mail with its sessions (by cascade). Refuses (409 `conflict`) to
 * delete the last one: nobody could sign in to the dashboard any more. Every operator row is locked
 * first (PostgreSQL), so two deletions at once cannot both pass the count and leave none.
 */
export async function deleteOperator(store: Store, email: string): Promise<Operator> {
  return store.transaction(async (tx) => {
    const rows = await tx.all<{ id: string; email: string; created_at: string }>(
      `SELECT id, email, created_at FROM operators ORDER BY id${store.dialect.lockRows}`,
    );
    const row = rows.find((r) => r.email === normalizeEmail(email));
    if (!row) throw noOperator(email);
    if (rows.length === 1) {
      throw new ApiError('conflict', `${row.email} is the last operator; create another one first (svc operator create), then delete this one`);
    }
    await tx.run('DELETE FROM operators WHERE id = ?', [row.id]);
    return { id: row.id, email: row.email, createdAt: row.created_at };
  });
}

/** Sets a new password for the operator of an e-mail and ends every session of theirs (they sign in again). */
export async function resetOperatorPassword(store: Store, email: string, password: string): Promise<Operator> {
  checkOperatorPassword(password);
  const passwordHash = await hashPassword(password);
  return store.transaction(async (tx) => {
    const row = await tx.get<{ id: string; email: string; created_at: string }>(
      'UPDATE operators SET password_hash = ? WHERE email = ? RETURNING id, email, created_at',
      [passwordHash, normalizeEmail(email)],
    );
    if (!row) throw noOperator(email);
    await tx.run('DELETE FROM operator_sessions WHERE operator_id = ?', [row.id]);
    return { id: row.id, email: row.email, createdAt: row.created_at };
  });
}
