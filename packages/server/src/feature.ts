import type { FastifyInstance } from 'fastify';

/**
 * The shape of every feature (documents, auth, realtime, webhooks, admin, …): a `createX(deps)`
 * factory builds its services once and returns this. `app.ts` registers the routes of every
 * feature in one list, starts them when the app is ready and stops them, in reverse order, when
 * it closes. A feature never adds its own `onClose` hook or timer: timers go through `Jobs`.
 */
export interface Feature {
  /** Registers the feature's routes (and any hooks it needs) on the app. */
  routes(app: FastifyInstance): void;
  /** Starts background work once the app is ready (dispatchers, pollers). */
  start?(): void | Promise<void>;
  /**
   * Ends long-lived connections (WebSockets) as the app begins to close: the HTTP server's close
   * waits for every open connection, so these must go first. Background work stops in `stop`.
   */
  closing?(): void | Promise<void>;
  /** Stops background work and releases resources; awaited on close. */
  stop?(): Promise<void>;
}
