import type { Mail } from '../infra/mailer/mailer.ts';
import type { MailTemplate } from './settings.ts';

/** The auth e-mails a database can word its own way (settings.email.templates). */
export const TEMPLATE_KINDS = ['verifyEmail', 'resetPassword', 'magicLink'] as const;
export type TemplateKind = (typeof TEMPLATE_KINDS)[number];

/**
 * What a template may say, PocketBase's names: `{APP_NAME}` (settings.email.appName, else the
 * database's name), `{ACTION_URL}` (the link), `{EMAIL}` (the recipient), `{EXPIRES_IN}` ("1 hour").
 */
export const PLACEHOLDERS = ['APP_NAME', 'ACTION_URL', 'EMAIL', 'EXPIRES_IN'] as const;
type Values = Record<(typeof PLACEHOLDERS)[number], string>;

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** svc's own wording of each e-mail: the subject, the sentence before the link, the button, the link's lifetime. */
const DEFAULTS: Record<TemplateKind, { subject: string; intro: string; action: string; validity: string }> = {
  resetPassword: {
    subject: 'Reset your {APP_NAME} password',
    intro: 'Someone asked to reset the password of your {APP_NAME} account ({EMAIL}). Choose a new one here:',
    action: 'Reset password',
    validity: '1 hour',
  },
  magicLink: {
    subject: 'Your {APP_NAME} sign-in link',
    intro: 'Use this link to sign in to {APP_NAME} as {EMAIL}:',
    action: 'Sign in',
    validity: '15 minutes',
  },
  verifyEmail: {
    subject: 'Confirm your e-mail address for {APP_NAME}',
    intro: 'Confirm that {EMAIL} is the e-mail address of your {APP_NAME} account by opening this link:',
    action: 'Confirm e-mail address',
    validity: '24 hours',
  },
};

const OUTRO = 'The link works once and expires in {EXPIRES_IN}. If you did not ask for it, ignore this e-mail.';

/** svc's template of one kind, with placeholders like a database's own. */
function defaultTemplate(kind: TemplateKind): Required<MailTemplate> {
  const d = DEFAULTS[kind];
  return {
    subject: d.subject,
    text: `${d.intro}\n\n{ACTION_URL}\n\n${OUTRO}\n`,
    html: `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">
<p>${d.intro}</p>
<p><a href="{ACTION_URL}" style="display:inline-block;padding:10px 16px;background:#2563eb;color:#fff;border-radius:6px;text-decoration:none">${d.action}</a></p>
<p style="color:#555;font-size:13px">Or paste this address into your browser:<br>{ACTION_URL}</p>
<p style="color:#555;font-size:13px">${OUTRO}</p>
</body></html>`,
  };
}

/**
 * Fills placeholders in one pass (a value that looks like a placeholder stays as it is). In HTML
 * every value is escaped (an app name or address with `<` or `"` cannot add markup or break out
 * of an attribute); the subject and the text part are not HTML and take the values as they are.
 */
const fill = (template: string, values: Values, html: boolean): string =>
  template.replace(/\{([A-Z_]+)\}/g, (whole, name: string) => {
    const v = (values as Record<string, string>)[name];
    if (v === undefined) return whole;
    return html ? escapeHtml(v) : v;
  });

/** The e-mail of one kind to `to`, in the database's wording where it has one, else svc's. */
export function renderMail(kind: TemplateKind, own: MailTemplate | undefined, m: { to: string; app: string; link: string }): Mail {
  const t = { ...defaultTemplate(kind), ...own };
  const values: Values = { APP_NAME: m.app, ACTION_URL: m.link, EMAIL: m.to, EXPIRES_IN: DEFAULTS[kind].validity };
  return { to: m.to, subject: fill(t.subject, values, false).replace(/[\r\n]+/g, ' '), text: fill(t.text, values, false), html: fill(t.html, values, true) };
}
