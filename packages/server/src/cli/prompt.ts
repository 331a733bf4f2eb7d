import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { CliError } from './output.ts';

/**
 * Asking the person at the terminal: a password without echo, a yes/no question. Questions go to
 * standard error, so standard output keeps only the result (and `--json` stays one document).
 * Only node's readline: on a terminal it reads in raw mode and echoes through its output stream,
 * which here drops everything typed after the question.
 */

/** Whether a person can answer: standard input is a terminal. */
export const interactive = (): boolean => process.stdin.isTTY === true;

/** One line typed at the terminal; with `hidden`, nothing typed is shown. Ctrl-C or Ctrl-D cancels. */
function ask(question: string, hidden: boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    let muted = false;
    const output = new Writable({
      write(chunk, _encoding, done) {
        if (!muted) process.stderr.write(chunk);
        done();
      },
    });
    const rl = createInterface({ input: process.stdin, output, terminal: true });
    let settled = false;
    const finish = (answer: string | undefined) => {
      if (settled) return;
      settled = true;
      rl.close();
      if (hidden) process.stderr.write('\n'); // the Enter key was not echoed either
      if (answer === undefined) reject(new CliError('cancelled'));
      else resolve(answer);
    };
    rl.on('SIGINT', () => finish(undefined));
    rl.on('close', () => finish(undefined));
    rl.question(question, (answer) => finish(answer));
    // The question is written by now; what is typed from here on is not.
    muted = hidden;
  });
}

/** The first line of standard input (a piped password), without its line ending. */
async function firstLine(what: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY, terminal: false });
  try {
    for await (const line of rl) return line;
  } finally {
    rl.close();
  }
  throw new CliError(`no ${what} on standard input (give --password, or pipe it as one line)`);
}

/**
 * A new password: asked twice without echo on a terminal, else the first line of standard input
 * (`printf '%s\n' "$PASSWORD" | svc operator create --email …`).
 */
export async function newPassword(): Promise<string> {
  if (!interactive()) return firstLine('password');
  const first = await ask('Password (8 to 256 characters): ', true);
  const again = await ask('The same password again: ', true);
  if (first !== again) throw new CliError('the two passwords differ; nothing was changed');
  return first;
}

/** A yes/no question at the terminal; only "y" or "yes" is a yes. */
export async function confirm(question: string): Promise<boolean> {
  const answer = await ask(`${question} [y/N] `, false);
  return /^\s*y(es)?\s*$/i.test(answer);
}
