import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.ts';
import type { Database, DatabasePatch, Me } from '../types.ts';
import { ErrorText, useAction, useToast } from '../ui.tsx';
import { useEmailSection } from './email-settings.tsx';
import {
  PROVIDERS,
  ProviderCard,
  SecretField,
  initialValues,
  inputName,
  providersPatch,
  secretSet,
  type Provider,
  type SecretKey,
} from './oauth-providers.tsx';

/** The providers of oauth-providers.tsx, and the one OpenID Connect provider (`oidc`: issuer, client id and secret, display name). */
type AnyProvider = Provider | 'oidc';

/** Redirect URLs, site URL, OAuth clients (docs/oauth.md) and e-mail (docs/email.md); secrets are write-only. */
export function SettingsPage({ db, onSaved }: { db: Database; onSaved: () => void }) {
  const s = db.settings;
  const [redirectUrls, setRedirectUrls] = useState(s.redirectUrls.join('\n'));
  const [siteUrl, setSiteUrl] = useState(s.siteUrl ?? '');
  const [values, setValues] = useState(() => initialValues(s));
  const [secrets, setSecrets] = useState<Partial<Record<AnyProvider, string>>>({});
  // Sign-up control and e-mail verification (API.md §2.1); settings stored before they existed read as the defaults.
  const [auth, setAuth] = useState({ allowSignUp: s.auth?.allowSignUp ?? true, requireEmailVerification: s.auth?.requireEmailVerification ?? false });
  const [oidc, setOidc] = useState({ issuer: s.oauth.oidc?.issuer ?? '', clientId: s.oauth.oidc?.clientId ?? '', name: s.oauth.oidc?.name ?? '' });
  // Full-text search: one row per collection, its field paths comma-separated.
  const savedSearch = s.search ?? {};
  const [searchRows, setSearchRows] = useState(Object.entries(savedSearch).map(([collection, fields]) => ({ collection, fields: fields.join(', ') })));
  const act = useAction();
  const toast = useToast();
  const email = useEmailSection(s, (body) =>
    act.run(async () => {
      await api('PATCH', `/admin/databases/${encodeURIComponent(db.id)}`, { body: { settings: { email: body } } as DatabasePatch });
      toast.toast('SMTP server removed.');
      onSaved();
    }),
  );
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
      // An empty secret field keeps the saved secret: secrets are never sent back to show.
      const oauth = providersPatch(s, values, secrets);
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
      const emailPatch = email.patch();
      if (emailPatch) settings.email = emailPatch;
      if (JSON.stringify(wanted) !== JSON.stringify(savedSearch)) {
        settings.search = { ...Object.fromEntries(Object.keys(savedSearch).map((c) => [c, null])), ...wanted };
      }
      await api('PATCH', `/admin/databases/${encodeURIComponent(db.id)}`, { body: { settings } satisfies DatabasePatch });
      setSecrets({});
      email.saved();
      toast.toast('Settings saved.');
      onSaved();
    });
  };
  const clearSecret = (p: AnyProvider, key: SecretKey = 'clientSecret') =>
    act.run(async () => {
      await api('PATCH', `/admin/databases/${encodeURIComponent(db.id)}`, {
        body: { settings: { oauth: { [p]: { [key]: null } } } } as DatabasePatch,
      });
      toast.toast(key === 'privateKey' ? 'Private key removed.' : 'Client secret removed.');
      onSaved();
    });

  const secretField = (p: AnyProvider, set: boolean, key: SecretKey = 'clientSecret') => (
    <SecretField
      name={inputName(p, key)}
      secretKey={key}
      set={set}
      value={secrets[p] ?? ''}
      onInput={(v) => setSecrets({ ...secrets, [p]: v })}
      onRemove={() => clearSecret(p, key)}
      busy={act.busy}
    />
  );

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
      {PROVIDERS.map((spec) => (
        <ProviderCard
          key={spec.id}
          spec={spec}
          callback={callback(spec.id)}
          configured={Boolean(s.oauth[spec.id]?.clientId)}
          values={values[spec.id]}
          onInput={(k, v) => setValues({ ...values, [spec.id]: { ...values[spec.id], [k]: v } })}
          secret={secretField(spec.id, secretSet(s, spec), spec.secret)}
        />
      ))}
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
        {secretField('oidc', s.oauth.oidc?.clientSecretSet ?? false)}
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
      {email.view}
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
