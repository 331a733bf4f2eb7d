import type { Command } from 'commander';
import { loadConfig } from '../config.ts';
import { createDatabase, deleteDatabase, getDatabase, listDatabases } from '../databases/databases.ts';
import { barrierOnce } from '../infra/invalidation/invalidation.ts';
import { CliError, example, print, table, withStore } from './output.ts';
import { confirm, interactive } from './prompt.ts';

/** `svc database create|list|delete`. */
export function registerDatabaseCommands(program: Command): void {
  const database = program.command('database').description('databases, each with its own documents, users and keys');

  example(
    database
      .command('create')
      .description('create a database and print its first secret key (shown once) and its first public key')
      .requiredOption('--name <name>')
      .action(async (o: { name: string }) => {
        const created = await withStore((store) => createDatabase(store, o.name));
        print(created, () =>
          [
            `Created database ${created.database.name} (${created.database.id}).`,
            `Secret key (shown once, keep it server-side): ${created.key.key}`,
            `Public key (for browser code; \`svc key list\` shows it again): ${created.publicKey.key}`,
          ].join('\n'),
        );
      }),
    'svc database create --name my-app',
  );

  example(
    database
      .command('list')
      .description('list the databases, oldest first')
      .action(async () => {
        const databases = await withStore(listDatabases);
        print({ databases }, () =>
          table(
            databases,
            [
              ['ID', (d) => d.id],
              ['NAME', (d) => d.name],
              ['CREATED', (d) => d.createdAt],
            ],
            'No databases yet: create one with svc database create --name <name>.',
          ),
        );
      }),
    'svc database list',
  );

  example(
    database
      .command('delete')
      .description('delete a database with all its documents, users, keys and webhooks; asks first unless --yes')
      .requiredOption('--database <id>')
      .option('--yes', 'do not ask (needed when standard input is not a terminal)')
      .action(async (o: { database: string; yes?: boolean }) => {
        const deleted = await withStore(async (store) => {
          const db = await getDatabase(store, o.database);
          if (!o.yes) {
            if (!interactive()) {
              throw new CliError(`not deleting database ${db.name} (${db.id}) without --yes: standard input is not a terminal to ask at`);
            }
            const sure = await confirm(`Delete database ${db.name} (${db.id}) with all its documents, users and keys? This cannot be undone.`);
            if (!sure) throw new CliError(`database ${db.name} (${db.id}) was not deleted`);
          }
          await deleteDatabase(store, db.id);
          return { id: db.id, name: db.name };
        });
        // Its keys and sessions died with it: return once every running server has dropped them from its caches.
        await barrierOnce(loadConfig().databaseUrl);
        print({ deleted }, () => `Deleted database ${deleted.name} (${deleted.id}) and everything in it.`);
      }),
    'svc database delete --database <id>',
    'svc database delete --database <id> --yes   # in a script: no question',
  );
}
