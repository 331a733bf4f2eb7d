import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import type { CreatedDatabase, Database, DatabaseList, DatabasePatch } from '../types.ts';
import { CopyableValue, Dialog, ErrorText, Link, Loaded, SecretOnce, TypeToConfirm, useAction, useLoad, When } from '../ui.tsx';

/** Every database: create (first key shown once), rename, delete. */
export function DatabasesPage() {
  const list = useLoad(() => api<DatabaseList>('GET', '/admin/databases').then((r) => r.databases), []);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedDatabase>();
  const [renaming, setRenaming] = useState<Database>();
  const [deleting, setDeleting] = useState<Database>();

  return (
    <div class="page">
      <div class="page-head">
        <h1>Databases</h1>
        <button type="button" class="primary" onClick={() => setCreating(true)}>
          New database
        </button>
      </div>
      <Loaded
        load={list}
        what="Loading databases"
        empty={
          <>
            <p>
              <strong>No databases yet.</strong>
            </p>
            <p>A database holds documents, users and webhooks, reached with its own API keys.</p>
            <button type="button" class="primary" onClick={() => setCreating(true)}>
              Create your first database
            </button>
          </>
        }
      >
        {(databases) => (
          <div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th>Name</th>
                  <th>Id</th>
                  <th>Created</th>
                  <th>
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {databases.map((d) => (
                  <tr key={d.id}>
                    <td>
                      <Link href={`/databases/${encodeURIComponent(d.id)}/documents`}>{d.name}</Link>
                    </td>
                    <td class="mono muted">{d.id}</td>
                    <td>
                      <When at={d.createdAt} />
                    </td>
                    <td class="row-actions">
                      <Link class="button" href={`/databases/${encodeURIComponent(d.id)}/keys`}>
                        Keys
                      </Link>
                      <button type="button" onClick={() => setRenaming(d)} aria-label={`Rename ${d.name}`}>
                        Rename
                      </button>
                      <button type="button" class="danger" onClick={() => setDeleting(d)} aria-label={`Delete ${d.name}`}>
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
      {creating && (
        <CreateDatabase
          onClose={() => setCreating(false)}
          onCreated={(c) => {
            setCreating(false);
            setCreated(c);
            list.reload();
          }}
        />
      )}
      {created && (
        <Dialog title={`Database “${created.database.name}” created`} onClose={() => setCreated(undefined)}>
          <p>
            This is its first <strong>secret key</strong>: it reads and writes everything in the database. Use it on servers only.
          </p>
          <SecretOnce label="Secret key" value={created.key.key} kept="apiKey" />
          <p>
            And its first <strong>public key</strong>, for browser code: it reaches documents only as the database's rules allow. It is not a secret, so the
            Keys page shows it again any time.
          </p>
          <CopyableValue label="Public key" value={created.publicKey.key} />
          <div class="actions">
            <button type="button" class="primary" onClick={() => setCreated(undefined)}>
              I've copied it
            </button>
          </div>
        </Dialog>
      )}
      {renaming && <RenameDatabase db={renaming} onClose={() => setRenaming(undefined)} onDone={list.reload} />}
      {deleting && (
        <TypeToConfirm
          title="Delete database"
          name={deleting.name}
          action="Delete forever"
          onClose={() => setDeleting(undefined)}
          what={
            <>
              This deletes <strong>{deleting.name}</strong> with every document, user, key and webhook in it. It can't be undone.
            </>
          }
          onConfirm={async () => {
            await api('DELETE', `/admin/databases/${encodeURIComponent(deleting.id)}`);
            list.reload();
          }}
        />
      )}
    </div>
  );
}

function CreateDatabase({ onClose, onCreated }: { onClose: () => void; onCreated: (c: CreatedDatabase) => void }) {
  const [name, setName] = useState('');
  const act = useAction();
  return (
    <Dialog title="New database" onClose={onClose}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void act.run(async () => onCreated(await api<CreatedDatabase>('POST', '/admin/databases', { body: { name: name.trim() } })));
        }}
      >
        <label>
          Name
          <input name="name" required maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} autoFocus placeholder="my-app" />
        </label>
        <ErrorText error={act.error} />
        <div class="actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" class="primary" disabled={act.busy || !name.trim()}>
            {act.busy ? 'Creating…' : 'Create'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

function RenameDatabase({ db, onClose, onDone }: { db: Database; onClose: () => void; onDone: () => void }) {
  const [name, setName] = useState(db.name);
  const act = useAction();
  return (
    <Dialog title={`Rename ${db.name}`} onClose={onClose}>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          if (
            await act.run(async () => {
              await api('PATCH', `/admin/databases/${encodeURIComponent(db.id)}`, { body: { name: name.trim() } satisfies DatabasePatch });
            })
          ) {
            onDone();
            onClose();
          }
        }}
      >
        <label>
          New name
          <input name="name" required maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} autoFocus />
        </label>
        <ErrorText error={act.error} />
        <div class="actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" class="primary" disabled={act.busy || !name.trim()}>
            Save
          </button>
        </div>
      </form>
    </Dialog>
  );
}
