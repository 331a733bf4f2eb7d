import { useMemo, useState } from 'preact/hooks';
import { api } from '../api.ts';
import { JsonEditor, parseObject } from '../json-editor.tsx';
import type { Database, User, UserDetail, UserPage, UserPatch, UserSignOut } from '../types.ts';
import { Confirm, Dialog, ErrorText, Loaded, Pager, useAction, useLoad, useToast, When } from '../ui.tsx';

/**
 * End users of a database: search by e-mail prefix, view, edit appMetadata, disable or enable, mark
 * verified, send a password-reset e-mail, sign out everywhere, delete. Listing, changing and
 * deleting go through the app's own routes (API.md §2.1 /auth/users) with the operator token and
 * X-Database-Id; the live session count, providers and "sign out everywhere" through /admin.
 */
export function UsersPage({ db }: { db: Database }) {
  const adminPath = `/admin/databases/${encodeURIComponent(db.id)}/users`;
  const [searchText, setSearchText] = useState('');
  const [search, setSearch] = useState('');
  const [offset, setOffset] = useState(0);
  const limit = 20;
  const page = useLoad(() => api<UserPage>('GET', '/auth/users', { databaseId: db.id, query: { email: search, limit, offset } }), [db.id, search, offset]);
  const [viewing, setViewing] = useState<User>();
  const [deleting, setDeleting] = useState<User>();
  const [resettingMfa, setResettingMfa] = useState<User>();
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
          Search by e-mail (starts with)
          <input type="search" name="search" value={searchText} onInput={(e) => setSearchText(e.currentTarget.value)} placeholder="ann@" />
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
        empty={<p>{search ? `No user's e-mail starts with “${search}”.` : 'No users yet. They appear when your app signs them up (POST /v1/auth/sign-up).'}</p>}
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
                    <th>Status</th>
                    <th>MFA</th>
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
                      <td>{u.disabled ? <span class="badge failed">disabled</span> : 'active'}</td>
                      <td data-testid="mfa">{u.mfa ? 'on' : 'off'}</td>
                      <td>
                        <When at={u.createdAt} />
                      </td>
                      <td class="row-actions">
                        <button type="button" onClick={() => setViewing(u)} aria-label={`View ${u.email}`}>
                          View
                        </button>
                        {u.mfa && (
                          <button type="button" onClick={() => setResettingMfa(u)} aria-label={`Reset MFA of ${u.email}`}>
                            Reset MFA
                          </button>
                        )}
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
          db={db}
          adminPath={`${adminPath}/${encodeURIComponent(viewing.id)}`}
          onClose={() => {
            setViewing(undefined);
            page.reload();
          }}
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
            await api('DELETE', `/auth/users/${encodeURIComponent(deleting.id)}`, { databaseId: db.id });
            toast.toast(`Deleted ${deleting.email}.`);
            page.reload();
          }}
        >
          <p>
            Delete <strong>{deleting.email}</strong>? Their sessions end, their realtime connections close and their linked sign-in providers are removed. Their
            documents stay.
          </p>
        </Confirm>
      )}
      {resettingMfa && (
        <Confirm
          title="Reset two-step sign-in"
          action="Reset MFA"
          danger
          onClose={() => setResettingMfa(undefined)}
          onConfirm={async () => {
            await api('DELETE', `/auth/users/${encodeURIComponent(resettingMfa.id)}/mfa`, { databaseId: db.id });
            toast.toast(`Removed the second factors and passkeys of ${resettingMfa.email}.`);
            page.reload();
          }}
        >
          <p>
            Remove every second factor, recovery code and passkey of <strong>{resettingMfa.email}</strong> and end their sessions? They then sign in with their
            password alone. Do this only once you are sure the request comes from the account's owner.
          </p>
        </Confirm>
      )}
      {toast.view}
    </div>
  );
}

const pretty = (v: unknown) => JSON.stringify(v, null, 2);

function UserDialog({
  db,
  adminPath,
  onClose,
  onDelete,
  toast,
}: {
  db: Database;
  adminPath: string;
  onClose: () => void;
  onDelete: () => void;
  toast: (m: string) => void;
}) {
  const detail = useLoad(() => api<UserDetail>('GET', adminPath), [adminPath]);
  const [signingOut, setSigningOut] = useState(false);
  const [disabling, setDisabling] = useState(false);
  const [resetting, setResetting] = useState(false);
  const act = useAction();
  /** PATCH /auth/users/:id, then the dialog shows the user as the server answered. */
  const change = (id: string, patch: UserPatch, done: string) =>
    act.run(async () => {
      await api('PATCH', `/auth/users/${encodeURIComponent(id)}`, { databaseId: db.id, body: patch });
      detail.reload();
      toast(done);
    });

  return (
    <Dialog title="User" onClose={onClose} wide>
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
              <dd data-testid="verified">{user.emailVerified ? 'yes' : 'no'}</dd>
              <dt>Status</dt>
              <dd data-testid="status">{user.disabled ? 'disabled: cannot sign in' : 'active'}</dd>
              <dt>Signed up</dt>
              <dd>{user.createdAt}</dd>
              <dt>Providers</dt>
              <dd>{providers.join(', ') || 'password / e-mail link'}</dd>
              <dt>Active sessions</dt>
              <dd data-testid="active-sessions">{activeSessions}</dd>
            </dl>
            <AppMetadataEditor
              key={`${user.id}:${user.updatedAt}`}
              value={user.appMetadata}
              busy={act.busy}
              onSave={(appMetadata) => change(user.id, { appMetadata }, 'App metadata saved. Rules read it from the next request.')}
            />
            <ErrorText error={act.error} />
            <div class="actions">
              <button type="button" class="danger" onClick={onDelete}>
                Delete
              </button>
              {user.disabled ? (
                <button type="button" disabled={act.busy} onClick={() => change(user.id, { disabled: false }, `${user.email} can sign in again.`)}>
                  Enable
                </button>
              ) : (
                <button type="button" class="danger" onClick={() => setDisabling(true)}>
                  Disable
                </button>
              )}
              <button
                type="button"
                disabled={act.busy}
                onClick={() => change(user.id, { emailVerified: !user.emailVerified }, user.emailVerified ? 'Marked as not verified.' : 'Marked as verified.')}
              >
                {user.emailVerified ? 'Mark not verified' : 'Mark verified'}
              </button>
              <button type="button" onClick={() => setResetting(true)}>
                Send password reset
              </button>
              <button type="button" onClick={() => setSigningOut(true)} disabled={activeSessions === 0}>
                Sign out everywhere
              </button>
              <button type="button" class="primary" onClick={onClose}>
                Close
              </button>
            </div>
            {disabling && (
              <Confirm
                title="Disable user"
                action="Disable user"
                danger
                onClose={() => setDisabling(false)}
                onConfirm={async () => {
                  await api('PATCH', `/auth/users/${encodeURIComponent(user.id)}`, { databaseId: db.id, body: { disabled: true } satisfies UserPatch });
                  detail.reload();
                  toast(`${user.email} is disabled.`);
                }}
              >
                <p>
                  Disable <strong>{user.email}</strong>? Every session ends now, their realtime connections close, and they cannot sign in (password, e-mail
                  link or provider) until you enable them again. Nothing is deleted.
                </p>
              </Confirm>
            )}
            {resetting && <ResetDialog db={db} email={user.email} onClose={() => setResetting(false)} toast={toast} />}
          </>
        )}
      </Loaded>
      {signingOut && (
        <Confirm
          title="Sign out everywhere"
          action="Sign out"
          onClose={() => setSigningOut(false)}
          onConfirm={async () => {
            const r = await api<UserSignOut>('POST', `${adminPath}/sign-out`);
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

/** The user's appMetadata as JSON: set only here or by the app's backend; the user reads it, rules compare with it. */
function AppMetadataEditor({ value, busy, onSave }: { value: Record<string, unknown>; busy: boolean; onSave: (v: Record<string, unknown>) => void }) {
  const [text, setText] = useState(pretty(value));
  const parsed = useMemo(() => parseObject(text, 'App metadata'), [text]);
  const changed = parsed.value !== undefined && JSON.stringify(parsed.value) !== JSON.stringify(value);
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (parsed.value) onSave(parsed.value);
      }}
    >
      <JsonEditor label="App metadata (JSON; the user reads it, only you change it)" what="App metadata" value={text} onInput={setText} rows={6} />
      <div class="actions">
        {changed && <span class="muted small">Unsaved changes</span>}
        <button type="submit" class="primary" disabled={busy || !changed}>
          Save app metadata
        </button>
      </div>
    </form>
  );
}

/** Mails the user a password-reset link (POST /auth/forgot-password), opening the URL chosen here or the database's site URL. */
function ResetDialog({ db, email, onClose, toast }: { db: Database; email: string; onClose: () => void; toast: (m: string) => void }) {
  const { siteUrl, redirectUrls } = db.settings;
  const [url, setUrl] = useState(siteUrl ?? redirectUrls[0] ?? '');
  return (
    <Confirm
      title="Send password reset"
      action="Send e-mail"
      onClose={onClose}
      onConfirm={async () => {
        await api('POST', '/auth/forgot-password', { databaseId: db.id, body: { email, redirectUrl: url.trim() || undefined } });
        toast(`Password-reset e-mail sent to ${email}.`);
      }}
    >
      <p>
        Mail <strong>{email}</strong> a link to set a new password (valid 1 hour). Using it signs them out everywhere.
      </p>
      <label>
        The link opens
        <input type="url" name="redirectUrl" value={url} onInput={(e) => setUrl(e.currentTarget.value)} placeholder="https://app.example.com/reset-password" />
      </label>
      <p class="muted small">An allowed redirect URL of this database (Settings); empty: the site URL.</p>
    </Confirm>
  );
}
