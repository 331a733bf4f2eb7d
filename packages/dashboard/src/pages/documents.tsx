import { useEffect, useState } from 'preact/hooks';
import { api, ApiCallError } from '../api.ts';
import type { CollectionList, Database, Doc, DocPage, DocQuery } from '../types.ts';
import { navigate, useSearch } from '../router.ts';
import { JsonEditor, mergePatchBetween, parseObject, type JsonFields } from '../json-editor.tsx';
import { DocumentForm } from '../document-form.tsx';
import { Confirm, Dialog, Empty, ErrorText, Link, Loaded, useAction, useLoad, When } from '../ui.tsx';

const SYSTEM = ['id', 'createdAt', 'updatedAt'];
const FIELD = /^[A-Za-z_][A-Za-z0-9_]*$/;
type Sort = { by: DocQuery['sortBy']; order: NonNullable<DocQuery['sortOrder']> };

/** Collections with counts; a collection's documents in a paged, sortable, filterable table. */
export function DocumentsPage({ db, collection }: { db: Database; collection?: string }) {
  const collections = useLoad(() => api<CollectionList>('GET', '/collections', { databaseId: db.id }).then((r) => r.collections), [db.id, collection]);
  const [inserting, setInserting] = useState(false);
  const base = `/databases/${encodeURIComponent(db.id)}/documents`;
  return (
    <div class="page split">
      <aside class="side" aria-label="Collections">
        <div class="row between">
          <h2>Collections</h2>
          <button type="button" class="small" onClick={() => setInserting(true)}>
            New document
          </button>
        </div>
        <Loaded load={collections} empty={<p>No collections yet. A collection appears when its first document is inserted.</p>}>
          {(list) => (
            <ul class="collections">
              {list.map((c) => (
                <li key={c.name}>
                  <Link href={`${base}/${encodeURIComponent(c.name)}`} aria-current={c.name === collection ? 'page' : undefined}>
                    <span>{c.name}</span>
                    <span class="count">{c.count}</span>
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </Loaded>
      </aside>
      <section class="content">
        {collection ? (
          <CollectionView key={collection} db={db} collection={collection} onChanged={collections.reload} />
        ) : (
          <Empty>
            <p>Pick a collection on the left{collections.data?.length ? '' : ', or insert a first document'}.</p>
          </Empty>
        )}
      </section>
      {inserting && (
        <DocumentDialog
          db={db}
          collection={collection}
          onClose={() => setInserting(false)}
          onSaved={(c) => {
            collections.reload();
            navigate(`${base}/${encodeURIComponent(c)}`);
          }}
        />
      )}
    </div>
  );
}

/** A whole number from the URL, or the fallback. */
const intParam = (v: string | null, fallback: number) => (v !== null && /^\d{1,9}$/.test(v) ? Number(v) : fallback);
const PAGE_SIZES = [10, 20, 50, 100];

/**
 * A collection's documents. What the table shows lives in the URL (`?sortBy=score&sortOrder=desc&
 * filter=…&search=…&fields=title,score&limit=50&cursor=…&at=50`), so a view can be reloaded, shared
 * and walked with back and forward. "Next" follows the page's `nextCursor` (keyset paging: any depth
 * costs the same; `at` only numbers the rows); "Previous" goes back by offset.
 */
function CollectionView({ db, collection, onChanged }: { db: Database; collection: string; onChanged: () => void }) {
  const params = useSearch();
  const limit = PAGE_SIZES.includes(intParam(params.get('limit'), 20)) ? intParam(params.get('limit'), 20) : 20;
  const cursor = params.get('cursor') || undefined;
  const offset = cursor ? undefined : intParam(params.get('offset'), 0);
  const at = cursor ? intParam(params.get('at'), 0) : (offset ?? 0);
  const search = params.get('search') ?? '';
  const filter = params.get('filter') ?? '';
  const sortParam = params.get('sortBy') || undefined;
  // Without sortBy the server sorts by createdAt, or by relevance under a search.
  const sort: Sort = { by: sortParam ?? (search ? undefined : 'createdAt'), order: params.get('sortOrder') === 'desc' ? 'desc' : 'asc' };
  const chosen = params.has('fields') ? (params.get('fields') ?? '').split(',').filter((f) => f && !SYSTEM.includes(f)) : undefined;
  const [filterText, setFilterText] = useState(filter);
  const [searchText, setSearchText] = useState(search);
  useEffect(() => setFilterText(filter), [filter]);
  useEffect(() => setSearchText(search), [search]);
  const [filterError, setFilterError] = useState<string>();
  const [open, setOpen] = useState<Doc | 'new'>();
  const [deleting, setDeleting] = useState<Doc>();
  const opening = useAction();

  /** Changes the URL's view state; a new sort, filter, search or page size starts again at the first page. */
  const show = (changes: Record<string, string | undefined>, keepPage = false) => {
    const next = new URLSearchParams(location.search);
    if (!keepPage) for (const k of ['offset', 'cursor', 'at']) next.delete(k);
    for (const [k, v] of Object.entries(changes)) {
      if (v === undefined || v === '') next.delete(k);
      else next.set(k, v);
    }
    const query = next.toString();
    navigate(location.pathname + (query ? `?${query}` : ''));
  };

  const page = useLoad(
    () =>
      api<DocPage>('GET', `/${encodeURIComponent(collection)}/docs`, {
        databaseId: db.id,
        query: {
          limit,
          offset: offset || undefined,
          cursor,
          sortBy: sortParam,
          sortOrder: sort.order,
          filter: filter || undefined,
          search: search || undefined,
          fields: chosen ? ['id', ...chosen].join(',') : undefined,
        },
      }),
    [db.id, collection, limit, offset, cursor, sortParam, sort.order, filter, search, chosen?.join(',')],
  );
  // The fields the column picker offers: those of a sample of whole documents, and any chosen.
  const sample = useLoad(
    () => api<DocPage>('GET', `/${encodeURIComponent(collection)}/docs`, { databaseId: db.id, query: { limit: 50 } }),
    [db.id, collection],
  );
  const seen = (docs: Doc[] | undefined) => (docs ?? []).flatMap((d) => Object.keys(d).filter((k) => !SYSTEM.includes(k)));
  const offered = [...new Set([...seen(sample.data?.documents), ...(chosen ?? [])])];
  const fields = chosen ?? [...new Set(seen(page.data?.documents))].slice(0, 6);
  const columns = ['id', ...fields, 'updatedAt'];
  const toggleColumn = (field: string, on: boolean) => {
    const next = on ? [...fields, field] : fields.filter((f) => f !== field);
    // `fields` may change between pages of a cursor: the page stays.
    show({ fields: next.length ? next.join(',') : 'id' }, true);
  };
  const sortBy = (col: string) =>
    show(sort.by === col ? { sortBy: col, sortOrder: sort.order === 'asc' ? 'desc' : undefined } : { sortBy: col, sortOrder: undefined });
  const applyFilter = (e: Event) => {
    e.preventDefault();
    const text = filterText.trim();
    if (text) {
      const parsed = parseObject(text);
      if (parsed.error) return setFilterError(`The filter must be a JSON object, like {"status":"open","score":{"$gte":10}}. ${parsed.error}`);
    }
    setFilterError(undefined);
    show({ filter: text ? JSON.stringify(JSON.parse(text)) : undefined });
  };
  const applySearch = (e: Event) => {
    e.preventDefault();
    show({ search: searchText.trim() || undefined });
  };
  const openDocument = (d: Doc) =>
    // A projected row lacks fields: the editor gets the whole document.
    chosen
      ? void opening.run(async () =>
          setOpen(await api<Doc>('GET', `/${encodeURIComponent(collection)}/docs/${encodeURIComponent(d.id)}`, { databaseId: db.id })),
        )
      : setOpen(d);
  const reload = () => {
    page.reload();
    onChanged();
  };

  return (
    <div>
      <div class="page-head">
        <h1>{collection}</h1>
        <button type="button" class="primary" onClick={() => setOpen('new')}>
          Insert document
        </button>
      </div>
      <form class="filter row" onSubmit={applySearch} role="search" aria-label="Full-text search">
        <label class="grow">
          Search <span class="muted">(words in the collection's search fields, set on the Settings page)</span>
          <input name="search" type="search" value={searchText} onInput={(e) => setSearchText(e.currentTarget.value)} placeholder="words to find" />
        </label>
        <button type="submit">Search</button>
        {search && (
          <button type="button" onClick={() => show({ search: undefined })}>
            Clear search
          </button>
        )}
      </form>
      <form class="filter row" onSubmit={applyFilter} role="search" aria-label="Document filter">
        <label class="grow">
          Filter{' '}
          <span class="muted">
            (MongoDB-style JSON: <code>$eq $ne $gt $gte $lt $lte $in $nin $exists $and $or</code>)
          </span>
          <input
            class="mono"
            name="filter"
            value={filterText}
            onInput={(e) => setFilterText(e.currentTarget.value)}
            placeholder='{"status":"open","score":{"$gte":10}}'
            spellcheck={false}
          />
        </label>
        <button type="submit">Apply</button>
        {filter && (
          <button type="button" onClick={() => show({ filter: undefined })}>
            Clear
          </button>
        )}
      </form>
      <ErrorText error={filterError} />
      <details class="columns">
        <summary>Columns</summary>
        <fieldset>
          <legend class="visually-hidden">Columns to show</legend>
          {offered.length === 0 && <p class="muted">No fields yet.</p>}
          {offered.map((f) => (
            <label key={f} class="inline">
              <input type="checkbox" checked={fields.includes(f)} onChange={(e) => toggleColumn(f, e.currentTarget.checked)} /> {f}
            </label>
          ))}
          {chosen && (
            <button type="button" class="small" onClick={() => show({ fields: undefined }, true)}>
              Default columns
            </button>
          )}
        </fieldset>
      </details>
      <ErrorText error={opening.error} />
      <Loaded
        load={page}
        what="Loading documents"
        isEmpty={(p) => p.documents.length === 0 && at === 0}
        empty={<p>{filter || search ? 'No document matches.' : 'This collection is empty.'}</p>}
      >
        {(data) => (
          <>
            <div class="table-wrap" aria-busy={page.loading}>
              <table class="docs">
                <thead>
                  <tr>
                    {columns.map((c) => {
                      const sortable = SYSTEM.includes(c) || FIELD.test(c);
                      const active = sort.by === c;
                      return (
                        <th key={c} aria-sort={active ? (sort.order === 'asc' ? 'ascending' : 'descending') : undefined}>
                          {sortable ? (
                            <button type="button" class="sort" onClick={() => sortBy(c)}>
                              {c}
                              {active ? (sort.order === 'asc' ? ' ▲' : ' ▼') : ''}
                            </button>
                          ) : (
                            c
                          )}
                        </th>
                      );
                    })}
                    <th>
                      <span class="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.documents.map((d) => (
                    <tr key={d.id}>
                      {columns.map((c) => (
                        <td key={c} class={c === 'id' ? 'mono' : ''} data-label={c}>
                          {c === 'updatedAt' ? <When at={d.updatedAt} /> : <Cell value={d[c]} />}
                        </td>
                      ))}
                      <td class="row-actions">
                        <button type="button" onClick={() => openDocument(d)} aria-label={`Open ${d.id}`}>
                          Open
                        </button>
                        <button type="button" class="danger" onClick={() => setDeleting(d)} aria-label={`Delete ${d.id}`}>
                          Delete
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <div class="row between">
              <label class="inline">
                Per page
                <select value={limit} onChange={(e) => show({ limit: e.currentTarget.value === '20' ? undefined : e.currentTarget.value })}>
                  {PAGE_SIZES.map((n) => (
                    <option key={n} value={n}>
                      {n}
                    </option>
                  ))}
                </select>
              </label>
              <nav class="pager" aria-label="Pages">
                <span class="muted">{data.total === 0 ? 'None' : `${at + 1}–${at + data.documents.length} of ${data.total}`}</span>
                <button
                  type="button"
                  disabled={at === 0}
                  onClick={() => show({ offset: at - limit > 0 ? String(at - limit) : undefined, cursor: undefined, at: undefined }, true)}
                >
                  ‹ Previous
                </button>
                <button
                  type="button"
                  disabled={!data.nextCursor}
                  onClick={() => show({ cursor: data.nextCursor ?? undefined, at: String(at + data.documents.length), offset: undefined }, true)}
                >
                  Next ›
                </button>
              </nav>
            </div>
          </>
        )}
      </Loaded>
      {open && <DocumentDialog db={db} collection={collection} doc={open === 'new' ? undefined : open} onClose={() => setOpen(undefined)} onSaved={reload} />}
      {deleting && (
        <Confirm
          title="Delete document"
          action="Delete"
          danger
          onClose={() => setDeleting(undefined)}
          onConfirm={async () => {
            await api('DELETE', `/${encodeURIComponent(collection)}/docs/${encodeURIComponent(deleting.id)}`, { databaseId: db.id });
            reload();
          }}
        >
          <p>
            Delete <code>{deleting.id}</code> from <strong>{collection}</strong>? Webhooks and realtime clients see a <code>document.deleted</code> event.
          </p>
        </Confirm>
      )}
    </div>
  );
}

function Cell({ value }: { value: unknown }) {
  if (value === undefined) return <span class="muted">—</span>;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return (
    <span class={typeof value === 'string' ? '' : 'mono'} title={text.length > 60 ? text : undefined}>
      {text.length > 60 ? `${text.slice(0, 60)}…` : text}
    </span>
  );
}

/** View and edit one document (or insert a new one) as JSON. */
function DocumentDialog({
  db,
  collection,
  doc,
  onClose,
  onSaved,
}: {
  db: Database;
  collection?: string;
  doc?: Doc;
  onClose: () => void;
  onSaved: (collection: string) => void;
}) {
  const fieldsOf = (d: Doc) => Object.fromEntries(Object.entries(d).filter(([k]) => !SYSTEM.includes(k))) as JsonFields;
  // What the edit is made against: the document as read when the dialog opened, and its version
  // (API.md §1.2), sent back as If-Match so a save never silently overwrites someone else's change.
  const [base, setBase] = useState<{ fields: JsonFields; version?: string }>({ fields: doc ? fieldsOf(doc) : {} });
  const [text, setText] = useState(JSON.stringify(base.fields, null, 2));
  const [target, setTarget] = useState(collection ?? '');
  const [asForm, setAsForm] = useState(false);
  const [conflict, setConflict] = useState<{ version: string; document: Doc } | undefined>();
  const act = useAction();
  const parsed = parseObject(text);
  const docPath = doc && `/${encodeURIComponent(target.trim())}/docs/${encodeURIComponent(doc.id)}`;
  /** Reads the document as it is now, with its version; `replace`: also into the editor. */
  const readCurrent = async (replace: boolean) => {
    let version: string | undefined;
    const current = await api<Doc>('GET', docPath!, { databaseId: db.id, onEtag: (etag) => (version = etag?.replace(/"/g, '')) });
    setBase({ fields: fieldsOf(current), version });
    if (replace) setText(JSON.stringify(fieldsOf(current), null, 2));
  };
  useEffect(() => {
    if (doc) void act.run(() => readCurrent(true));
  }, []);
  const loadNewVersion = () => {
    setConflict(undefined);
    void act.run(() => readCurrent(true));
  };
  const save = (e: Event) => {
    e.preventDefault();
    if (!parsed.value) return;
    void act.run(async () => {
      const name = target.trim();
      if (doc) {
        if (base.version === undefined) throw new Error('The document has not been read yet; try again');
        const patch = mergePatchBetween(base.fields, parsed.value!);
        try {
          if (Object.keys(patch).length) await api('PATCH', docPath!, { databaseId: db.id, body: patch, headers: { 'if-match': `"${base.version}"` } });
        } catch (err) {
          if (err instanceof ApiCallError && err.status === 412) {
            const current = (err.body as { document?: Doc } | undefined)?.document;
            if (current) setConflict({ version: err.etag?.replace(/"/g, '') ?? '?', document: current });
            return;
          }
          throw err;
        }
      } else {
        await api('POST', `/${encodeURIComponent(name)}/docs`, { databaseId: db.id, body: parsed.value });
      }
      onSaved(name);
      onClose();
    });
  };
  return (
    <Dialog title={doc ? `Document ${doc.id}` : 'Insert document'} onClose={onClose} wide>
      <form onSubmit={save}>
        {doc ? (
          <dl class="meta">
            <dt>id</dt>
            <dd class="mono">{doc.id}</dd>
            <dt>created</dt>
            <dd>{doc.createdAt}</dd>
            <dt>updated</dt>
            <dd>{doc.updatedAt}</dd>
          </dl>
        ) : (
          <label>
            Collection
            <input
              name="collection"
              required
              value={target}
              onInput={(e) => setTarget(e.currentTarget.value)}
              pattern="[A-Za-z][A-Za-z0-9_\-]{0,63}"
              placeholder="posts"
              autoFocus={!collection}
            />
          </label>
        )}
        <div class="row segmented" role="tablist" aria-label="Edit as">
          <button type="button" role="tab" class={asForm ? 'small' : 'small primary'} aria-selected={!asForm} onClick={() => setAsForm(false)}>
            JSON
          </button>
          <button
            type="button"
            role="tab"
            class={asForm ? 'small primary' : 'small'}
            aria-selected={asForm}
            disabled={!parsed.value}
            title={parsed.value ? undefined : 'Fix the JSON first'}
            onClick={() => setAsForm(true)}
          >
            Form
          </button>
        </div>
        {asForm && parsed.value ? (
          <DocumentForm fields={parsed.value} onChange={(f) => setText(JSON.stringify(f, null, 2))} />
        ) : (
          <JsonEditor label={doc ? 'Fields (removing a field deletes it)' : 'Fields (an "id" of your own is optional)'} value={text} onInput={setText} />
        )}
        {conflict && (
          <div role="alert" class="conflict">
            <p>
              Not saved: this document was changed by someone else since you opened it. It is now at version <span class="mono">{conflict.version}</span>{' '}
              (updated {conflict.document.updatedAt}):
            </p>
            <pre class="mono">{JSON.stringify(fieldsOf(conflict.document), null, 2)}</pre>
            <button type="button" onClick={loadNewVersion}>
              Load the new version
            </button>
          </div>
        )}
        <ErrorText error={act.error} />
        <div class="actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" class="primary" disabled={act.busy || Boolean(parsed.error)}>
            {act.busy ? 'Saving…' : doc ? 'Save changes' : 'Insert'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
