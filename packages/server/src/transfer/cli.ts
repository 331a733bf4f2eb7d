import type { Command } from 'commander';
import { loadConfig } from '../config.ts';
import { ApiError } from '../errors.ts';
import { openStore } from '../store/open-store.ts';
import { exportDatabase } from './export.ts';
import { importDatabase } from './import.ts';
import { backupStore } from './backup.ts';
import { openByteStore } from '../infra/bytes/open.ts';

/** How cli.ts prints a result: `value` under --json, else `human()`. */
type Printer = (value: unknown, human: () => string) => void;

/** Applies pending migrations of the store (as every svc command does), so both ends have today's tables. */
async function migrated(): Promise<ReturnType<typeof loadConfig>> {
  const config = loadConfig();
  const store = await openStore(config.databaseUrl, config.storeTimeouts);
  await store.close();
  return config;
}

/**
 * `svc export`, `svc import` and `svc backup` (API.md §11; transfer/format.ts has the file
 * format). Export writes nothing but the file to standard output, so it pipes into an import;
 * its summary goes to standard error.
 */
export function registerTransferCommands(program: Command, print: Printer): void {
  program
    .command('export')
    .description('write one database (settings, keys, users, documents, webhooks) as NDJSON to standard output; the file holds secrets')
    .requiredOption('--database <id>')
    .addHelpText('after', '\nExample:\n  svc export --database <id> > app.ndjson\n  svc export --database <id> | DATABASE_URL=postgres://… svc import')
    .action(async (o: { database: string }) => {
      const config = await migrated();
      const bytes = openByteStore(config.files);
      const end = await exportDatabase({
        databaseUrl: config.databaseUrl,
        databaseId: o.database,
        out: process.stdout,
        timeouts: config.storeTimeouts,
        bytes,
        warn: (m) => console.error(`svc export: warning: ${m}`),
      }).finally(() => bytes.close());
      if (!program.opts().json)
        console.error(`Exported database ${o.database}: ${end.rows.documents ?? 0} documents, ${end.rows.users ?? 0} users, last event id ${end.lastEventId}.`);
    });

  program
    .command('import')
    .description('read an export from standard input into the store of DATABASE_URL (running or not); refuses a database id that exists')
    .addHelpText('after', '\nExample:\n  DATABASE_URL=postgres://user:pass@host/svc svc import < app.ndjson')
    .action(async () => {
      if (process.stdin.isTTY) throw new ApiError('validation_failed', 'svc import reads an export from standard input: svc import < file.ndjson');
      const config = await migrated();
      const bytes = openByteStore(config.files);
      const { header, end } = await importDatabase({ databaseUrl: config.databaseUrl, input: process.stdin, timeouts: config.storeTimeouts, bytes }).finally(
        () => bytes.close(),
      );
      print(
        { imported: header.database, rows: end.rows, lastEventId: end.lastEventId },
        () =>
          `Imported database ${header.database}: ${end.rows.documents ?? 0} documents, ${end.rows.users ?? 0} users; new events are numbered after ${end.lastEventId}.`,
      );
    });

  program
    .command('backup')
    .description('write a consistent copy of the SQLite store to <file>, while servers run (PostgreSQL: use pg_dump)')
    .argument('<file>')
    .addHelpText('after', '\nExample:\n  svc backup backups/svc-$(date +%F).db')
    .action(async (file: string) => {
      const config = loadConfig();
      const done = await backupStore(config.databaseUrl, file, config.storeTimeouts);
      print(done, () => `Backed up the store to ${done.file} (${done.pages} pages).`);
    });
}
