import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { loadConfig } from '../config.ts';
import { systemClock } from '../infra/clock.ts';
import { getDatabase, updateDatabase } from '../databases/databases.ts';
import { parseJsonBody } from '../json/parse.ts';
import { CliError, example, print, withStore } from '../cli/output.ts';

interface SetOptions {
  database: string;
  file?: string;
  smtpUrl?: string;
  from?: string;
  appName?: string;
}

/** `svc email get|set`: a database's SMTP server, sender, application name and templates (docs/email.md). */
export function registerEmailCommands(program: Command): void {
  const email = program.command('email').description("a database's auth e-mails: its SMTP server, sender, application name and templates (settings.email)");
  example(
    email
      .command('get')
      .description('print the e-mail settings (the SMTP URL only as smtpUrlSet: it holds a password)')
      .requiredOption('--database <id>')
      .action(async (o: { database: string }) => {
        const shown = (await withStore((store) => getDatabase(store, o.database))).settings.email ?? { smtpUrlSet: false };
        print({ email: shown }, () => JSON.stringify(shown, null, 2));
      }),
    'svc email get --database <id>',
  );
  example(
    email
      .command('set')
      .description('merge into the e-mail settings (JSON Merge Patch: null removes); they apply to the next e-mail')
      .requiredOption('--database <id>')
      .option('--file <path>', 'a JSON file of settings.email to merge, e.g. {"templates": {"magicLink": {"subject": "…", "text": "…", "html": "…"}}}')
      .option('--smtp-url <url>', 'smtp://user:password@host:587 or smtps://…:465 ("" removes it: the server\'s SMTP_URL again)')
      .option('--from <address>', 'the sender, e.g. "My App <no-reply@example.com>"')
      .option('--app-name <name>', '{APP_NAME} in the templates (default: the database name)')
      .action(async (o: SetOptions) => {
        const patch: Record<string, unknown> =
          o.file === undefined ? {} : (parseJsonBody(readFileSync(o.file, 'utf8'), loadConfig().limits.jsonDepth) as Record<string, unknown>);
        if (typeof patch !== 'object' || patch === null || Array.isArray(patch))
          throw new CliError('the --file must hold a JSON object: the settings.email to merge');
        const flags = { smtpUrl: o.smtpUrl, from: o.from, appName: o.appName };
        for (const [k, v] of Object.entries(flags)) if (v !== undefined) patch[k] = v === '' ? null : v;
        if (Object.keys(patch).length === 0) throw new CliError('nothing to set: give --file, --smtp-url, --from or --app-name');
        const db = await withStore((store) => updateDatabase(store, systemClock, o.database, { settings: { email: patch } }));
        const shown = db.settings.email ?? { smtpUrlSet: false };
        print(
          { email: shown },
          () => `Stored the e-mail settings of database ${o.database}; the next auth e-mail uses them.\n${JSON.stringify(shown, null, 2)}`,
        );
      }),
    'svc email set --database <id> --smtp-url smtp://user:pass@smtp.example.com:587 --from "My App <no-reply@example.com>"',
    'svc email set --database <id> --file email.json',
  );
}
