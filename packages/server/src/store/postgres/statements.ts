import { LRUCache } from 'lru-cache';
import { STATEMENT_CACHE } from '../statement-cache.ts';
import type { Param } from '../store.ts';

/** Rewrites each portable `?` placeholder (outside quoted literals and identifiers) as `placeholder(n)`, n from 1. */
function replacePlaceholders(sql: string, placeholder: (n: number) => string): string {
  let n = 0;
  let quote: string | null = null;
  let out = '';
  for (const ch of sql) {
    if (quote) {
      if (ch === quote) quote = null;
      out += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      out += ch;
    } else if (ch === '?') {
      out += placeholder(++n);
    } else {
      out += ch;
    }
  }
  return out;
}

/** Rewrites portable `?` placeholders as `$1, $2…` (outside quoted literals). Pure: no cache. */
export function toPgPlaceholders(sql: string): string {
  return replacePlaceholders(sql, (n) => `$${n}`);
}

/**
 * A statement with its parameters written in as SQL literals, for the simple-query protocol,
 * which takes several statements in one message (one round trip) but no parameters.
 */
export function withLiterals(sql: string, params: Param[]): string {
  return replacePlaceholders(sql, (n) => literal(params[n - 1]));
}

/** A parameter as an SQL literal (simple-query protocol). */
export function literal(value: Param | undefined): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (typeof value === 'bigint') return String(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`${value} is not a SQL number`);
    return `(${value})`;
  }
  return escapeLiteral(value);
}

/**
 * pg.escapeLiteral's output (quotes doubled; with a backslash, ` E'…'` and backslashes doubled), by
 * regular expressions: pg's own builds the literal one character at a time, and a group's
 * statement sent with its COMMIT carries tens of kilobytes of JSON.
 */
function escapeLiteral(value: string): string {
  const quoted = `'${value.includes("'") ? value.replace(/'/g, "''") : value}'`;
  return value.includes('\\') ? ` E${quoted.replace(/\\/g, '\\\\')}` : quoted;
}

const NAME_AFTER_USES = 3;
const MAX_NAMED = 500;
const MAX_NAMED_PARAMS = 32;
const MAX_TRACKED = 5000;

/**
 * The statement state of one store (one pool): the `$n` text of each portable statement, and
 * which statements have become named prepared statements.
 *
 * Statements that recur become named prepared statements, so PostgreSQL parses and plans them
 * once per connection instead of on every request. Only short text seen a few times is named:
 * dynamic SQL (filters) and multi-row writes stay unnamed; a generic plan for a bulk insert of
 * hundreds of rows measured several times slower than planning it each time. At most MAX_NAMED.
 * pg remembers per connection which names it has prepared, so a connection opened after an
 * outage prepares them again by itself.
 */
export class PgStatements {
  /** Bounded in bytes of text too (sqlite-store.ts, STATEMENT_CACHE): dynamic SQL is unbounded in count and long. */
  private readonly converted = new LRUCache<string, string>({ ...STATEMENT_CACHE, max: MAX_TRACKED, sizeCalculation: (v) => Math.max(1, v.length) });
  private readonly uses = new LRUCache<string, number>({ ...STATEMENT_CACHE, max: MAX_TRACKED, sizeCalculation: (_, k) => Math.max(1, k.length) });
  private readonly names = new Map<string, string>();

  /** The `$n` text of a `?` statement, converted once. */
  text(sql: string): string {
    let out = this.converted.get(sql);
    if (out === undefined) {
      out = toPgPlaceholders(sql);
      this.converted.set(sql, out);
    }
    return out;
  }

  /** The prepared-statement name for this text, once it has recurred; undefined: run it unnamed. */
  name(text: string, paramCount: number): string | undefined {
    if (paramCount > MAX_NAMED_PARAMS) return undefined;
    const named = this.names.get(text);
    if (named !== undefined || this.names.size >= MAX_NAMED) return named;
    const n = (this.uses.get(text) ?? 0) + 1;
    if (n < NAME_AFTER_USES) {
      this.uses.set(text, n);
      return undefined;
    }
    this.uses.delete(text);
    const name = `svc_${this.names.size + 1}`;
    this.names.set(text, name);
    return name;
  }
}
