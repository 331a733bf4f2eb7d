import type { ErrorDetail } from '../errors.ts';
import { isObject } from '../json/merge-patch.ts';
import { PLACEHOLDERS, TEMPLATE_KINDS, type TemplateKind } from './templates.ts';

/** One e-mail's own wording; a part left out keeps svc's. */
export interface MailTemplate {
  subject?: string;
  text?: string;
  html?: string;
}

/**
 * `settings.email` (docs/email.md): the SMTP server, sender and application name of a database's
 * auth e-mails, and its own templates. `smtpUrl` is write-only (reads show `smtpUrlSet`).
 */
export interface EmailSettings {
  smtpUrl?: string;
  from?: string;
  appName?: string;
  templates?: Partial<Record<TemplateKind, MailTemplate>>;
}

const LIMITS = { subject: 200, text: 20_000, html: 100_000 } as const;
const KEYS = ['smtpUrl', 'from', 'appName', 'templates'];
// An address, or a display name and an address: `App <no-reply@example.com>`. No line breaks (header injection).
const FROM = /^(?:[^\r\n<>]{0,100}<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/;
const PLACEHOLDER = /\{([A-Z_]+)\}/g;

/** Validates `settings.email` (after merging), adding every problem to `details`; the value to keep. */
export function checkEmailSettings(value: unknown, details: ErrorDetail[]): EmailSettings | undefined {
  const at = '/settings/email';
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) {
    details.push({ path: at, message: 'must be {smtpUrl, from, appName, templates}' });
    return undefined;
  }
  for (const k of Object.keys(value)) if (!KEYS.includes(k)) details.push({ path: `${at}/${k}`, message: `is not a setting (${KEYS.join(', ')})` });
  const { smtpUrl, from, appName, templates } = value;
  if (smtpUrl !== undefined && !smtpUrlOk(smtpUrl))
    details.push({ path: `${at}/smtpUrl`, message: 'must be an smtp:// or smtps:// URL (smtp://user:password@host:port)' });
  if (from !== undefined && (typeof from !== 'string' || !FROM.test(from)))
    details.push({ path: `${at}/from`, message: 'must be an address, or a name and an address: App <no-reply@example.com>' });
  if (appName !== undefined && (typeof appName !== 'string' || appName.length < 1 || appName.length > 100 || /[\r\n]/.test(appName)))
    details.push({ path: `${at}/appName`, message: 'must be a name of 1 to 100 characters on one line' });
  if (templates !== undefined) checkTemplates(templates, details);
  return value as EmailSettings;
}

function smtpUrlOk(v: unknown): boolean {
  if (typeof v !== 'string' || v.length > 1024) return false;
  try {
    const u = new URL(v);
    return (u.protocol === 'smtp:' || u.protocol === 'smtps:') && u.hostname !== '';
  } catch {
    return false;
  }
}

function checkTemplates(templates: unknown, details: ErrorDetail[]): void {
  const at = '/settings/email/templates';
  if (!isObject(templates)) {
    details.push({ path: at, message: `must be {${TEMPLATE_KINDS.join('|')}: {subject, text, html}}` });
    return;
  }
  for (const [kind, t] of Object.entries(templates)) {
    const path = `${at}/${kind}`;
    if (!TEMPLATE_KINDS.includes(kind as TemplateKind)) details.push({ path, message: `must be one of ${TEMPLATE_KINDS.join(', ')}` });
    else if (!isObject(t)) details.push({ path, message: 'must be {subject, text, html}' });
    else {
      for (const [part, v] of Object.entries(t)) {
        const p = `${path}/${part}`;
        if (!Object.hasOwn(LIMITS, part)) details.push({ path: p, message: 'is not a part of a template (subject, text, html)' });
        else if (typeof v !== 'string' || v.trim() === '' || v.length > LIMITS[part as keyof typeof LIMITS])
          details.push({ path: p, message: `must be text of 1 to ${LIMITS[part as keyof typeof LIMITS]} characters` });
        else details.push(...placeholderProblems(p, part, v));
      }
    }
  }
}

/** Unknown placeholders, a subject on several lines, or a body without the link. */
function placeholderProblems(path: string, part: string, v: string): ErrorDetail[] {
  const out: ErrorDetail[] = [];
  const unknown = [...v.matchAll(PLACEHOLDER)].map((m) => m[1]).filter((n) => !PLACEHOLDERS.includes(n as (typeof PLACEHOLDERS)[number]));
  if (unknown.length) out.push({ path, message: `uses unknown placeholders {${unknown.join('}, {')}}; known: {${PLACEHOLDERS.join('}, {')}}` });
  if (part === 'subject' && /[\r\n]/.test(v)) out.push({ path, message: 'must be one line' });
  if (part !== 'subject' && !v.includes('{ACTION_URL}')) out.push({ path, message: 'must contain {ACTION_URL}: the link is what the e-mail is for' });
  return out;
}

/** `settings.email` as reads show it: `smtpUrlSet` instead of the URL (it holds the SMTP password). */
export function publicEmailSettings(s: EmailSettings | undefined) {
  if (!s) return undefined;
  const { smtpUrl, ...rest } = s;
  return { smtpUrlSet: Boolean(smtpUrl), ...rest };
}
