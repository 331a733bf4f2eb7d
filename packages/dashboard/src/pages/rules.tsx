import { useMemo, useState } from 'preact/hooks';
import { api, ApiCallError } from '../api.ts';
import { JsonEditor, parseObject } from '../json-editor.tsx';
import { ANY_COLLECTION, summarize } from '../rules-summary.ts';
import type { CollectionList, Database, ErrorDetail, RulesAnswer, RulesBody } from '../types.ts';
import { ErrorText, Loaded, useAction, useLoad, useToast } from '../ui.tsx';

/** A database's access rules (API.md §10): edited as JSON, checked by the server, summed up in words. */
export function RulesPage({ db }: { db: Database }) {
  const rules = useLoad(() => api<RulesAnswer>('GET', '/rules', { databaseId: db.id }), [db.id]);
  const collections = useLoad(() => api<CollectionList>('GET', '/collections', { databaseId: db.id }).then((r) => r.collections.map((c) => c.name)), [db.id]);
  return (
    <div class="page">
      <div class="page-head">
        <h1>Access rules</h1>
      </div>
      <p class="muted">
        What a request made with a <strong>public key</strong> may do with documents, per collection. Secret keys and this dashboard are not subject to rules. A
        collection's entry replaces <code>"*"</code> whole; an operation left out is refused.
      </p>
      <Loaded load={rules} what="Loading rules">
        {(r) => <RulesEditor key={db.id} db={db} initial={r.rules} collections={collections.data ?? []} />}
      </Loaded>
    </div>
  );
}

const pretty = (v: unknown) => JSON.stringify(v, null, 2);
/** Details name paths in the PUT body (`/rules/posts/read`); the editor holds what is under `/rules`. */
const inEditor = (path: string) => path.replace(/^\/rules(?=\/|$)/, '') || '/';

function RulesEditor({ db, initial, collections }: { db: Database; initial: RulesAnswer['rules']; collections: string[] }) {
  const [saved, setSaved] = useState(initial);
  const [text, setText] = useState(pretty(initial));
  const [problems, setProblems] = useState<ErrorDetail[]>([]);
  const act = useAction();
  const toast = useToast();
  const parsed = useMemo(() => parseObject(text, 'The rules'), [text]);
  const changed = parsed.value !== undefined && JSON.stringify(parsed.value) !== JSON.stringify(saved);

  const save = (e: Event) => {
    e.preventDefault();
    if (!parsed.value) return;
    setProblems([]);
    void act.run(async () => {
      try {
        const r = await api<RulesAnswer>('PUT', '/rules', { databaseId: db.id, body: { rules: parsed.value } satisfies RulesBody });
        setSaved(r.rules);
        setText(pretty(r.rules));
        toast.toast('Rules saved. They apply at once.');
      } catch (err) {
        // The server's details name each bad rule: shown beside the editor rather than in one line.
        if (err instanceof ApiCallError && err.code === 'invalid_rules' && err.details?.length) {
          setProblems(err.details);
          throw new ApiCallError(err.status, err.code, 'Not saved: the server refused these rules.');
        }
        throw err;
      }
    });
  };

  return (
    <div class="rules-layout">
      <form class="content" onSubmit={save}>
        <JsonEditor label="Rules (JSON)" what="The rules" value={text} onInput={setText} rows={18} />
        <ErrorText error={act.error} />
        {problems.length > 0 && (
          <ul class="problems" aria-label="Problems the server found">
            {problems.map((p, i) => (
              <li key={i}>
                <code>{inEditor(p.path)}</code> {p.message}
              </li>
            ))}
          </ul>
        )}
        <div class="actions">
          {changed && <span class="muted small">Unsaved changes</span>}
          <button
            type="button"
            disabled={!changed && !parsed.error}
            onClick={() => {
              setText(pretty(saved));
              setProblems([]);
              act.clear();
            }}
          >
            Revert
          </button>
          <button type="submit" class="primary" disabled={act.busy || Boolean(parsed.error)}>
            {act.busy ? 'Saving…' : 'Save rules'}
          </button>
        </div>
        <RuleForms />
      </form>
      <Summary rules={parsed.value} invalid={parsed.error !== undefined} collections={collections} />
      {toast.view}
    </div>
  );
}

/** Who can do what with one collection, from the rules as typed (saved or not). */
function Summary({ rules, invalid, collections }: { rules?: Record<string, unknown>; invalid: boolean; collections: string[] }) {
  const named = rules ? Object.keys(rules).filter((k) => k !== ANY_COLLECTION) : [];
  const choices = [...new Set([...named, ...collections])].sort();
  const [picked, setPicked] = useState<string>();
  const collection = picked !== undefined && (picked === ANY_COLLECTION || choices.includes(picked)) ? picked : (choices[0] ?? ANY_COLLECTION);
  const summary = rules ? summarize(rules, collection) : undefined;
  return (
    <aside class="side summary" aria-label="Summary">
      <h2>In plain words</h2>
      <label>
        Collection
        <select value={collection} onChange={(e) => setPicked(e.currentTarget.value)}>
          {choices.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
          <option value={ANY_COLLECTION}>any other collection (*)</option>
        </select>
      </label>
      {invalid || !summary ? (
        <p class="muted">Fix the JSON to see what it means.</p>
      ) : !summary.ok ? (
        <p class="error">{summary.error}</p>
      ) : (
        <>
          <p class="muted small">With a public key, as typed (saved or not). {summary.source}</p>
          <ul class="rule-lines" data-testid="rules-summary">
            {summary.lines.map((l) => (
              <li key={l.operation}>
                <strong>{l.label}:</strong> {l.who}
              </li>
            ))}
            {summary.defaults && <li key="defaults">{summary.defaults}</li>}
          </ul>
        </>
      )}
    </aside>
  );
}

function RuleForms() {
  return (
    <details class="card help">
      <summary>How to write a rule</summary>
      <p>
        Each collection (or <code>"*"</code>) has up to four operations, <code>read</code> (list, get, realtime), <code>create</code>, <code>update</code> and{' '}
        <code>delete</code>, each one of:
      </p>
      <ul>
        <li>
          <code>true</code>: anyone with the public key;
        </li>
        <li>
          <code>false</code>, or left out: nobody with the public key;
        </li>
        <li>
          <code>"signedIn"</code>: requests with a valid <code>X-Session-Token</code> of a user of this database;
        </li>
        <li>
          a filter, as in a list's <code>filter</code>, where <code>{'{"$auth": "id"}'}</code> (or <code>"email"</code>, <code>"emailVerified"</code>,{' '}
          <code>"appMetadata.…"</code>) stands for the signed-in user: <code>{'{"owner": {"$auth": "id"}}'}</code>.
        </li>
      </ul>
      <p>
        An entry may also hold <code>defaults</code>, fields a create with the public key fills in when it lacks them:{' '}
        <code>{'"defaults": {"owner": {"$auth": "id"}}'}</code>.
      </p>
      <p>
        With no rules ever set, a database behaves as <code>{'{"*": {"read": true}}'}</code>.
      </p>
    </details>
  );
}
