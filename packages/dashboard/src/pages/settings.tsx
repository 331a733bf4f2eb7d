import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.ts';
import type { Database, DatabasePatch, DatabaseSettings, Me } from '../types.ts';
import { ErrorText, useAction, useToast } from '../ui.tsx';

const PROVIDERS = [
  ['google', 'Google'],
  ['github', 'GitHub'],
] as const satisfies ReadonlyArray<readonly [keyof DatabaseSettings['oauth'], string]>;
type Provider = (typeof PROVIDERS)[number][0];
/** Google, GitHub, and the one OpenID Connect provider (`oidc`: issuer, client id and secret, display name). */
type AnyProvider = Provider | 'oidc';

/** Redirect URLs, site URL and OAuth clients (Google, GitHub, OpenID Connect); client secrets are write-only. */
export function SettingsPage({ db, onSaved }: { db: Database; onSaved: () => void }) {
  const s = db.settings;
  const [redirectUrls, setRedirectUrls] = useState(s.redirectUrls.join('\n'));
  const [siteUrl, setSiteUrl] = useState(s.siteUrl ?? '');
  const [ids, setIds] = useState<Record<Provider, string>>({ google: s.oauth.google?.clientId ?? '', github: s.oauth.github?.clientId ?? '' });
  const [secrets, setSecrets] = useState<Record<AnyProvider, string>>({ google: '', github: '', oidc: '' });
  // Sign-up control and e-mail verification (API.md §2.1); settings stored before they existed read as the defaults.
  const [auth, setAuth] = useState({ allowSignUp: s.auth?.allowSignUp ?? true, requireEmailVerification: s.auth?.requireEmailVerification ?? false });
  const [oidc, setOidc] = useState({ issuer: s.oauth.oidc?.issuer ?? '', clientId: s.oauth.oidc?.clientId ?? '', name: s.oauth.oidc?.name ?? '' });
  // Full-text search: one row per collection, its field paths comma-separated.
  const savedSearch = s.search ?? {};
  const [searchRows, setSearchRows] = useState(Object.entries(savedSearch).map(([collection, fields]) => ({ collection, fields: fields.join(', ') })));
  const act = useAction();
  const toast = useToast();
  // Providers call back PUBLIC_URL, which behind a proxy may differ from this page's address.
  const [publicUrl, setPublicUrl] = useState(location.origin);
  useEffect(() => {
    api<Me>('GET', '/admin/me').then(
      (r) => setPublicUrl(r.publicUrl),
      () => undefined,
    );
  }, []);
  const callback = (p: AnyProvider) => `${publicUrl}/v1/auth/oauth/${p}/callback`;

  const save = (e: Event) => {
    e.preventDefault();
    void act.run(async () => {
      const oauth: Record<string, Record<string, string | null>> = {};
      for (const [p] of PROVIDERS) {
        oauth[p] = { clientId: ids[p].trim() || null };
        // An empty secret field keeps the saved secret: secrets are never sent back to show.
        if (secrets[p]) oauth[p].clientSecret = secrets[p];
      }
      // The OpenID Connect provider only once something of it is filled in (or was saved before).
      if (s.oauth.oidc || secrets.oidc || Object.values(oidc).some((v) => v.trim())) {
        oauth.oidc = { issuer: oidc.issuer.trim() || null, clientId: oidc.clientId.trim() || null, name: oidc.name.trim() || null };
        if (secrets.oidc) oauth.oidc.clientSecret = secrets.oidc;
      }
      const settings: Record<string, unknown> = { redirectUrls: redirectUrls.split(/\s+/).filter(Boolean), siteUrl: siteUrl.trim() || null, oauth, auth };
      // Search fields only when they changed (a change re-indexes the collection); a removed row is null.
      const wanted = Object.fromEntries(
        searchRows
          .filter((r) => r.collection.trim())
          .map((r) => [
            r.collection.trim(),
            r.fields
              .split(',')
              .map((f) => f.trim())
              .filter(Boolean),
          ]),
      );
      if (JSON.stringify(wanted) !== JSON.stringify(savedSearch)) {
        settings.search = { ...Object.fromEntries(Object.keys(savedSearch).map((c) => [c, null])), ...wanted };
      }
      await api('PATCH', `/admin/databases/${encodeURIComponent(db.id)}`, { body: { settings } satisfies DatabasePatch });
      setSecrets({ google: '', github: '', oidc: '' });
      toast.toast('Settings saved.');
      onSaved();
    });
  };
  const clearSecret = (p: AnyProvider) =>
    act.run(async () => {
      await api('PATCH', `/admin/databases/${encodeURIComponent(db.id)}`, {
        body: { settings: { oauth: { [p]: { clientSecret: null } } } } satisfies DatabasePatch,
      });
      toast.toast('Client secret removed.');
      onSaved();
    });

  /** A write-only client secret: a badge says whether one is saved; an empty field keeps it. */
  const secretField = (p: AnyProvider) => {
    const set = s.oauth[p]?.clientSecretSet ?? false;
    return (
      <>
        <label>
          Client secret {set ? <span class="badge succeeded">set</span> : <span class="badge">not set</span>}
          <input
            type="password"
            name={`${p}ClientSecret`}
            value={secrets[p]}
            autoComplete="new-password"
            placeholder={set ? 'Saved: leave empty to keep it, type to replace it' : 'Paste the client secret'}
            onInput={(e) => setSecrets({ ...secrets, [p]: e.currentTarget.value })}
          />
        </label>
        {set && (
          <button type="button" class="small" onClick={() => clearSecret(p)} disabled={act.busy}>
            Remove the saved secret
          </button>
        )}
      </>
    );
  };

  return (
    <form class="page settings" onSubmit={save}>
      <div class="page-head">
        <h1>Settings</h1>
        <button type="submit" class="primary" disabled={act.busy}>
          {act.busy ? 'Saving…' : 'Save settings'}
        </button>
      </div>
      <ErrorText error={act.error} />
      <section class="card">
        <h2>Links in e-mails and sign-in redirects</h2>
        <label>
          Allowed redirect URLs <span class="muted">(one per line; same origin and path prefix. Empty: only localhost)</span>
          <textarea
            name="redirectUrls"
            rows={4}
            class="mono"
            value={redirectUrls}
            onInput={(e) => setRedirectUrls(e.currentTarget.value)}
            placeholder="https://app.example.com/auth"
          />
        </label>
        <label>
          Site URL <span class="muted">(where e-mail links go when the app gives no redirect URL)</span>
          <input type="url" name="siteUrl" value={siteUrl} onInput={(e) => setSiteUrl(e.currentTarget.value)} placeholder="https://app.example.com" />
        </label>
      </section>
      <section class="card">
        <h2>Accounts</h2>
        <label class="check">
          <input type="checkbox" name="allowSignUp" checked={auth.allowSignUp} onChange={(e) => setAuth({ ...auth, allowSignUp: e.currentTarget.checked })} />
          Anyone may create an account <span class="muted">(off: sign-up, magic links and OAuth sign in existing users only)</span>
        </label>
        <label class="check">
          <input
            type="checkbox"
            name="requireEmailVerification"
            checked={auth.requireEmailVerification}
            onChange={(e) => setAuth({ ...auth, requireEmailVerification: e.currentTarget.checked })}
          />
          Password sign-in needs a verified e-mail <span class="muted">(sign-up mails a verification link and signs nobody in)</span>
        </label>
      </section>
      {PROVIDERS.map(([p, label]) => {
        return (
          <section class="card" key={p}>
            <h2>{label} sign-in</h2>
            <p class="muted small">
              Register this callback URL with {label}: <code class="break">{callback(p)}</code>
            </p>
            <label>
              Client id
              <input name={`${p}ClientId`} value={ids[p]} onInput={(e) => setIds({ ...ids, [p]: e.currentTarget.value })} autoComplete="off" />
            </label>
            {secretField(p)}
          </section>
        );
      })}
      <section class="card">
        <h2>{oidc.name.trim() || 'OpenID Connect'} sign-in</h2>
        <p class="muted small">
          Any OpenID Connect provider (Keycloak, Auth0, Entra ID, …): its issuer URL serves <code>/.well-known/openid-configuration</code>. Register this
          callback URL with it: <code class="break">{callback('oidc')}</code>
        </p>
        <label>
          Issuer URL
          <input
            type="url"
            name="oidcIssuer"
            value={oidc.issuer}
            onInput={(e) => setOidc({ ...oidc, issuer: e.currentTarget.value })}
            placeholder="https://sso.example.com/realms/myrealm"
            autoComplete="off"
          />
        </label>
        <label>
          Client id
          <input name="oidcClientId" value={oidc.clientId} onInput={(e) => setOidc({ ...oidc, clientId: e.currentTarget.value })} autoComplete="off" />
        </label>
        {secretField('oidc')}
        <label>
          Name <span class="muted">(what your sign-in button calls it)</span>
          <input
            name="oidcName"
            value={oidc.name}
            onInput={(e) => setOidc({ ...oidc, name: e.currentTarget.value })}
            placeholder="Company SSO"
            autoComplete="off"
          />
        </label>
      </section>
      <section class="card search-settings">
        <h2>Full-text search</h2>
        <p class="muted small">
          Collections that <code>search=</code> finds words in, and the text fields it looks in (field paths, comma-separated, e.g.{' '}
          <code>title, body, author.name</code>). After saving, existing documents are indexed in the background.
        </p>
        {searchRows.map((row, i) => (
          <div class="row" key={i}>
            <label>
              Collection
              <input
                name={`searchCollection${i}`}
                value={row.collection}
                onInput={(e) => setSearchRows(searchRows.map((r, j) => (j === i ? { ...r, collection: e.currentTarget.value } : r)))}
                placeholder="posts"
                autoComplete="off"
              />
            </label>
            <label>
              Search fields
              <input
                name={`searchFields${i}`}
                class="mono"
                value={row.fields}
                onInput={(e) => setSearchRows(searchRows.map((r, j) => (j === i ? { ...r, fields: e.currentTarget.value } : r)))}
                placeholder="title, body"
                autoComplete="off"
              />
            </label>
            <button type="button" class="small" onClick={() => setSearchRows(searchRows.filter((_, j) => j !== i))}>
              Remove {row.collection || 'this collection'}
            </button>
          </div>
        ))}
        <button type="button" class="small" onClick={() => setSearchRows([...searchRows, { collection: '', fields: '' }])}>
          Add a searched collection
        </button>
      </section>
      {toast.view}
    </form>
  );
}
