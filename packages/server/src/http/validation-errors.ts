import type { ErrorDetail } from '../errors.ts';

/**
 * Ajv's errors as details a person can act on. A union (`anyOf`) that fails gives one error per
 * branch plus one for the union ("must be equal to constant" ×2, "must match a schema in anyOf"):
 * those become one detail per path naming what is allowed ("must be `asc` or `desc`"); a nullable
 * field's "must be null" branch is folded in the same way, so the error teaches.
 * Hand-written: ajv-errors would need a message in every schema, and these are the union's own terms.
 */
export interface AjvError {
  keyword: string;
  instancePath: string;
  message?: string;
  params?: Record<string, unknown>;
}

const pathOf = (e: AjvError): string =>
  (e.instancePath || '/').replace(/^\/?/, '/') +
  (e.params && 'missingProperty' in e.params ? `${e.instancePath ? '/' : ''}${String(e.params.missingProperty)}` : '');

/** `a`, `a` or `b`, `a`, `b` or `c`. */
const alternatives = (values: unknown[]): string => {
  const shown = values.map((v) => `\`${typeof v === 'string' ? v : JSON.stringify(v)}\``);
  return shown.length <= 1 ? (shown[0] ?? '') : `${shown.slice(0, -1).join(', ')} or ${shown.at(-1)}`;
};

export function teachingDetails(errors: AjvError[]): ErrorDetail[] {
  const unions = new Set(errors.filter((e) => e.keyword === 'anyOf').map(pathOf));
  const details: ErrorDetail[] = [];
  const folded = new Set<string>();
  for (const e of errors) {
    const path = pathOf(e);
    if (e.keyword === 'enum' && Array.isArray(e.params?.allowedValues)) {
      details.push({ path, message: `must be ${alternatives(e.params.allowedValues)}` });
      continue;
    }
    if (!unions.has(path)) {
      details.push({ path, message: e.message ?? 'is invalid' });
      continue;
    }
    if (folded.has(path)) continue;
    folded.add(path);
    const here = errors.filter((x) => pathOf(x) === path && x.keyword !== 'anyOf');
    const consts = here.filter((x) => x.keyword === 'const').map((x) => x.params?.allowedValue);
    const nullable = here.some((x) => x.keyword === 'type' && x.params?.type === 'null');
    const others = here.filter((x) => x.keyword !== 'const' && !(x.keyword === 'type' && x.params?.type === 'null'));
    if (consts.length) details.push({ path, message: `must be ${alternatives(nullable ? [...consts, null] : consts)}` });
    else for (const x of others.length ? others : here) details.push({ path, message: `${x.message ?? 'is invalid'}${nullable ? ', or null' : ''}` });
  }
  return details;
}
