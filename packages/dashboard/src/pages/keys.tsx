import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import type { Database, Key, KeyList, NewKey } from '../types.ts';
import { Confirm, CopyableValue, Dialog, ErrorText, Link, Loaded, SecretOnce, useAction, useLoad, When } from '../ui.tsx';

/** A database's API keys: create (a secret key is shown once), list (public keys whole, secret keys by hint), revoke. */
export function KeysPage({ db }: { db: Database }) {
  const path = `/admin/databases/${encodeURIComponent(db.id)}/keys`;
  const keys = useLoad(() => api<KeyList>('GET', path).then((r) => r.keys), [db.id]);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<NewKey>();
  const [revoking, setRevoking] = useState<Key>();

  return (
    <div class="page">
      <div class="page-head">
        <h1>API keys</h1>
        <button type="button" class="primary" onClick={() => setCreating(true)}>
          New key
        </button>
      </div>
      <p class="muted">
        Secret keys (<code>svc_sk_…</code>) read and write; keep them on servers. Public keys (<code>svc_pk_…</code>) sign users in and reach documents only as
        the database's <Link href={`/databases/${encodeURIComponent(db.id)}/rules`}>rules</Link> allow (with no rules: read everything, write nothing): safe in
        a browser. A secret key is stored as a hash: this list shows a hint of it (its prefix and last 4 characters), never the key. A public key is not a
        secret, so it is kept and shown here any time, with a button to copy it (public keys created before svc kept them show only their hint).
      </p>
      <Loaded load={keys} what="Loading keys" empty={<p>No keys. Create one to reach this database from your app.</p>}>
        {(list) => (
          <div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th>Key</th>
                  <th>Kind</th>
                  <th>Name</th>
                  <th>Created</th>
                  <th>Last used</th>
                  <th>Status</th>
                  <th>
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((k) => (
                  <tr key={k.id} class={k.revokedAt ? 'revoked' : ''}>
                    <td class="mono">{k.key ? <CopyableValue label={`public key ${k.name ?? k.hint}`} value={k.key} /> : k.hint}</td>
                    <td>
                      <span class={`badge ${k.kind}`}>{k.kind}</span>
                    </td>
                    <td>{k.name ?? <span class="muted">—</span>}</td>
                    <td>
                      <When at={k.createdAt} />
                    </td>
                    <td>
                      <When at={k.lastUsedAt} never="never" />
                    </td>
                    <td>
                      {k.revokedAt ? (
                        <span class="badge failed">
                          revoked <When at={k.revokedAt} />
                        </span>
                      ) : (
                        <span class="badge succeeded">active</span>
                      )}
                    </td>
                    <td class="row-actions">
                      {!k.revokedAt && (
                        <button type="button" class="danger" onClick={() => setRevoking(k)} aria-label={`Revoke ${k.hint}`}>
                          Revoke
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Loaded>
      {creating && (
        <CreateKey
          path={path}
          onClose={() => setCreating(false)}
          onCreated={(k) => {
            setCreating(false);
            setCreated(k);
            keys.reload();
          }}
        />
      )}
      {created && (
        <Dialog title={`New ${created.kind} key`} onClose={() => setCreated(undefined)}>
          {created.kind === 'secret' ? (
            <SecretOnce label="Secret key" value={created.key} kept="apiKey" />
          ) : (
            <>
              <p>Put it in your browser code. It stays in the list of keys, where you can copy it again.</p>
              <CopyableValue label="Public key" value={created.key} />
            </>
          )}
          <div class="actions">
            <button type="button" class="primary" onClick={() => setCreated(undefined)}>
              {created.kind === 'secret' ? "I've copied it" : 'Done'}
            </button>
          </div>
        </Dialog>
      )}
      {revoking && (
        <Confirm
          title="Revoke key"
          action="Revoke"
          danger
          onClose={() => setRevoking(undefined)}
          onConfirm={async () => {
            await api('DELETE', `${path}/${encodeURIComponent(revoking.id)}`);
            keys.reload();
          }}
        >
          <p>
            The key <code>{revoking.hint}</code> stops working at once, for every app using it.
          </p>
        </Confirm>
      )}
    </div>
  );
}

function CreateKey({ path, onClose, onCreated }: { path: string; onClose: () => void; onCreated: (k: NewKey) => void }) {
  const [kind, setKind] = useState<'secret' | 'public'>('secret');
  const [name, setName] = useState('');
  const act = useAction();
  return (
    <Dialog title="New API key" onClose={onClose}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void act.run(async () => onCreated(await api<NewKey>('POST', path, { body: { kind, ...(name.trim() ? { name: name.trim() } : {}) } })));
        }}
      >
        <fieldset>
          <legend>Kind</legend>
          <label class="inline">
            <input type="radio" name="kind" checked={kind === 'secret'} onChange={() => setKind('secret')} /> Secret: read and write, for servers
          </label>
          <label class="inline">
            <input type="radio" name="kind" checked={kind === 'public'} onChange={() => setKind('public')} /> Public: for browsers, limited by the rules
          </label>
        </fieldset>
        <label>
          Name <span class="muted">(optional)</span>
          <input name="name" maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} placeholder="web app" />
        </label>
        <ErrorText error={act.error} />
        <div class="actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" class="primary" disabled={act.busy}>
            {act.busy ? 'Creating…' : 'Create key'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
