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

/** `svc rules get|set`, `svc search get|set` and `svc files get|set`: parts of a database's settings. */
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
  registerFilesCommands(program);
}

/** A list option: `a,b` → ['a', 'b']; `none` → null (the setting is removed). */
const listOption = (value: string | undefined): string[] | null | undefined =>
  value === undefined ? undefined : value.trim() === 'none' ? null : value.split(',').map((v) => v.trim());

/** `svc files get|set`: the buckets' settings (settings.files) and what the database's files take. */
function registerFilesCommands(program: Command): void {
  const files = program.command('files').description('file buckets of a database: their settings (settings.files) and what they hold');
  example(
    files
      .command('get')
      .description("print the buckets' settings, what each bucket holds, and the database's bytes against LIMIT_STORAGE_BYTES_PER_DATABASE")
      .requiredOption('--database <id>')
      .option('--bucket <name>')
      .action(async (o: { database: string; bucket?: string }) => {
        const { settings, buckets } = await withStore(async (store) => ({
          settings: (await getDatabase(store, o.database)).settings.files ?? {},
          buckets: await store.all<{ bucket: string; n: string | number; bytes: string | number }>(
            'SELECT bucket, COUNT(*) AS n, CAST(SUM(size) AS TEXT) AS bytes FROM files WHERE database_id = ? GROUP BY bucket ORDER BY bucket',
            [o.database],
          ),
        }));
        const held = buckets
          .map((b) => ({ name: b.bucket, count: Number(b.n), bytes: Number(b.bytes) }))
          .filter((b) => o.bucket === undefined || b.name === o.bucket);
        const shown = o.bucket === undefined ? settings : { [o.bucket]: settings[o.bucket] ?? null };
        const used = buckets.reduce((sum, b) => sum + Number(b.bytes), 0);
        const quota = { bytes: used, limit: loadConfig().files.maxDatabaseBytes };
        print({ files: shown, buckets: held, quota }, () =>
          [
            JSON.stringify(shown, null, 2),
            ...held.map((b) => `${b.name}: ${b.count} file(s), ${b.bytes} bytes`),
            `The database's files take ${quota.bytes} of ${quota.limit} bytes (LIMIT_STORAGE_BYTES_PER_DATABASE, the same for every database).`,
          ].join('\n'),
        );
      }),
    'svc files get --database <id> --bucket avatars',
  );
  example(
    files
      .command('set')
      .description("change one bucket's settings (only those given; `none` removes one), or --remove them all; they apply at once")
      .requiredOption('--database <id>')
      .requiredOption('--bucket <name>')
      .option('--public <true|false>', 'serve its files to anyone at /v1/public/<database>/<bucket>/<id>')
      .option('--max-size <bytes>', 'the largest file it takes (at most LIMIT_FILE_BYTES counts), or none')
      .option('--content-types <types>', 'the types it takes, e.g. image/*,application/pdf, or none (any)')
      .option('--thumbs <sizes>', 'thumbnail sizes made besides 100x100, e.g. 400x300,200x0, or none')
      .option('--remove', "remove the bucket's settings (its files stay)")
      .action(async (o: { database: string; bucket: string; public?: string; maxSize?: string; contentTypes?: string; thumbs?: string; remove?: boolean }) => {
        const change: Record<string, unknown> = {};
        if (o.public !== undefined) {
          if (o.public !== 'true' && o.public !== 'false') throw new CliError('--public takes true or false');
          change.public = o.public === 'true';
        }
        if (o.maxSize !== undefined) {
          const n = Number(o.maxSize);
          if (o.maxSize.trim() !== 'none' && !(Number.isInteger(n) && n >= 1)) throw new CliError('--max-size takes a number of bytes (≥ 1) or none');
          change.maxSize = o.maxSize.trim() === 'none' ? null : n;
        }
        if (o.contentTypes !== undefined) change.contentTypes = listOption(o.contentTypes);
        if (o.thumbs !== undefined) change.thumbs = listOption(o.thumbs);
        if (Boolean(o.remove) === Object.keys(change).length > 0)
          throw new CliError('give --public, --max-size, --content-types or --thumbs, or else --remove');
        const db = await withStore((store) =>
          updateDatabase(store, systemClock, o.database, { settings: { files: { [o.bucket]: o.remove ? null : change } } }),
        );
        // Running servers keep settings in memory on PostgreSQL: return once every one of them dropped the old ones.
        await barrierOnce(loadConfig().databaseUrl);
        const now = db.settings.files?.[o.bucket];
        print({ files: { [o.bucket]: now ?? null } }, () =>
          now
            ? `Bucket ${o.bucket} of database ${o.database}: ${JSON.stringify(now)}; it applies at once.`
            : `Bucket ${o.bucket} of database ${o.database} has no settings any more.`,
        );
      }),
    'svc files set --database <id> --bucket avatars --public true --max-size 5000000 --content-types image/* --thumbs 400x300',
  );
}
