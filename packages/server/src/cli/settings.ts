import { readFileSync } from 'node:fs';
import { text as readAll } from 'node:stream/consumers';
import type { Command } from 'commander';
import { loadConfig } from '../config.ts';
import { getDatabase, updateDatabase } from '../databases/databases.ts';
import { parseJsonBody } from '../json/parse.ts';
import { readRules, saveRules } from '../rules/rules.ts';
import { barrierOnce } from '../infra/invalidation/invalidation.ts';
import { systemClock } from '../infra/clock.ts';
import { CliError, example, print, withStore } from './output.ts';

/** `svc rules get|set` and `svc search get|set`: parts of a database's settings. */
export function registerSettingsCommands(program: Command): void {
  const rules = program.command('rules').description('access rules of a database: what public keys may do');
  example(
    rules
      .command('get')
      .description('print the rules as JSON (what `rules set` takes)')
      .requiredOption('--database <id>')
      .action(async (o: { database: string }) => {
        const current = await withStore((store) => readRules(store, o.database));
        print({ rules: current }, () => JSON.stringify(current, null, 2));
      }),
    'svc rules get --database <id> > rules.json',
  );
  example(
    rules
      .command('set')
      .description('validate rules and store them, replacing the old ones whole; they apply at once')
      .requiredOption('--database <id>')
      .option('--file <path>', 'a JSON file of rules (default: read standard input)')
      .action(async (o: { database: string; file?: string }) => {
        const text = o.file === undefined ? await readAll(process.stdin) : readFileSync(o.file, 'utf8');
        // Paths in errors start at the file's root ('/todos/read'), as the file holds the rules object itself.
        const saved = await withStore((store) => saveRules(store, systemClock, o.database, parseJsonBody(text, loadConfig().limits.jsonDepth), ''));
        // Running servers keep rules in memory on PostgreSQL: return once every one of them dropped the old ones.
        await barrierOnce(loadConfig().databaseUrl);
        print({ rules: saved }, () => `Stored the rules of database ${o.database}; they apply at once.`);
      }),
    'svc rules set --database <id> --file rules.json',
  );

  const search = program.command('search').description("full-text search fields of a database's collections (settings.search)");
  example(
    search
      .command('get')
      .description('print the search fields: of every collection, or of one')
      .requiredOption('--database <id>')
      .option('--collection <name>')
      .action(async (o: { database: string; collection?: string }) => {
        const all = (await withStore((store) => getDatabase(store, o.database))).settings.search ?? {};
        const shown = o.collection === undefined ? all : { [o.collection]: all[o.collection] ?? null };
        print({ search: shown }, () => JSON.stringify(shown, null, 2));
      }),
    'svc search get --database <id>',
  );
  example(
    search
      .command('set')
      .description('set the fields search= looks in for one collection (a running server indexes its documents in the background)')
      .requiredOption('--database <id>')
      .requiredOption('--collection <name>')
      .option('--fields <paths>', 'comma-separated field paths, e.g. title,body,author.name')
      .option('--remove', "remove the collection's search fields (and its index)")
      .action(async (o: { database: string; collection: string; fields?: string; remove?: boolean }) => {
        if ((o.fields === undefined) === (o.remove === undefined)) throw new CliError('give either --fields a,b or --remove');
        const fields = o.remove ? null : (o.fields ?? '').split(',').map((f) => f.trim());
        const db = await withStore((store) => updateDatabase(store, systemClock, o.database, { settings: { search: { [o.collection]: fields } } }));
        print({ search: db.settings.search ?? {} }, () =>
          fields
            ? `Collection ${o.collection} of database ${o.database} is searched in ${fields.join(', ')}; a running server indexes its documents now.`
            : `Collection ${o.collection} of database ${o.database} has no search fields any more.`,
        );
      }),
    'svc search set --database <id> --collection posts --fields title,body',
  );
}
