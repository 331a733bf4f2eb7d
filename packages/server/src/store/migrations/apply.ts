import type { Dialect, Queryable } from '../store.ts';
import { MIGRATIONS } from './index.ts';

/**
 * Applies, each in its own transaction, the migrations the store has not seen yet. The caller
 * makes sure only one process runs this at a time (SQLite: one writer; PostgreSQL: an advisory
 * lock), so several instances starting together are safe.
 */
export async function applyMigrations(
  q: Queryable,
  dialect: Dialect,
  inTransaction: (fn: (tx: Queryable) => Promise<void>) => Promise<void>,
): Promise<number[]> {
  await q.run(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`);
  const done = new Set((await q.all<{ version: number }>('SELECT version FROM schema_migrations')).map((r) => Number(r.version)));
  const applied: number[] = [];
  for (const m of [...MIGRATIONS].sort((a, b) => a.version - b.version)) {
    if (done.has(m.version)) continue;
    await inTransaction(async (tx) => {
      for (const statement of m.statements(dialect)) await tx.run(statement);
      await tx.run('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)', [m.version, m.name, new Date().toISOString()]);
    });
    applied.push(m.version);
  }
  return applied;
}
