import { useEffect, useMemo, useRef } from 'preact/hooks';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { json, jsonParseLinter } from '@codemirror/lang-json';
import { bracketMatching, defaultHighlightStyle, foldGutter, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { lintGutter, linter } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import { EditorView, drawSelection, highlightActiveLine, keymap, lineNumbers } from '@codemirror/view';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type JsonFields = { [k: string]: Json };

/** Parses editor text as a JSON object, or says in words what is wrong (`what` names the object). */
export function parseObject(text: string, what = 'A document'): { value?: JsonFields; error?: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    const { line, column } = errorPlace(text, (e as Error).message);
    return { error: `Not valid JSON (line ${line}, column ${column}): ${(e as Error).message}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { error: `${what} must be a JSON object: { … }` };
  return { value: value as JsonFields };
}

/**
 * Where JSON.parse stopped, as line and column: V8 names the position in its message ("… at
 * position 12", sometimes "(line 2 column 3)"), or nothing when the text ended too early.
 */
function errorPlace(text: string, message: string): { line: number; column: number } {
  const lc = /line (\d+) column (\d+)/.exec(message);
  if (lc) return { line: Number(lc[1]), column: Number(lc[2]) };
  const at = /at position (\d+)/.exec(message);
  const pos = at ? Number(at[1]) : text.trimEnd().length;
  const before = text.slice(0, pos).split('\n');
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
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

/** The editor's look: the page's font and colours, a frame like the other inputs, `rows` lines high at least; it grows with its text. */
const theme = (rows: number) =>
  EditorView.theme({
    '&': { border: '1px solid var(--line)', borderRadius: '6px', background: 'var(--panel)', color: 'var(--text)', fontSize: '13px' },
    '&.cm-focused': { outline: '2px solid var(--focus)', outlineOffset: '1px' },
    '.cm-scroller': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', minHeight: `${rows * 1.45}em` },
    '.cm-gutters': { background: 'var(--bg)', borderRight: '1px solid var(--line)', color: 'var(--muted)' },
  });

/**
 * A JSON editor (CodeMirror 6): syntax highlighting, line numbers, bracket matching, folding,
 * undo, and the parse error marked at its line (gutter and underline) as well as said in words
 * under it, with its line and column. `value` is the text; typing calls `onInput`; a new `value`
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
  const { error } = useMemo(() => parseObject(value, what), [value, what]);

  useEffect(() => {
    // In a shadow root, CodeMirror's styles are constructed style sheets (adoptedStyleSheets), which
    // the dashboard's Content-Security-Policy (style-src 'self', no inline <style>) allows.
    const root = host.current!.shadowRoot ?? host.current!.attachShadow({ mode: 'open' });
    const v = new EditorView({
      root,
      parent: root,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          foldGutter(),
          lintGutter(),
          history(),
          drawSelection(),
          indentOnInput(),
          bracketMatching(),
          highlightActiveLine(),
          syntaxHighlighting(defaultHighlightStyle),
          json(),
          linter(jsonParseLinter(), { delay: 150 }),
          keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
          EditorView.lineWrapping,
          // aria-label, not aria-labelledby: ids do not reach into the shadow root.
          EditorView.contentAttributes.of({ 'aria-label': label, spellcheck: 'false' }),
          EditorView.updateListener.of((u) => {
            if (u.docChanged) latest.current(u.state.doc.toString());
          }),
          theme(rows),
        ],
      }),
    });
    view.current = v;
    return () => v.destroy();
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
