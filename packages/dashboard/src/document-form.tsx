import { useState } from 'preact/hooks';
import type { JsonFields } from './json-editor.tsx';

type Json = JsonFields[string];
const TYPES = ['text', 'number', 'true/false', 'null', 'JSON'] as const;
type Kind = (typeof TYPES)[number];
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const SYSTEM = ['createdAt', 'updatedAt'];

const kindOf = (v: Json): Kind =>
  typeof v === 'string' ? 'text' : typeof v === 'number' ? 'number' : typeof v === 'boolean' ? 'true/false' : v === null ? 'null' : 'JSON';

/** The value a field gets when its type is changed to `kind`, keeping what can be kept. */
function convert(v: Json, kind: Kind): Json {
  if (kind === 'text') return typeof v === 'string' ? v : v === null ? '' : JSON.stringify(v);
  if (kind === 'number') return Number.isFinite(Number(v)) && v !== '' && v !== null && typeof v !== 'object' ? Number(v) : 0;
  if (kind === 'true/false') return v === true || v === 'true';
  if (kind === 'null') return null;
  return typeof v === 'object' && v !== null ? v : {};
}

/** A nested value typed as JSON: it reaches the document only once it parses. */
function JsonField({ name, value, onChange }: { name: string; value: Json; onChange: (v: Json) => void }) {
  const [text, setText] = useState(JSON.stringify(value));
  const [error, setError] = useState<string>();
  return (
    <>
      <input
        class="mono"
        name={`field-${name}`}
        aria-label={name}
        aria-invalid={error ? 'true' : 'false'}
        value={text}
        spellcheck={false}
        onInput={(e) => {
          const t = e.currentTarget.value;
          setText(t);
          try {
            onChange(JSON.parse(t) as Json);
            setError(undefined);
          } catch {
            setError('Not valid JSON: the document keeps the last valid value');
          }
        }}
      />
      {error && <span class="error small">{error}</span>}
    </>
  );
}

/** One field's input, by the type of its value. */
function FieldInput({ name, value, onChange }: { name: string; value: Json; onChange: (v: Json) => void }) {
  if (typeof value === 'string')
    // Several lines: a text area (only a value with a line break, so typing never swaps the input).
    return value.includes('\n') ? (
      <textarea name={`field-${name}`} aria-label={name} rows={3} value={value} onInput={(e) => onChange(e.currentTarget.value)} />
    ) : (
      <input name={`field-${name}`} aria-label={name} value={value} onInput={(e) => onChange(e.currentTarget.value)} />
    );
  if (typeof value === 'number')
    return (
      <input
        type="number"
        step="any"
        name={`field-${name}`}
        aria-label={name}
        value={value}
        // An empty or half-typed number keeps the last one.
        onInput={(e) => e.currentTarget.value !== '' && Number.isFinite(e.currentTarget.valueAsNumber) && onChange(e.currentTarget.valueAsNumber)}
      />
    );
  if (typeof value === 'boolean')
    return (
      <label class="check">
        <input type="checkbox" name={`field-${name}`} aria-label={name} checked={value} onChange={(e) => onChange(e.currentTarget.checked)} /> {String(value)}
      </label>
    );
  if (value === null) return <span class="muted mono">null</span>;
  return <JsonField name={name} value={value} onChange={onChange} />;
}

/**
 * The form view of a document: one row per top-level field with an input for its type (text,
 * number, true/false, null, or JSON for objects and lists), its type to change, and a button to
 * remove it; a new field is added by name. Every change goes to `onChange` as the whole object
 * (the dialog keeps it as the JSON text, so both views show the same document).
 */
export function DocumentForm({ fields, onChange }: { fields: JsonFields; onChange: (f: JsonFields) => void }) {
  const [name, setName] = useState('');
  const problem = !name
    ? undefined
    : !FIELD_NAME.test(name)
      ? 'Letters, digits and _ , not starting with a digit'
      : name in fields
        ? 'There is such a field'
        : SYSTEM.includes(name)
          ? 'Set by the server'
          : undefined;
  const set = (k: string, v: Json) => onChange({ ...fields, [k]: v });
  const add = () => {
    if (!name || problem) return;
    onChange({ ...fields, [name]: '' });
    setName('');
  };
  return (
    <div class="doc-form">
      {Object.keys(fields).length === 0 && <p class="muted">No fields yet: add one below.</p>}
      {Object.entries(fields).map(([k, v]) => (
        <div class="doc-field" key={k}>
          <span class="name mono">{k}</span>
          <div class="value">
            <FieldInput name={k} value={v} onChange={(nv) => set(k, nv)} />
          </div>
          <select aria-label={`Type of ${k}`} value={kindOf(v)} onChange={(e) => set(k, convert(v, e.currentTarget.value as Kind))}>
            {TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
          <button
            type="button"
            class="small"
            aria-label={`Remove ${k}`}
            onClick={() => {
              const { [k]: _gone, ...rest } = fields;
              onChange(rest);
            }}
          >
            Remove
          </button>
        </div>
      ))}
      <div class="row add-field">
        <input
          name="newField"
          aria-label="New field name"
          placeholder="new field name"
          value={name}
          onInput={(e) => setName(e.currentTarget.value.trim())}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              add();
            }
          }}
        />
        <button type="button" class="small" onClick={add} disabled={!name || Boolean(problem)}>
          Add field
        </button>
        {problem && <span class="error small">{problem}</span>}
      </div>
    </div>
  );
}
