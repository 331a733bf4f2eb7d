import { useMemo } from 'preact/hooks';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type JsonFields = { [k: string]: Json };

/** Parses editor text as a JSON object, or says in words what is wrong (`what` names the object). */
export function parseObject(text: string, what = 'A document'): { value?: JsonFields; error?: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { error: `Not valid JSON: ${(e as Error).message}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { error: `${what} must be a JSON object: { … }` };
  return { value: value as JsonFields };
}

const isPlain = (v: unknown): v is JsonFields => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The JSON Merge Patch (RFC 7396) that turns `from` into `to`: removed fields become null, nested
 * objects are diffed field by field, anything else changed is sent whole.
 */
export function mergePatchBetween(from: JsonFields, to: JsonFields): JsonFields {
  const patch: JsonFields = {};
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

/** A JSON text area that checks its content as you type; `what` names the object in messages. */
export function JsonEditor({
  label,
  value,
  onInput,
  rows = 14,
  what,
}: {
  label: string;
  value: string;
  onInput: (v: string) => void;
  rows?: number;
  what?: string;
}) {
  const { error } = useMemo(() => parseObject(value, what), [value, what]);
  const format = () => {
    const { value: v } = parseObject(value, what);
    if (v) onInput(JSON.stringify(v, null, 2));
  };
  return (
    <div class="json-editor">
      <label>
        {label}
        <textarea
          class="mono"
          rows={rows}
          spellcheck={false}
          value={value}
          aria-invalid={error ? 'true' : 'false'}
          aria-describedby="json-status"
          onInput={(e) => onInput(e.currentTarget.value)}
        />
      </label>
      <div class="row between">
        <span id="json-status" class={error ? 'error small' : 'ok small'} role="status">
          {error ?? 'Valid JSON object'}
        </span>
        <button type="button" class="small" onClick={format} disabled={Boolean(error)}>
          Format
        </button>
      </div>
    </div>
  );
}
