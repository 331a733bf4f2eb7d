import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';

/** A real SMTP server on 127.0.0.1 that keeps every mail it receives, parsed. */
export interface SmtpSink {
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL. */
  url: string;
  /** Every mail received, in order. */
  mails: ParsedMail[];
  /** The next mail to `to` not taken yet; rejects after `timeoutMs`. */
  next(to: string, timeoutMs?: number): Promise<ParsedMail>;
  /** How many mails to `to` arrived so far. */
  count(to: string): number;
  /** From now on, refuse every message (a failing SMTP server). */
  refuse(yes: boolean): void;
  close(): Promise<void>;
}

const recipients = (m: ParsedMail): string[] =>
  (Array.isArray(m.to) ? m.to : m.to ? [m.to] : []).flatMap((a) => a.value.map((v) => (v.address ?? '').toLowerCase()));

/** Starts an SMTP sink (no TLS, no auth needed, any credentials accepted). */
export async function startSmtpSink(): Promise<SmtpSink> {
  const mails: ParsedMail[] = [];
  const taken = new Set<ParsedMail>();
  const waiters: Array<() => void> = [];
  let refusing = false;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth: (_auth, _session, cb) => cb(null, { user: 'test' }),
    onData(stream, _session, cb) {
      if (refusing) {
        stream.resume();
        stream.on('end', () => cb(Object.assign(new Error('mailbox unavailable'), { responseCode: 550 })));
        return;
      }
      simpleParser(stream).then(
        (mail) => {
          mails.push(mail);
          for (const w of waiters.splice(0)) w();
          cb();
        },
        (e: Error) => cb(e),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;

  const find = (to: string) => mails.find((m) => !taken.has(m) && recipients(m).includes(to.toLowerCase()));
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async next(to, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const m = find(to);
        if (m) {
          taken.add(m);
          return m;
        }
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(t);
            resolve();
          });
        });
      }
    },
    count: (to) => mails.filter((m) => recipients(m).includes(to.toLowerCase())).length,
    refuse: (yes) => {
      refusing = yes;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first link in a mail's plain-text body, parsed. */
export function linkIn(mail: ParsedMail): URL {
  const m = /https?:\/\/\S+/.exec(mail.text ?? '');
  if (!m) throw new Error(`no link in the mail "${mail.subject}"`);
  return new URL(m[0]);
}
