import { useEffect, useState } from 'preact/hooks';
import { api, ApiCallError, describeError, session } from '../api.ts';
import type { Database } from '../types.ts';
import { navigate } from '../router.ts';
import { Confirm, ErrorText, Link, Loaded, useAction, useLoad, useToast, When } from '../ui.tsx';
import { JsonEditor, mergePatchBetween, parseObject, type JsonFields } from '../json-editor.tsx';

/** A file record (API.md §12). */
interface FileRecord {
  id: string;
  bucket: string;
  name: string;
  contentType: string;
  size: number;
  metadata: Record<string, unknown>;
  createdAt: string;
}
interface Bucket {
  name: string;
  count: number;
  bytes?: number;
}

/** Types the server makes thumbnails of: those get a preview. */
const PREVIEWED = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif']);

const size = (n: number) => (n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1024 / 1024).toFixed(1)} MiB`);

/**
 * Uploads one file as the operator acting on the database (the raw bytes, the name in the query).
 * Not through api(): the body is the file itself, not JSON.
 */
async function upload(db: Database, bucket: string, file: File): Promise<FileRecord> {
  const url = new URL(`/v1/files/${encodeURIComponent(bucket)}`, location.origin);
  url.searchParams.set('name', file.name);
  const res = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${session.token()}`, 'x-database-id': db.id, 'content-type': file.type || 'application/octet-stream' },
    body: file,
  });
  const json = (await res.json().catch(() => undefined)) as { error?: { code: string; message: string } } | FileRecord | undefined;
  if (!res.ok) {
    const error = (json as { error?: { code: string; message: string } })?.error;
    throw new ApiCallError(res.status, error?.code ?? 'unknown', error?.message ?? `The server answered ${res.status}`);
  }
  return json as FileRecord;
}

/** A signed link to a file (or its 100x100 thumbnail), valid one hour. */
const link = (db: Database, f: FileRecord, thumb?: string) =>
  api<{ url: string }>('POST', `/files/${encodeURIComponent(f.bucket)}/${encodeURIComponent(f.id)}/url`, {
    databaseId: db.id,
    body: thumb ? { thumb } : {},
  }).then((r) => r.url);

/** A database's files: buckets, upload by drag and drop, previews, metadata, copy a signed link, delete. */
export function FilesPage({ db, bucket }: { db: Database; bucket?: string }) {
  const buckets = useLoad(() => api<{ buckets: Bucket[] }>('GET', '/buckets', { databaseId: db.id }).then((r) => r.buckets), [db.id]);
  const [target, setTarget] = useState(bucket ?? '');
  const base = `/databases/${encodeURIComponent(db.id)}/files`;
  const act = useAction();
  const [dragging, setDragging] = useState(false);
  const [version, setVersion] = useState(0);
  const { toast, view } = useToast();
  // Uploads go to the bucket shown, until another name is typed.
  useEffect(() => setTarget(bucket ?? ''), [bucket]);

  const send = async (files: FileList | null) => {
    const name = target.trim();
    if (!files?.length) return;
    await act.run(async () => {
      if (!name) throw new Error('Name the bucket first: type a name, or pick one.');
      for (const f of [...files]) await upload(db, name, f);
      toast(`Uploaded ${files.length} file${files.length > 1 ? 's' : ''} to ${name}`);
      buckets.reload();
      setVersion((v) => v + 1);
      if (name !== bucket) navigate(`${base}/${encodeURIComponent(name)}`);
    });
  };

  return (
    <div class="page">
      <div class="page-head">
        <h1>Files</h1>
      </div>
      <Loaded load={buckets} what="Loading buckets" empty={<p>No files yet. Drop a file below to make your first bucket.</p>}>
        {(list) => (
          <nav class="tabs" aria-label="Buckets">
            {list.map((b) => (
              <Link key={b.name} href={`${base}/${encodeURIComponent(b.name)}`} aria-current={b.name === bucket ? 'page' : undefined}>
                {b.name}{' '}
                <span class="muted small">
                  {b.count} · {size(b.bytes ?? 0)}
                </span>
              </Link>
            ))}
          </nav>
        )}
      </Loaded>
      <label>
        Bucket
        <input value={target} onInput={(e) => setTarget((e.target as HTMLInputElement).value)} placeholder="avatars" />
      </label>
      <div
        class={`dropzone${dragging ? ' dragging' : ''}`}
        role="region"
        aria-label="Drop files here"
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => {
          e.preventDefault();
          setDragging(false);
          void send(e.dataTransfer?.files ?? null);
        }}
      >
        <p>{act.busy ? 'Uploading…' : 'Drop files here, or'}</p>
        <input type="file" multiple aria-label="Choose files" onChange={(e) => void send((e.target as HTMLInputElement).files)} />
      </div>
      <ErrorText error={act.error} />
      {bucket && <BucketFiles key={`${bucket}:${version}`} db={db} bucket={bucket} onChanged={() => buckets.reload()} toast={toast} />}
      <BucketSettings db={db} toast={toast} />
      {view}
    </div>
  );
}

function BucketFiles({ db, bucket, onChanged, toast }: { db: Database; bucket: string; onChanged: () => void; toast: (m: string) => void }) {
  const files = useLoad(
    () =>
      api<{ files: FileRecord[] }>('GET', `/files/${encodeURIComponent(bucket)}`, { databaseId: db.id, query: { limit: 100, sortOrder: 'desc' } }).then(
        (r) => r.files,
      ),
    [db.id, bucket],
  );
  const [deleting, setDeleting] = useState<FileRecord>();
  const [error, setError] = useState<string>();
  return (
    <>
      <Loaded load={files} what="Loading files" empty={<p>This bucket is empty.</p>}>
        {(list) => (
          <div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th>Preview</th>
                  <th>Name</th>
                  <th>Type</th>
                  <th>Size</th>
                  <th>Metadata</th>
                  <th>Uploaded</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {list.map((f) => (
                  <tr key={f.id}>
                    <td>{PREVIEWED.has(f.contentType) ? <Preview db={db} file={f} /> : <span class="muted">—</span>}</td>
                    <td>{f.name}</td>
                    <td>{f.contentType}</td>
                    <td>{size(f.size)}</td>
                    <td>
                      <code class="small">{JSON.stringify(f.metadata)}</code>
                    </td>
                    <td>
                      <When at={f.createdAt} />
                    </td>
                    <td class="actions">
                      <button
                        type="button"
                        onClick={async () => {
                          try {
                            await navigator.clipboard.writeText(await link(db, f));
                            toast(`Copied a link to ${f.name}, valid one hour`);
                          } catch (e) {
                            setError(describeError(e));
                          }
                        }}
                      >
                        Copy link
                      </button>
                      <button type="button" class="danger" onClick={() => setDeleting(f)}>
                        Delete
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Loaded>
      <ErrorText error={error} />
      {deleting && (
        <Confirm
          title={`Delete ${deleting.name}?`}
          action="Delete file"
          danger
          onClose={() => setDeleting(undefined)}
          onConfirm={async () => {
            await api('DELETE', `/files/${encodeURIComponent(bucket)}/${encodeURIComponent(deleting.id)}`, { databaseId: db.id });
            files.reload();
            onChanged();
          }}
        >
          <p>Its bytes and thumbnails are removed too. Links to it stop working.</p>
        </Confirm>
      )}
    </>
  );
}

/** A 100x100 thumbnail through a signed link: an <img> cannot send the operator's token. */
function Preview({ db, file }: { db: Database; file: FileRecord }) {
  const src = useLoad(() => link(db, file, '100x100'), [file.id]);
  return src.data ? <img src={src.data} alt={file.name} width={50} height={50} class="thumb" /> : <span class="muted">…</span>;
}

/** The buckets' settings (`settings.files`: maxSize, contentTypes, thumbs, public per bucket), saved as a merge patch. */
function BucketSettings({ db, toast }: { db: Database; toast: (m: string) => void }) {
  const [saved, setSaved] = useState<JsonFields>(((db.settings as { files?: JsonFields }).files ?? {}) as JsonFields);
  const [text, setText] = useState(JSON.stringify(saved, null, 2));
  const act = useAction();
  return (
    <form
      class="bucket-settings"
      onSubmit={async (e) => {
        e.preventDefault();
        const { value, error } = parseObject(text, "The buckets' settings");
        await act.run(async () => {
          if (!value) throw new Error(error);
          await api('PATCH', `/admin/databases/${encodeURIComponent(db.id)}`, { body: { settings: { files: mergePatchBetween(saved, value) } } });
          setSaved(value);
          toast("Saved the buckets' settings");
        });
      }}
    >
      <h2>Buckets' settings</h2>
      <p class="muted small">
        Per bucket: <code>maxSize</code> (bytes), <code>contentTypes</code> (<code>["image/*"]</code>), <code>thumbs</code> (<code>["400x300"]</code>),{' '}
        <code>public</code>.
      </p>
      <JsonEditor label="settings.files" value={text} onInput={setText} rows={8} what="The buckets' settings" />
      <ErrorText error={act.error} />
      <div class="actions">
        <button type="submit" class="primary" disabled={act.busy}>
          Save settings
        </button>
      </div>
    </form>
  );
}
