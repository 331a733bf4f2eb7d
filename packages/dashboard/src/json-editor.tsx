import { useMemo } from 'preact/hooks';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type JsonObject = { [k: string]: Json };

/** Parses editor text as a JSON object, or says in words what is wrong. */
export function parseObject(text: string): { value?: JsonObject; error?: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { error: `Not valid JSON: ${(e as Error).message}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { error: 'A document must be a JSON object: { … }' };
  return { value: value as JsonObject };
}

const isPlain = (v: unknown): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The JSON Merge Patch (RFC 7396) that turns `from` into `to`: removed fields become null, nested
 * objects are diffed field by field, anything else changed is sent whole.
 */
export function mergePatchBetween(from: JsonObject, to: JsonObject): JsonObject {
  const patch: JsonObject = {};
  for (const k of Object.keys(from)) if (!(k in to)) patch[k] = null;
  for (const [k, v] of Object.entries(to)) {
    const before = from[k];
    if (isPlain(before) && isPlain(v)) {
      const inner = mergePatchBetween(before, v);
      if (Object.keys(inner).length) patch[k] = inner;
    } else if (JSON.stringify(before) !== JSON.stringify(v)) {
      patch[k] = v;
    }
  }
  return patch;
}

/** A JSON text area that checks its content as you type. */
export function JsonEditor({ label, value, onInput, rows = 14 }: { label: string; value: string; onInput: (v: string) => void; rows?: number }) {
  const { error } = useMemo(() => parseObject(value), [value]);
  const format = () => {
    const { value: v } = parseObject(value);
    if (v) onInput(JSON.stringify(v, null, 2));
  };
  return (
    <div class="json-editor">
      <label>{label}
        <textarea class="mono" rows={rows} spellcheck={false} value={value} aria-invalid={error ? 'true' : 'false'} aria-describedby="json-status"
          onInput={(e) => onInput(e.currentTarget.value)} />
      </label>
      <div class="row between">
        <span id="json-status" class={error ? 'error small' : 'ok small'} role="status">{error ?? 'Valid JSON object'}</span>
        <button type="button" class="small" onClick={format} disabled={Boolean(error)}>Format</button>
      </div>
    </div>
  );
}
