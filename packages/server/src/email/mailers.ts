import { LRUCache } from 'lru-cache';
import type { Mail, Mailer } from '../infra/mailer/mailer.ts';
import { smtpMailer } from '../infra/mailer/smtp.ts';
import { tokenHash } from '../auth/tokens.ts';
import { renderMail, type TemplateKind } from './templates.ts';
import type { EmailSettings } from './settings.ts';

/** One auth e-mail to send: its kind, recipient, link, and the database's e-mail settings. */
interface AuthMail {
  kind: TemplateKind;
  to: string;
  link: string;
  /** The database's name: the application name unless settings.email.appName says otherwise. */
  databaseName: string;
  email: EmailSettings | undefined;
}

/**
 * Sends every auth e-mail (docs/email.md): through the database's own SMTP server when
 * `settings.email.smtpUrl` is set, else through the server's (SMTP_URL, or the log); from
 * `settings.email.from`, else EMAIL_FROM; worded by the database's templates where it has them.
 * One pooled transport per SMTP URL, the 50 most recently used kept open (keyed by a hash: the URL
 * holds a password); a dropped one finishes what it is sending before it closes.
 */
export class DatabaseMailers {
  private readonly own = new LRUCache<string, Mailer>({
    max: 50,
    dispose: (mailer) => {
      void mailer.close();
    },
  });

  constructor(
    private readonly server: Mailer,
    private readonly serverFrom: string,
  ) {}

  private mailerFor(smtpUrl: string | undefined): Mailer {
    if (!smtpUrl) return this.server;
    const key = tokenHash(smtpUrl);
    let mailer = this.own.get(key);
    if (!mailer) {
      mailer = smtpMailer(smtpUrl, this.serverFrom);
      this.own.set(key, mailer);
    }
    return mailer;
  }

  async send(m: AuthMail): Promise<void> {
    const mail: Mail = renderMail(m.kind, m.email?.templates?.[m.kind], { to: m.to, app: m.email?.appName ?? m.databaseName, link: m.link });
    if (m.email?.from) mail.from = m.email.from;
    await this.mailerFor(m.email?.smtpUrl).send(mail);
  }

  async close(): Promise<void> {
    this.own.clear(); // closes each (dispose)
    await this.server.close();
  }
}
