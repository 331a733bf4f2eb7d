import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import type { CollectionList, Database, Doc, DocPage, DocQuery } from '../types.ts';
import { navigate } from '../router.ts';
import { JsonEditor, mergePatchBetween, parseObject, type JsonFields } from '../json-editor.tsx';
import { Confirm, Dialog, Empty, ErrorText, Link, Loaded, Pager, useAction, useLoad, When } from '../ui.tsx';

const SYSTEM = ['id', 'createdAt', 'updatedAt'];
const FIELD = /^[A-Za-z_][A-Za-z0-9_]*$/;
type Sort = { by: DocQuery['sortBy']; order: DocQuery['sortOrder'] };

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

function CollectionView({ db, collection, onChanged }: { db: Database; collection: string; onChanged: () => void }) {
  const [limit, setLimit] = useState(20);
  const [offset, setOffset] = useState(0);
  const [sort, setSort] = useState<Sort>({ by: 'createdAt', order: 'asc' });
  const [filterText, setFilterText] = useState('');
  const [filter, setFilter] = useState('');
  const [filterError, setFilterError] = useState<string>();
  const [open, setOpen] = useState<Doc | 'new'>();
  const [deleting, setDeleting] = useState<Doc>();
  const page = useLoad(
    () =>
      api<DocPage>('GET', `/${encodeURIComponent(collection)}/docs`, {
        databaseId: db.id,
        query: { limit, offset, sortBy: sort.by, sortOrder: sort.order, filter: filter || undefined },
      }),
    [db.id, collection, limit, offset, sort.by, sort.order, filter],
  );

  const fields = [...new Set((page.data?.documents ?? []).flatMap((d) => Object.keys(d).filter((k) => !SYSTEM.includes(k))))].slice(0, 6);
  const columns = ['id', ...fields, 'updatedAt'];
  const sortBy = (col: string) => {
    setOffset(0);
    setSort((s) => (s.by === col ? { by: col, order: s.order === 'asc' ? 'desc' : 'asc' } : { by: col, order: 'asc' }));
  };
  const applyFilter = (e: Event) => {
    e.preventDefault();
    const text = filterText.trim();
    if (text) {
      const parsed = parseObject(text);
      if (parsed.error) return setFilterError(`The filter must be a JSON object, like {"status":"open","score":{"$gte":10}}. ${parsed.error}`);
    }
    setFilterError(undefined);
    setOffset(0);
    setFilter(text ? JSON.stringify(JSON.parse(text)) : '');
  };
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
      <form class="filter row" onSubmit={applyFilter} role="search">
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
          <button
            type="button"
            onClick={() => {
              setFilterText('');
              setFilter('');
              setOffset(0);
            }}
          >
            Clear
          </button>
        )}
      </form>
      <ErrorText error={filterError} />
      <Loaded
        load={page}
        what="Loading documents"
        isEmpty={(p) => p.documents.length === 0}
        empty={<p>{filter ? 'No document matches this filter.' : 'This collection is empty.'}</p>}
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
                        <td key={c} class={c === 'id' ? 'mono' : ''}>
                          {c === 'updatedAt' ? <When at={d.updatedAt} /> : <Cell value={d[c]} />}
                        </td>
                      ))}
                      <td class="row-actions">
                        <button type="button" onClick={() => setOpen(d)} aria-label={`Open ${d.id}`}>
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
                <select
                  value={limit}
                  onChange={(e) => {
                    setLimit(Number(e.currentTarget.value));
                    setOffset(0);
                  }}
                >
                  {[10, 20, 50, 100].map((n) => (
                    <option key={n} value={n}>
                      {n}
                    </option>
                  ))}
                </select>
              </label>
              <Pager offset={offset} limit={limit} total={data.total} onPage={setOffset} />
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
  const fields = doc ? Object.fromEntries(Object.entries(doc).filter(([k]) => !SYSTEM.includes(k))) : {};
  const [text, setText] = useState(JSON.stringify(fields, null, 2));
  const [target, setTarget] = useState(collection ?? '');
  const act = useAction();
  const parsed = parseObject(text);
  const save = (e: Event) => {
    e.preventDefault();
    if (!parsed.value) return;
    void act.run(async () => {
      const name = target.trim();
      if (doc) {
        const patch = mergePatchBetween(fields as JsonFields, parsed.value!);
        if (Object.keys(patch).length)
          await api('PATCH', `/${encodeURIComponent(name)}/docs/${encodeURIComponent(doc.id)}`, { databaseId: db.id, body: patch });
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
        <JsonEditor label={doc ? 'Fields (removing a field deletes it)' : 'Fields (an "id" of your own is optional)'} value={text} onInput={setText} />
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
