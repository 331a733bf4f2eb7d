import type { Param } from './store.ts';

/**
 * SQL fragments that carry their own parameters: `text` with a `?` per parameter, in order. A
 * fragment is built from others with the `sql` tag, so a parameter can never drift from its
 * placeholder (the alternative, pushing onto a shared array in the order the text happens to be
 * written, is what this replaces). Values become placeholders, never text, so the text of a query
 * depends only on its shape: the stores' prepared-statement caches keep serving it.
 *
 * Hand-written rather than a query builder (Kysely's `sql` tag is the model): twenty lines, and
 * the stores take `?` SQL and a parameter array as they are.
 *
 * @example
 *   const f = sql`(${raw(column)} >= ${low} AND ${raw(column)} < ${high})`;
 *   f.text;   // '(created_at >= ? AND created_at < ?)'
 *   f.params; // [low, high]
 */
export class Sql {
  constructor(
    readonly text: string,
    readonly params: readonly Param[],
  ) {}
}

/** A fragment from a template: an interpolated Sql is spliced in with its parameters, anything else is one bound parameter. */
export function sql(strings: TemplateStringsArray, ...values: Array<Sql | Param>): Sql {
  let text = strings[0];
  const params: Param[] = [];
  values.forEach((v, i) => {
    if (v instanceof Sql) {
      text += v.text;
      params.push(...v.params);
    } else {
      text += '?';
      params.push(v);
    }
    text += strings[i + 1];
  });
  return new Sql(text, params);
}

/** Trusted text with no parameters: a column, an alias, a dialect's spelling of a JSON path. */
export const raw = (text: string): Sql => new Sql(text, []);

/** A dialect's spelling whose `?` placeholders are `params`, in order (the JsonSql methods document theirs). */
export const bound = (text: string, ...params: Param[]): Sql => new Sql(text, params);

/** Fragments joined by a separator (` AND `, ` OR `, `, `). */
export function join(parts: readonly Sql[], separator: string): Sql {
  return new Sql(
    parts.map((p) => p.text).join(separator),
    parts.flatMap((p) => p.params),
  );
}

export const TRUE = raw('(1 = 1)');
export const FALSE = raw('(1 = 0)');
