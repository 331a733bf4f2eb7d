import { useState } from 'preact/hooks';
import type { DatabaseSettings } from '../types.ts';

const KINDS = [
  ['verifyEmail', 'Verify e-mail'],
  ['resetPassword', 'Reset password'],
  ['magicLink', 'Magic link'],
] as const;
type Kind = (typeof KINDS)[number][0];
const PARTS = ['subject', 'text', 'html'] as const;
type Part = (typeof PARTS)[number];
type Templates = Record<Kind, Record<Part, string>>;
type Saved = DatabaseSettings['email'];

const templatesOf = (e: Saved): Templates =>
  Object.fromEntries(KINDS.map(([k]) => [k, Object.fromEntries(PARTS.map((p) => [p, e?.templates?.[k]?.[p] ?? '']))])) as Templates;

/**
 * The E-mail card of the settings page (docs/email.md): the database's own SMTP server
 * (write-only), sender, application name, and its wording of each auth e-mail. The page's Save
 * sends `patch()`; an empty template part is svc's wording (a saved one emptied is removed).
 */
export function useEmailSection(s: DatabaseSettings, removeSmtp: (patch: { smtpUrl: null }) => void) {
  const e = s.email;
  const [smtpUrl, setSmtpUrl] = useState('');
  const [from, setFrom] = useState(e?.from ?? '');
  const [appName, setAppName] = useState(e?.appName ?? '');
  const [templates, setTemplates] = useState(() => templatesOf(e));
  const [kind, setKind] = useState<Kind>('verifyEmail');
  const smtpSet = e?.smtpUrlSet ?? false;

  const patch = (): Record<string, unknown> | undefined => {
    const out: Record<string, unknown> = {};
    if (smtpUrl.trim()) out.smtpUrl = smtpUrl.trim();
    if (from.trim() !== (e?.from ?? '')) out.from = from.trim() || null;
    if (appName.trim() !== (e?.appName ?? '')) out.appName = appName.trim() || null;
    const saved = templatesOf(e);
    const t: Record<string, Record<string, string | null>> = {};
    for (const [k] of KINDS) {
      for (const p of PARTS) {
        if (templates[k][p] === saved[k][p]) continue;
        t[k] = { ...t[k], [p]: templates[k][p].trim() ? templates[k][p] : null };
      }
    }
    if (Object.keys(t).length) out.templates = t;
    return Object.keys(out).length ? out : undefined;
  };
  const part = (p: Part) => templates[kind][p];
  const setPart = (p: Part, v: string) => setTemplates({ ...templates, [kind]: { ...templates[kind], [p]: v } });

  const view = (
    <section class="card email-settings">
      <h2>E-mail</h2>
      <p class="muted small">
        The server that sends this database's verification, password-reset and magic-link e-mails, and their wording. Empty: the server's SMTP_URL and
        EMAIL_FROM, and svc's wording.
      </p>
      <label>
        SMTP server {smtpSet ? <span class="badge succeeded">set</span> : <span class="badge">not set</span>}
        <input
          type="password"
          name="smtpUrl"
          value={smtpUrl}
          autoComplete="new-password"
          placeholder={smtpSet ? 'Saved: leave empty to keep it, type to replace it' : 'smtp://user:password@smtp.example.com:587'}
          onInput={(ev) => setSmtpUrl(ev.currentTarget.value)}
        />
      </label>
      {smtpSet && (
        <button type="button" class="small" onClick={() => removeSmtp({ smtpUrl: null })}>
          Remove the saved SMTP server
        </button>
      )}
      <label>
        Sender
        <input name="emailFrom" value={from} placeholder="My App <no-reply@example.com>" onInput={(ev) => setFrom(ev.currentTarget.value)} autoComplete="off" />
      </label>
      <label>
        Application name <span class="muted">({'{APP_NAME}'} in the templates; empty: the database's name)</span>
        <input name="emailAppName" value={appName} onInput={(ev) => setAppName(ev.currentTarget.value)} autoComplete="off" />
      </label>
      <div class="row segmented" role="tablist">
        {KINDS.map(([k, label]) => (
          <button type="button" role="tab" key={k} class={k === kind ? 'small primary' : 'small'} aria-selected={k === kind} onClick={() => setKind(k)}>
            {label}
          </button>
        ))}
      </div>
      <p class="muted small">
        Placeholders: <code>{'{ACTION_URL}'}</code> (the link; the text and HTML must have it), <code>{'{APP_NAME}'}</code>, <code>{'{EMAIL}'}</code>,{' '}
        <code>{'{EXPIRES_IN}'}</code>. In HTML their values are escaped. An empty part keeps svc's wording.
      </p>
      <label>
        Subject
        <input name="templateSubject" value={part('subject')} placeholder="svc's subject" onInput={(ev) => setPart('subject', ev.currentTarget.value)} />
      </label>
      <label>
        Text
        <textarea
          name="templateText"
          class="mono"
          rows={4}
          value={part('text')}
          placeholder="svc's text"
          onInput={(ev) => setPart('text', ev.currentTarget.value)}
        />
      </label>
      <label>
        HTML
        <textarea
          name="templateHtml"
          class="mono"
          rows={6}
          value={part('html')}
          placeholder="svc's HTML"
          onInput={(ev) => setPart('html', ev.currentTarget.value)}
        />
      </label>
    </section>
  );
  return { view, patch, saved: () => setSmtpUrl('') };
}
