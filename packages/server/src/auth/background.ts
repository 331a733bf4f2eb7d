import type { FastifyBaseLogger } from 'fastify';

/**
 * Work that runs after the HTTP answer was sent (looking an account up and mailing a link), so
 * neither the answer nor its timing depends on whether the account exists or the mail went out.
 * Failures are logged; `drain` waits for what is in flight (on shutdown).
 */
export class Background {
  private readonly pending = new Set<Promise<void>>();
  constructor(private readonly log: FastifyBaseLogger) {}

  run(what: string, task: () => Promise<void>): void {
    const p: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(task)
      .catch((err: unknown) => this.log.error({ err }, `${what} failed`))
      .finally(() => this.pending.delete(p));
    this.pending.add(p);
  }

  async drain(): Promise<void> {
    while (this.pending.size) await Promise.allSettled([...this.pending]);
  }
}
