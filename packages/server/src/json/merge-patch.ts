/** A JSON object. */
export type JsonObject = { [key: string]: unknown };

export const isObject = (v: unknown): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * RFC 7396 JSON Merge Patch: nested objects merge, `null` removes a field, anything else
 * replaces. Returns a new object; inputs are not modified. Keys are data: a key such as
 * `constructor` or `__proto__` is read and written as an own property only, never through
 * Object.prototype (callers refuse `__proto__` anyway).
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const out: JsonObject = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else
      Object.defineProperty(out, key, {
        value: mergePatch(Object.hasOwn(out, key) ? out[key] : undefined, value),
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  return out;
}
