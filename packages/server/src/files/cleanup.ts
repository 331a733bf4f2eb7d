import type { FastifyBaseLogger } from 'fastify';
import { newId } from '../ids/ids.ts';
import type { Clock } from '../infra/clock.ts';
import type { ByteStore } from '../infra/bytes/bytes.ts';
import type { Queryable, Store } from '../store/store.ts';
import { keyOwner } from './keys.ts';

/**
 * Nothing lost, nothing left behind (API.md §12). Bytes are written before their record commits
 * and removed after it is gone, by durable jobs: a `file_jobs` row written in the transaction
 * that removes the record, claimed with a lease (as webhook deliveries are: an instance that dies
 * mid-job leaves a lease that expires), retried with a growing delay until the byte store
 * answers, deleted once the bytes are gone. The sweep removes bytes that a crash left with no
 * record (stored, then the process died before its commit), once they are older than any upload
 * still in progress could be.
 */

const LEASE_MS = 60_000;
const BATCH = 20;
/** The longest wait between two tries of one job. */
const MAX_DELAY_MS = 60_000;

/** Queues the removal of every byte-store key under `prefix`, in the caller's transaction. */
export async function enqueueRemoval(q: Queryable, prefix: string, now: string): Promise<void> {
  await q.run('INSERT INTO file_jobs (id, prefix, attempts, run_at, lease_until, created_at) VALUES (?, ?, 0, ?, NULL, ?)', [newId(), prefix, now, now]);
}

export class Cleanup {
  constructor(private readonly deps: { store: Store; bytes: ByteStore; clock: Clock; log: FastifyBaseLogger; retryBaseMs: number; orphanAgeMs: number }) {}

  private iso(ms = 0): string {
    return new Date(this.deps.clock.now() + ms).toISOString();
  }

  /** Claims the due jobs and removes their bytes; returns how many finished. */
  async runJobs(): Promise<number> {
    const { store, bytes, log } = this.deps;
    const now = this.iso();
    const due = await store.transaction(async (tx) => {
      const rows = await tx.all<{ id: string; prefix: string; attempts: number }>(
        `SELECT id, prefix, attempts FROM file_jobs WHERE run_at <= ? AND (lease_until IS NULL OR lease_until <= ?) ORDER BY run_at LIMIT ?${store.dialect.claimRows}`,
        [now, now, BATCH],
      );
      for (const r of rows) await tx.run('UPDATE file_jobs SET lease_until = ? WHERE id = ?', [this.iso(LEASE_MS), r.id]);
      return rows;
    });
    let done = 0;
    for (const job of due) {
      try {
        await bytes.removePrefix(job.prefix);
        await store.run('DELETE FROM file_jobs WHERE id = ?', [job.id]);
        done++;
      } catch (err) {
        const attempts = Number(job.attempts) + 1;
        const delay = Math.min(MAX_DELAY_MS, this.deps.retryBaseMs * 2 ** Math.min(attempts - 1, 16));
        log.warn({ err, prefix: job.prefix, attempts }, 'file bytes not removed yet; will retry');
        await store.run('UPDATE file_jobs SET attempts = ?, run_at = ?, lease_until = NULL WHERE id = ?', [attempts, this.iso(delay), job.id]);
      }
    }
    return done;
  }

  /**
   * Removes bytes older than `orphanAgeMs` that no record holds (nor a queued removal: that job
   * does it). Returns the keys removed.
   */
  async sweep(): Promise<number> {
    const { store, bytes } = this.deps;
    const cutoff = this.deps.clock.now() - this.deps.orphanAgeMs;
    let removed = 0;
    for await (const object of bytes.list()) {
      if (object.modifiedAt > cutoff) continue;
      const owner = keyOwner(object.key);
      if (owner) {
        const kept = await store.get('SELECT 1 AS x FROM files WHERE database_id = ? AND id = ?', [owner.databaseId, owner.fileId]);
        if (kept) continue;
      }
      await bytes.removePrefix(object.key);
      removed++;
    }
    return removed;
  }
}
