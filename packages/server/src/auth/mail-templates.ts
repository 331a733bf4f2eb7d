import type { Mail } from '../infra/mailer/mailer.ts';

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

interface LinkMail {
  to: string;
  /** The database's name: the application the user knows. */
  app: string;
  link: string;
}

function render(m: LinkMail, subject: string, intro: string, action: string, validity: string): Mail {
  const text = `${intro}\n\n${m.link}\n\nThe link works once and expires in ${validity}. ` + `If you did not ask for it, ignore this e-mail.\n`;
  const html = `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">
<p>${escapeHtml(intro)}</p>
<p><a href="${escapeHtml(m.link)}" style="display:inline-block;padding:10px 16px;background:#2563eb;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(action)}</a></p>
<p style="color:#555;font-size:13px">Or paste this address into your browser:<br>${escapeHtml(m.link)}</p>
<p style="color:#555;font-size:13px">The link works once and expires in ${escapeHtml(validity)}. If you did not ask for it, ignore this e-mail.</p>
</body></html>`;
  return { to: m.to, subject, text, html };
}

/** The password-reset e-mail (link valid 1 hour). */
export function resetPasswordMail(m: LinkMail): Mail {
  return render(
    m,
    `Reset your ${m.app} password`,
    `Someone asked to reset the password of your ${m.app} account (${m.to}). Choose a new one here:`,
    'Reset password',
    '1 hour',
  );
}

/** The magic-link e-mail (link valid 15 minutes). */
export function magicLinkMail(m: LinkMail): Mail {
  return render(m, `Your ${m.app} sign-in link`, `Use this link to sign in to ${m.app} as ${m.to}:`, 'Sign in', '15 minutes');
}

/** The e-mail-verification e-mail (link valid 24 hours): it confirms the address, nothing else. */
export function verifyEmailMail(m: LinkMail): Mail {
  return render(
    m,
    `Confirm your e-mail address for ${m.app}`,
    `Confirm that ${m.to} is the e-mail address of your ${m.app} account by opening this link:`,
    'Confirm e-mail address',
    '24 hours',
  );
}
