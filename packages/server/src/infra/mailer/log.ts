import type { FastifyBaseLogger } from 'fastify';
import type { Mail, Mailer } from './mailer.ts';

/**
 * Development mailer, used when SMTP_URL is unset: the plain-text body goes to the log at `info`,
 * so the link in it can be clicked. It carries a live token, which is the point here and the
 * reason production sets SMTP_URL.
 */
export function logMailer(log: FastifyBaseLogger): Mailer {
  return {
    async send(mail: Mail) {
      log.info({ mail: { to: mail.to, subject: mail.subject } }, `e-mail (SMTP_URL is unset, so it is printed here)\n${mail.text}`);
    },
    async close() {},
  };
}
