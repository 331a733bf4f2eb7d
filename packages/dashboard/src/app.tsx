import { useEffect, useState } from 'preact/hooks';
import { api, session, SESSION_ENDED } from './api.ts';
import type { Database, DatabaseList } from './types.ts';
import { match, navigate, usePath } from './router.ts';
import { Link, Loaded, useLoad } from './ui.tsx';
import { SetupPage, SignInPage } from './pages/auth.tsx';
import { DatabasesPage } from './pages/databases.tsx';
import { KeysPage } from './pages/keys.tsx';
import { DocumentsPage } from './pages/documents.tsx';
import { UsersPage } from './pages/users.tsx';
import { WebhooksPage, WebhookPage } from './pages/webhooks.tsx';
import { SettingsPage } from './pages/settings.tsx';
import { LivePage } from './pages/live.tsx';
import { RulesPage } from './pages/rules.tsx';
import { SecurityPage } from './pages/security.tsx';

const TABS = [
  ['documents', 'Documents'],
  ['keys', 'Keys'],
  ['rules', 'Rules'],
  ['users', 'Users'],
  ['webhooks', 'Webhooks'],
  ['settings', 'Settings'],
  ['live', 'Live'],
] as const;

/** The whole dashboard: first run and sign-in, then the databases and each database's pages. */
export function App() {
  const path = usePath();
  const [signedIn, setSignedIn] = useState(Boolean(session.token()));
  const [notice, setNotice] = useState<string>();

  useEffect(() => {
    const ended = () => {
      setSignedIn(false);
      setNotice('Your session has ended. Sign in again.');
    };
    window.addEventListener(SESSION_ENDED, ended);
    return () => window.removeEventListener(SESSION_ENDED, ended);
  }, []);

  const onSignedIn = () => {
    setSignedIn(true);
    setNotice(undefined);
    if (path === '/sign-in' || path === '/setup') navigate('/', true);
  };

  if (!signedIn) {
    return path === '/setup' ? <SetupPage onSignedIn={onSignedIn} /> : <SignInPage notice={notice} onSignedIn={onSignedIn} />;
  }
  return (
    <Shell
      path={path}
      onSignOut={() => {
        setSignedIn(false);
        setNotice('Signed out.');
        navigate('/sign-in');
      }}
    />
  );
}

function Shell({ path, onSignOut }: { path: string; onSignOut: () => void }) {
  const dbMatch = match('/databases/:id/:tab', path) ?? match('/databases/:id/:tab/:sub', path) ?? match('/databases/:id', path);
  const databases = useLoad(() => api<DatabaseList>('GET', '/admin/databases').then((r) => r.databases), [dbMatch ? 'db' : 'home']);
  const db = dbMatch && databases.data?.find((d) => d.id === dbMatch.id);

  useEffect(() => {
    if (dbMatch && !dbMatch.tab) navigate(`/databases/${encodeURIComponent(dbMatch.id)}/documents`, true);
    else if (path === '/sign-in' || path === '/setup') navigate('/', true);
  }, [path]);

  useEffect(() => {
    document.title = db ? `${db.name} · svc` : 'svc dashboard';
  }, [db?.name]);

  const signOut = async () => {
    await api('POST', '/admin/sign-out').catch(() => undefined);
    session.clear();
    onSignOut();
  };

  return (
    <div class="shell">
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="topbar">
        <Link href="/" class="brand">
          svc
        </Link>
        {dbMatch && databases.data && (
          <label class="db-switch">
            <span class="visually-hidden">Database</span>
            <select value={dbMatch.id} onChange={(e) => navigate(`/databases/${encodeURIComponent(e.currentTarget.value)}/${dbMatch.tab ?? 'documents'}`)}>
              {databases.data.map((d) => (
                <option key={d.id} value={d.id}>
                  {d.name}
                </option>
              ))}
            </select>
          </label>
        )}
        <span class="spacer" />
        <span class="muted operator">{session.operator()?.email}</span>
        <Link href="/security">Two-step sign-in</Link>
        <button type="button" onClick={signOut}>
          Sign out
        </button>
      </header>
      {dbMatch && (
        <nav class="tabs" aria-label="Database pages">
          <Link href="/">All databases</Link>
          {TABS.map(([tab, label]) => (
            <Link key={tab} href={`/databases/${encodeURIComponent(dbMatch.id)}/${tab}`} aria-current={dbMatch.tab === tab ? 'page' : undefined}>
              {label}
            </Link>
          ))}
        </nav>
      )}
      <main id="main">
        {!dbMatch ? (
          path === '/' ? (
            <DatabasesPage />
          ) : path === '/security' ? (
            <SecurityPage />
          ) : (
            <NotFound />
          )
        ) : (
          <Loaded load={databases}>
            {() =>
              !db ? (
                <div class="page">
                  <h1>Database not found</h1>
                  <p>
                    It may have been deleted. <Link href="/">See all databases</Link>.
                  </p>
                </div>
              ) : (
                <DatabasePage db={db} tab={dbMatch.tab} sub={dbMatch.sub} onChanged={databases.reload} />
              )
            }
          </Loaded>
        )}
      </main>
    </div>
  );
}

function DatabasePage({ db, tab, sub, onChanged }: { db: Database; tab?: string; sub?: string; onChanged: () => void }) {
  switch (tab) {
    case 'documents':
      return <DocumentsPage db={db} collection={sub} />;
    case 'keys':
      return <KeysPage db={db} />;
    case 'rules':
      return <RulesPage db={db} />;
    case 'users':
      return <UsersPage db={db} />;
    case 'webhooks':
      return sub ? <WebhookPage db={db} webhookId={sub} /> : <WebhooksPage db={db} />;
    case 'settings':
      return <SettingsPage db={db} onSaved={onChanged} />;
    case 'live':
      return <LivePage db={db} />;
    default:
      return <NotFound />;
  }
}

function NotFound() {
  return (
    <div class="page">
      <h1>Page not found</h1>
      <p>
        <Link href="/">Go to your databases</Link>.
      </p>
    </div>
  );
}
