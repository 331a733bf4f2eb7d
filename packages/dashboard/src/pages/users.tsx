import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import type { Database, User, UserDetail, UserPage, UserSignOut } from '../types.ts';
import { Confirm, Dialog, Loaded, Pager, useLoad, useToast, When } from '../ui.tsx';

/** End users of a database: search by e-mail, view, delete, sign out everywhere. */
export function UsersPage({ db }: { db: Database }) {
  const path = `/admin/databases/${encodeURIComponent(db.id)}/users`;
  const [searchText, setSearchText] = useState('');
  const [search, setSearch] = useState('');
  const [offset, setOffset] = useState(0);
  const limit = 20;
  const page = useLoad(() => api<UserPage>('GET', path, { query: { search, limit, offset } }), [db.id, search, offset]);
  const [viewing, setViewing] = useState<User>();
  const [deleting, setDeleting] = useState<User>();
  const toast = useToast();

  return (
    <div class="page">
      <div class="page-head">
        <h1>Users</h1>
      </div>
      <form
        class="filter row"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          setOffset(0);
          setSearch(searchText.trim());
        }}
      >
        <label class="grow">
          Search by e-mail
          <input type="search" name="search" value={searchText} onInput={(e) => setSearchText(e.currentTarget.value)} placeholder="ann@example.com" />
        </label>
        <button type="submit">Search</button>
        {search && (
          <button
            type="button"
            onClick={() => {
              setSearchText('');
              setSearch('');
              setOffset(0);
            }}
          >
            Clear
          </button>
        )}
      </form>
      <Loaded
        load={page}
        what="Loading users"
        isEmpty={(p) => p.users.length === 0}
        empty={<p>{search ? `No user's e-mail contains “${search}”.` : 'No users yet. They appear when your app signs them up (POST /v1/auth/sign-up).'}</p>}
      >
        {(data) => (
          <>
            <div class="table-wrap" aria-busy={page.loading}>
              <table>
                <thead>
                  <tr>
                    <th>E-mail</th>
                    <th>Name</th>
                    <th>Verified</th>
                    <th>Signed up</th>
                    <th>
                      <span class="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.users.map((u) => (
                    <tr key={u.id}>
                      <td>{u.email}</td>
                      <td>{u.name ?? <span class="muted">—</span>}</td>
                      <td>{u.emailVerified ? 'yes' : 'no'}</td>
                      <td>
                        <When at={u.createdAt} />
                      </td>
                      <td class="row-actions">
                        <button type="button" onClick={() => setViewing(u)} aria-label={`View ${u.email}`}>
                          View
                        </button>
                        <button type="button" class="danger" onClick={() => setDeleting(u)} aria-label={`Delete ${u.email}`}>
                          Delete
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager offset={offset} limit={limit} total={data.total} onPage={setOffset} />
          </>
        )}
      </Loaded>
      {viewing && (
        <UserDialog
          path={`${path}/${encodeURIComponent(viewing.id)}`}
          onClose={() => setViewing(undefined)}
          onDelete={() => {
            setDeleting(viewing);
            setViewing(undefined);
          }}
          toast={toast.toast}
        />
      )}
      {deleting && (
        <Confirm
          title="Delete user"
          action="Delete user"
          danger
          onClose={() => setDeleting(undefined)}
          onConfirm={async () => {
            await api('DELETE', `${path}/${encodeURIComponent(deleting.id)}`);
            toast.toast(`Deleted ${deleting.email}.`);
            page.reload();
          }}
        >
          <p>
            Delete <strong>{deleting.email}</strong>? Their sessions end and their linked sign-in providers are removed. Their documents stay.
          </p>
        </Confirm>
      )}
      {toast.view}
    </div>
  );
}

function UserDialog({ path, onClose, onDelete, toast }: { path: string; onClose: () => void; onDelete: () => void; toast: (m: string) => void }) {
  const detail = useLoad(() => api<UserDetail>('GET', path), [path]);
  const [signingOut, setSigningOut] = useState(false);
  return (
    <Dialog title="User" onClose={onClose}>
      <Loaded load={detail}>
        {({ user, activeSessions, providers }) => (
          <>
            <dl class="meta">
              <dt>E-mail</dt>
              <dd>{user.email}</dd>
              <dt>Name</dt>
              <dd>{user.name ?? '—'}</dd>
              <dt>Id</dt>
              <dd class="mono">{user.id}</dd>
              <dt>Verified</dt>
              <dd>{user.emailVerified ? 'yes' : 'no'}</dd>
              <dt>Signed up</dt>
              <dd>{user.createdAt}</dd>
              <dt>Providers</dt>
              <dd>{providers.join(', ') || 'password / e-mail link'}</dd>
              <dt>Active sessions</dt>
              <dd data-testid="active-sessions">{activeSessions}</dd>
            </dl>
            <div class="actions">
              <button type="button" class="danger" onClick={onDelete}>
                Delete
              </button>
              <button type="button" onClick={() => setSigningOut(true)} disabled={activeSessions === 0}>
                Sign out everywhere
              </button>
              <button type="button" class="primary" onClick={onClose}>
                Close
              </button>
            </div>
          </>
        )}
      </Loaded>
      {signingOut && (
        <Confirm
          title="Sign out everywhere"
          action="Sign out"
          onClose={() => setSigningOut(false)}
          onConfirm={async () => {
            const r = await api<UserSignOut>('POST', `${path}/sign-out`);
            toast(`Ended ${r.endedSessions} session${r.endedSessions === 1 ? '' : 's'}.`);
            detail.reload();
          }}
        >
          <p>Every session of this user ends now; their apps ask them to sign in again.</p>
        </Confirm>
      )}
    </Dialog>
  );
}
