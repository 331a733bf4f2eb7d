import { createTransport } from 'nodemailer';
import type { Mail, Mailer } from './mailer.ts';

/**
 * nodemailer over `SMTP_URL` (`smtp://user:pass@host:port`, or `smtps://` for implicit TLS), with a
 * small connection pool so a burst of links does not open a connection per mail.
 */
export function smtpMailer(url: string, from: string): Mailer {
  const u = new URL(url);
  const transport = createTransport({
    pool: true,
    maxConnections: 2,
    host: u.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: u.port ? Number(u.port) : u.protocol === 'smtps:' ? 465 : 587,
    secure: u.protocol === 'smtps:',
    auth: u.username ? { user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) } : undefined,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  return {
    async send(mail: Mail) {
      await transport.sendMail({ from: mail.from ?? from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
    },
    async close() {
      transport.close();
    },
  };
}
