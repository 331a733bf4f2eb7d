import type { FastifyBaseLogger } from 'fastify';
import { smtpMailer } from './smtp.ts';
import { logMailer } from './log.ts';

/** One e-mail: plain text and HTML bodies of the same message. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The sender, when not the mailer's own (a database's settings.email.from). */
  from?: string;
}

/**
 * Sends e-mail. Two implementations, picked once from config: `smtp` (nodemailer over SMTP_URL)
 * and `log` (prints the mail, so a developer without an SMTP server can click the link).
 */
export interface Mailer {
  /** Resolves when the mail was handed over; rejects when the transport failed. */
  send(mail: Mail): Promise<void>;
  close(): Promise<void>;
}

/** The mailer for a configuration: SMTP when `smtpUrl` is set, else the log. */
export function createMailer(opts: { smtpUrl: string | undefined; from: string; log: FastifyBaseLogger }): Mailer {
  return opts.smtpUrl ? smtpMailer(opts.smtpUrl, opts.from) : logMailer(opts.log);
}
