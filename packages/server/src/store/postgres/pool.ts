import pg from 'pg';
import type { StoreTimeouts } from '../timeouts.ts';

/**
 * int8 (count(*), BIGINT columns) arrives from PostgreSQL as text, because it can exceed 2^53.
 * Every int8 svc reads is a count or a counter far below that, so it becomes a number here, once,
 * for every feature; a value past 2^53 fails the query instead of silently losing precision
 * (event ids, which may in principle grow that far, are selected as text: changes/*.ts).
 * Set on this store's own type table, never on pg's global one.
 */
function parseInt8(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw new RangeError(`int8 value ${text} is beyond 2^53: select it as text`);
  return n;
}

/** The type parsers of svc's pools: pg's defaults, with int8 as a number. */
function storeTypes(): pg.CustomTypesConfig {
  const types = new pg.TypeOverrides();
  types.setTypeParser(pg.types.builtins.INT8, parseInt8);
  return types;
}

/**
 * Connection settings that bound every wait, so a PostgreSQL that is down or frozen yields an
 * error (then a 503) instead of a hang:
 * - connectionTimeoutMillis: opening a connection, and waiting for a free pooled one;
 * - statement_timeout (server side) and query_timeout (client side, a second later: a frozen
 *   network answers nothing, not even the server's cancellation);
 * - idle_in_transaction_session_timeout: the server ends a transaction whose client went quiet,
 *   so its locks don't outlive an instance that froze mid-transaction;
 * - TCP keepalive: a connection whose peer vanished is noticed even while idle.
 * And `jit = off`: a list filter with arrays (§1.1) is a long expression the planner costs high
 * enough to JIT-compile, which took seconds for a 160-row scan (compiling, not running); svc's
 * statements are short OLTP ones that JIT never pays back.
 * A client whose query failed this way is discarded by the pool (release with the error), so
 * the pool heals by itself once the server is back.
 */
export function poolConfig(connectionString: string, timeouts: StoreTimeouts): pg.PoolConfig {
  return {
    connectionString,
    max: 20,
    types: storeTypes(),
    connectionTimeoutMillis: timeouts.connectMs,
    statement_timeout: timeouts.statementMs,
    query_timeout: timeouts.statementMs + 1000,
    idle_in_transaction_session_timeout: timeouts.statementMs * 2,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    options: '-c jit=off',
  };
}

/** A connection for slow maintenance (migrations, index builds): the same types and connect time-out, no statement time-outs. */
export function maintenanceConfig(connectionString: string, timeouts: StoreTimeouts): pg.ClientConfig {
  return { connectionString, types: storeTypes(), connectionTimeoutMillis: timeouts.connectMs, keepAlive: true, keepAliveInitialDelayMillis: 10_000 };
}
