import type { Mail } from '../../infra/mailer/mailer.ts';

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The notice that a way in (a second factor, a passkey) was added to an account (API.md §2.2). */
export function wayInAddedMail(m: { to: string; app: string; what: string }): Mail {
  const intro = `${m.what} was just added to your ${m.app} account (${m.to}).`;
  const advice = 'If it was not you, reset your password at once and contact the support of the application.';
  return {
    to: m.to,
    subject: `${m.app}: ${m.what} was added to your account`,
    text: `${intro}\n\n${advice}\n`,
    html: `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5"><p>${escapeHtml(intro)}</p><p>${escapeHtml(advice)}</p></body></html>`,
  };
}
