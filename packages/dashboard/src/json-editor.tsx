import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { EditorView } from '@codemirror/view';
import type { ErrorPlace } from './code-editor.ts';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type JsonFields = { [k: string]: Json };

/** Parses editor text as a JSON object, or says in words what is wrong (`what` names the object). */
export function parseObject(text: string, what = 'A document'): { value?: JsonFields; error?: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    const place = errorPlace((e as Error).message);
    return { error: `Not valid JSON${place ? ` (line ${place.line}, column ${place.column})` : ''}: ${(e as Error).message}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { error: `${what} must be a JSON object: { … }` };
  return { value: value as JsonFields };
}

/** Where JSON.parse stopped, when its message says ("… (line 2 column 3)"); the editor finds it otherwise. */
function errorPlace(message: string): { line: number; column: number } | undefined {
  const lc = /line (\d+) column (\d+)/.exec(message);
  return lc ? { line: Number(lc[1]), column: Number(lc[2]) } : undefined;
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

/**
 * A JSON editor (CodeMirror 6, loaded with the first one: code-editor.ts): syntax highlighting,
 * line numbers, bracket matching, folding, undo, and the parse error marked at its place (gutter
 * and underline) as well as said in words under it, with its line and column. `value` is the text; typing calls `onInput`; a new `value`
 * from outside (Format, the form view) replaces the text. `what` names the object in messages.
 */
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
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView>();
  const latest = useRef(onInput);
  latest.current = onInput;
  const latestValue = useRef(value);
  latestValue.current = value;
  const parsed = useMemo(() => parseObject(value, what), [value, what]);
  // Where the editor's JSON grammar found the error, when JSON.parse's message does not say.
  const [place, setPlace] = useState<ErrorPlace | null>(null);
  const error =
    parsed.error && place && !parsed.error.startsWith('Not valid JSON (')
      ? parsed.error.replace('Not valid JSON', `Not valid JSON (line ${place.line}, column ${place.column})`)
      : parsed.error;

  useEffect(() => {
    // CodeMirror is loaded with the first editor (its own chunk): pages without one never fetch it.
    let v: EditorView | undefined;
    let gone = false;
    void import('./code-editor.ts').then(({ jsonView }) => {
      if (gone) return;
      v = jsonView(host.current!, { doc: latestValue.current, label, rows, onChange: (text) => latest.current(text), onError: setPlace });
      view.current = v;
    });
    return () => {
      gone = true;
      v?.destroy();
    };
  }, []);

  // A value set from outside (Format, the form view): replace the text, keeping what was typed otherwise.
  useEffect(() => {
    const v = view.current;
    if (v && v.state.doc.toString() !== value) v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: value } });
  }, [value]);

  const format = () => {
    const { value: v } = parseObject(value, what);
    if (v) onInput(JSON.stringify(v, null, 2));
  };
  return (
    <div class="json-editor">
      <span class="label" aria-hidden="true">
        {label}
      </span>
      <div ref={host} class="code" data-invalid={error ? 'true' : 'false'} />
      <div class="row between">
        <span class={error ? 'error small' : 'ok small'} role="status">
          {error ?? 'Valid JSON object'}
        </span>
        <button type="button" class="small" onClick={format} disabled={Boolean(error)}>
          Format
        </button>
      </div>
    </div>
  );
}
