import { useEffect, useRef, useState } from 'preact/hooks';
import { api, session } from '../api.ts';
import type { MfaChallenge, OperatorSession, SetupState } from '../types.ts';
import { navigate } from '../router.ts';
import { ErrorText, Link, Loading, useAction } from '../ui.tsx';

/** Focuses the first field once the form is shown (`autofocus` works only on page load). */
function useFirstField(shown: boolean) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (shown) ref.current?.focus();
  }, [shown]);
  return ref;
}

/** Whether the instance still has no operator; `unknown` is assumed when the server can't say. */
function useNeedsSetup(unknown: boolean): boolean | undefined {
  const [needsSetup, setNeedsSetup] = useState<boolean>();
  useEffect(() => {
    api<SetupState>('GET', '/admin/setup').then(
      (r) => setNeedsSetup(r.needsSetup),
      () => setNeedsSetup(unknown),
    );
  }, []);
  return needsSetup;
}

/** Sign-in; offers first-run setup while the instance has no operator. */
export function SignInPage({ notice, onSignedIn }: { notice?: string; onSignedIn: () => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const act = useAction();
  const needsSetup = useNeedsSetup(false);
  const first = useFirstField(needsSetup === false);

  const [mfaToken, setMfaToken] = useState<string>();
  const submit = (e: Event) => {
    e.preventDefault();
    void act.run(async () => {
      const r = await api<OperatorSession>('POST', '/admin/sign-in', { body: { email, password } });
      // With a second factor the password alone gives no session: the code comes next (API.md §2.2).
      if (r.token === null && r.mfa) setMfaToken(r.mfa.token);
      else if (r.token && r.operator) {
        session.set(r.token, r.operator);
        onSignedIn();
      }
    });
  };

  if (needsSetup === undefined)
    return (
      <div class="auth-page">
        <Loading />
      </div>
    );
  if (mfaToken) return <SecondStep mfaToken={mfaToken} onSignedIn={onSignedIn} onRestart={() => setMfaToken(undefined)} />;
  if (needsSetup) {
    return (
      <div class="auth-page">
        <div class="card">
          <h1>Welcome to svc</h1>
          <p>This instance has no operator yet. Create the first one with the one-time setup token printed in the server's log.</p>
          <button type="button" class="primary" onClick={() => navigate('/setup')} autoFocus>
            Set up this instance
          </button>
        </div>
      </div>
    );
  }
  return (
    <div class="auth-page">
      <form class="card" onSubmit={submit}>
        <h1>Sign in to svc</h1>
        {notice && (
          <p class="notice" role="status">
            {notice}
          </p>
        )}
        <label>
          E-mail
          <input type="email" name="email" autoComplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} ref={first} />
        </label>
        <label>
          Password
          <input
            type="password"
            name="password"
            autoComplete="current-password"
            required
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
        </label>
        <ErrorText error={act.error} />
        <button type="submit" class="primary" disabled={act.busy}>
          {act.busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </div>
  );
}

/** The second step of an operator's sign-in: a code from the authenticator app, or a recovery code. */
function SecondStep({ mfaToken, onSignedIn, onRestart }: { mfaToken: string; onSignedIn: () => void; onRestart: () => void }) {
  const [code, setCode] = useState('');
  const act = useAction();
  const first = useFirstField(true);
  const submit = (e: Event) => {
    e.preventDefault();
    void act.run(async () => {
      const typed = code.trim();
      const body = /^\d{6}$/.test(typed) ? { mfaToken, code: typed } : { mfaToken, recoveryCode: typed };
      const r = await api<MfaChallenge>('POST', '/admin/mfa/challenge', { body });
      session.set(r.token, r.operator);
      onSignedIn();
    });
  };
  return (
    <div class="auth-page">
      <form class="card" onSubmit={submit}>
        <h1>Two-step sign-in</h1>
        <p class="muted">Enter the 6-digit code your authenticator app shows for svc, or one of your recovery codes.</p>
        <label>
          Code
          <input
            name="code"
            autoComplete="one-time-code"
            inputMode="text"
            required
            spellcheck={false}
            value={code}
            onInput={(e) => setCode(e.currentTarget.value)}
            ref={first}
          />
        </label>
        <ErrorText error={act.error} />
        <button type="submit" class="primary" disabled={act.busy}>
          {act.busy ? 'Checking…' : 'Verify'}
        </button>
        <button type="button" onClick={onRestart}>
          Start again
        </button>
      </form>
    </div>
  );
}

/** First run: the setup token from the log, and the first operator's e-mail and password. */
export function SetupPage({ onSignedIn }: { onSignedIn: () => void }) {
  const [setupToken, setToken] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const act = useAction();
  const needsSetup = useNeedsSetup(true);
  const first = useFirstField(needsSetup === true);

  const submit = (e: Event) => {
    e.preventDefault();
    void act.run(async () => {
      const r = await api<MfaChallenge>('POST', '/admin/setup', { body: { setupToken: setupToken.trim(), email, password } });
      session.set(r.token, r.operator);
      onSignedIn();
    });
  };

  if (needsSetup === undefined)
    return (
      <div class="auth-page">
        <Loading />
      </div>
    );
  if (!needsSetup) {
    return (
      <div class="auth-page">
        <div class="card">
          <h1>Already set up</h1>
          <p>
            This instance has an operator. <Link href="/sign-in">Sign in</Link>.
          </p>
        </div>
      </div>
    );
  }
  return (
    <div class="auth-page">
      <form class="card" onSubmit={submit}>
        <h1>Set up svc</h1>
        <p class="muted">
          The server printed a setup token in its log when it started (a line with <code>svc_setup_…</code>). It works once, until the first operator exists.
        </p>
        <label>
          Setup token
          <input
            name="setupToken"
            class="mono"
            required
            autoComplete="off"
            spellcheck={false}
            value={setupToken}
            onInput={(e) => setToken(e.currentTarget.value)}
            ref={first}
          />
        </label>
        <label>
          Your e-mail
          <input type="email" name="email" autoComplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        </label>
        <label>
          Password <span class="muted">(8 characters or more)</span>
          <input
            type="password"
            name="password"
            autoComplete="new-password"
            required
            minLength={8}
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
        </label>
        <ErrorText error={act.error} />
        <button type="submit" class="primary" disabled={act.busy}>
          {act.busy ? 'Creating…' : 'Create operator and sign in'}
        </button>
      </form>
    </div>
  );
}
