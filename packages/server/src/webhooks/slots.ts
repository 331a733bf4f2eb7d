/** How many attempts an instance runs at once: in all, per database and per webhook. */
interface SlotLimits {
  total: number;
  perDatabase: number;
  perWebhook: number;
}

/** What one claim may take: rows to skip in SQL, and a `take` that books a slot within the plan. */
interface ClaimPlan {
  limit: number;
  skipWebhooks: string[];
  skipDatabases: string[];
  take(webhookId: string, databaseId: string): boolean;
}

const bump = (m: Map<string, number>, k: string, by: number) => {
  const n = (m.get(k) ?? 0) + by;
  if (n > 0) m.set(k, n);
  else m.delete(k);
};

/**
 * The attempts in flight of one instance, shared fairly between databases (API.md §4, third
 * version: receivers that hang for one database never delay another database's deliveries by
 * more than 5 s).
 *
 * - A database holds at most `perDatabase` slots (a quarter of the instance's by default), a
 *   webhook at most `perWebhook`: one database's hanging receivers cannot take the whole pool.
 * - Once the pool is full (several databases' receivers hanging at once), a database with no
 *   attempt in flight may still start one, over the pool. So a database never waits for another
 *   database's attempts to end: its next due delivery is claimed at the next claim (at once after
 *   its write, within the poll interval otherwise). Attempts in flight are then bounded by
 *   `total` plus one per database with due deliveries, and every one of them ends at the
 *   time-out (sender.ts).
 *
 * Attempts are never pre-empted: cutting a receiver off before its time-out would break "a 2xx
 * within the time-out succeeds".
 */
export class Slots {
  private readonly byWebhook = new Map<string, number>();
  private readonly byDatabase = new Map<string, number>();
  private count = 0;

  constructor(private readonly limits: SlotLimits) {}

  /** Attempts in flight. */
  get size(): number {
    return this.count;
  }

  plan(): ClaimPlan {
    const { total, perDatabase, perWebhook } = this.limits;
    const poolFull = this.count >= total;
    const bookedHooks = new Map<string, number>();
    const bookedDbs = new Map<string, number>();
    let booked = 0;
    return {
      limit: Math.max(1, total - this.count),
      skipWebhooks: [...this.byWebhook].filter(([, n]) => n >= perWebhook).map(([id]) => id),
      // A full pool leaves room only for databases with nothing in flight.
      skipDatabases: [...this.byDatabase].filter(([, n]) => poolFull || n >= perDatabase).map(([id]) => id),
      take: (webhookId, databaseId) => {
        const w = (this.byWebhook.get(webhookId) ?? 0) + (bookedHooks.get(webhookId) ?? 0);
        const d = (this.byDatabase.get(databaseId) ?? 0) + (bookedDbs.get(databaseId) ?? 0);
        if (w >= perWebhook || d >= perDatabase) return false;
        if (this.count + booked >= total && d > 0) return false;
        bump(bookedHooks, webhookId, 1);
        bump(bookedDbs, databaseId, 1);
        booked++;
        return true;
      },
    };
  }

  acquire(webhookId: string, databaseId: string): void {
    bump(this.byWebhook, webhookId, 1);
    bump(this.byDatabase, databaseId, 1);
    this.count++;
  }

  release(webhookId: string, databaseId: string): void {
    bump(this.byWebhook, webhookId, -1);
    bump(this.byDatabase, databaseId, -1);
    this.count--;
  }
}
