import { readFileSync } from 'node:fs';
import { text as readAll } from 'node:stream/consumers';
import { Command } from 'commander';
import { loadConfig } from './config.ts';
import { openStore } from './store/open-store.ts';
import type { Store } from './store/store.ts';
import { ApiError } from './errors.ts';
import { createOperator } from './admin/operators.ts';
import { createDatabase, getDatabase, listDatabases, updateDatabase } from './databases/databases.ts';
import { createKey, listKeys, parseKind, revokeKey } from './keys/keys.ts';
import { barrierOnce } from './infra/invalidation/invalidation.ts';
import { readRules, saveRules } from './rules/rules.ts';
import { parseJsonBody } from './json/parse.ts';
import { registerTransferCommands } from './transfer/cli.ts';

/**
 * The `svc` command. It works on the store named by DATABASE_URL (default ./data/svc.db), through
 * the same services as the management API, so it also works before any operator exists (the
 * first operator is created here) and while the server is stopped.
 */
const program = new Command('svc').description('Manage an svc instance: operators, databases, API keys, access rules').option('--json', 'print JSON');

type Printer = (value: unknown, human: () => string) => void;
const print: Printer = (value, human) => console.log(program.opts().json ? JSON.stringify(value, null, 2) : human());

async function withStore(fn: (store: Store) => Promise<void>): Promise<void> {
  const config = loadConfig();
  const store = await openStore(config.databaseUrl, config.storeTimeouts);
  try {
    await fn(store);
  } finally {
    await store.close();
  }
}

program
  .command('migrate')
  .description('apply the pending migrations of DATABASE_URL and exit (servers also do it at start)')
  .action(() =>
    withStore(async () => {
      print({ migrated: true }, () => 'The store is up to date.');
    }),
  );

const operator = program.command('operator').description('operators who sign in to the dashboard');
operator
  .command('create')
  .description('create an operator')
  .requiredOption('--email <email>')
  .requiredOption('--password <password>')
  .action((o: { email: string; password: string }) =>
    withStore(async (store) => {
      const op = await createOperator(store, o.email, o.password);
      print({ operator: op }, () => `Created operator ${op.email} (${op.id}). Sign in at the dashboard or POST /v1/admin/sign-in.`);
    }),
  );

const database = program.command('database').description('databases, each with its own documents, users and keys');
database
  .command('create')
  .description('create a database and print its first secret key (shown once) and its first public key')
  .requiredOption('--name <name>')
  .action((o: { name: string }) =>
    withStore(async (store) => {
      const created = await createDatabase(store, o.name);
      print(created, () =>
        [
          `Created database ${created.database.name} (${created.database.id}).`,
          `Secret key (shown once, keep it server-side): ${created.key.key}`,
          `Public key (for browser code; \`svc key list\` shows it again): ${created.publicKey.key}`,
        ].join('\n'),
      );
    }),
  );
database
  .command('list')
  .description('list databases')
  .action(() =>
    withStore(async (store) => {
      const databases = await listDatabases(store);
      print({ databases }, () => databases.map((d) => `${d.id}  ${d.name}  ${d.createdAt}`).join('\n') || 'No databases yet.');
    }),
  );

const key = program.command('key').description('API keys of a database');
key
  .command('create')
  .description('create a key and print it (shown once)')
  .requiredOption('--database <id>')
  .requiredOption('--kind <kind>', 'secret or public')
  .option('--name <name>')
  .action((o: { database: string; kind: string; name?: string }) =>
    withStore(async (store) => {
      await getDatabase(store, o.database);
      const k = await createKey(store, o.database, parseKind(o.kind), o.name ?? null);
      const out = { id: k.id, kind: k.kind, name: k.name, key: k.key, createdAt: k.createdAt };
      print(out, () => `Created ${k.kind} key ${k.id}${k.name ? ` (${k.name})` : ''}. Key (shown once): ${k.key}`);
    }),
  );
key
  .command('list')
  .description('list keys (hints only)')
  .requiredOption('--database <id>')
  .action((o: { database: string }) =>
    withStore(async (store) => {
      await getDatabase(store, o.database);
      const keys = await listKeys(store, o.database);
      print(
        { keys },
        () =>
          keys.map((k) => `${k.id}  ${k.kind.padEnd(6)}  ${k.hint}  ${k.name ?? ''}${k.revokedAt ? `  revoked ${k.revokedAt}` : ''}`).join('\n') || 'No keys.',
      );
    }),
  );
key
  .command('revoke')
  .description('revoke a key; it stops working at once')
  .requiredOption('--database <id>')
  .requiredOption('--key <keyId>')
  .action((o: { database: string; key: string }) =>
    withStore(async (store) => {
      await revokeKey(store, o.database, o.key);
      // Running servers drop the key from their caches; return once every one of them has.
      await barrierOnce(loadConfig().databaseUrl);
      print({ revoked: o.key }, () => `Revoked key ${o.key}.`);
    }),
  );

const rules = program.command('rules').description('access rules of a database: what public keys may do (API.md §10)');
rules
  .command('get')
  .description('print the rules as JSON (what `rules set` takes)')
  .requiredOption('--database <id>')
  .action((o: { database: string }) =>
    withStore(async (store) => {
      const current = await readRules(store, o.database);
      print({ rules: current }, () => JSON.stringify(current, null, 2));
    }),
  );
rules
  .command('set')
  .description('validate rules and store them, replacing the old ones whole; they apply at once')
  .requiredOption('--database <id>')
  .option('--file <path>', 'a JSON file of rules (default: read standard input)')
  .action((o: { database: string; file?: string }) =>
    withStore(async (store) => {
      const text = o.file === undefined ? await readAll(process.stdin) : readFileSync(o.file, 'utf8');
      // Paths in errors start at the file's root ('/todos/read'), as the file holds the rules object itself.
      const saved = await saveRules(store, o.database, parseJsonBody(text, loadConfig().limits.jsonDepth), '');
      print({ rules: saved }, () => `Stored the rules of database ${o.database}; they apply at once.`);
    }),
  );

const search = program.command('search').description("full-text search fields of a database's collections (API.md §1.1, settings.search)");
search
  .command('get')
  .description('print the search fields: of every collection, or of one')
  .requiredOption('--database <id>')
  .option('--collection <name>')
  .action((o: { database: string; collection?: string }) =>
    withStore(async (store) => {
      const all = (await getDatabase(store, o.database)).settings.search ?? {};
      const shown = o.collection === undefined ? all : { [o.collection]: all[o.collection] ?? null };
      print({ search: shown }, () => JSON.stringify(shown, null, 2));
    }),
  );
search
  .command('set')
  .description('set the fields search= looks in for one collection (a running server indexes its documents in the background)')
  .requiredOption('--database <id>')
  .requiredOption('--collection <name>')
  .option('--fields <paths>', 'comma-separated field paths, e.g. title,body,author.name')
  .option('--remove', "remove the collection's search fields (and its index)")
  .action((o: { database: string; collection: string; fields?: string; remove?: boolean }) =>
    withStore(async (store) => {
      if ((o.fields === undefined) === (o.remove === undefined)) throw new Error('give either --fields a,b or --remove');
      const fields = o.remove ? null : (o.fields ?? '').split(',').map((f) => f.trim());
      const db = await updateDatabase(store, o.database, { settings: { search: { [o.collection]: fields } } });
      print({ search: db.settings.search ?? {} }, () =>
        fields
          ? `Collection ${o.collection} of database ${o.database} is searched in ${fields.join(', ')}; a running server indexes its documents now.`
          : `Collection ${o.collection} of database ${o.database} has no search fields any more.`,
      );
    }),
  );

registerTransferCommands(program, print);

program.parseAsync().catch((e: unknown) => {
  const message = e instanceof ApiError ? `${e.message} (${e.code})` : e instanceof Error ? e.message : String(e);
  const details = e instanceof ApiError ? e.details : undefined;
  if (program.opts().json)
    console.error(JSON.stringify({ error: { code: e instanceof ApiError ? e.code : 'internal', message, ...(details ? { details } : {}) } }));
  else console.error([`svc: ${message}`, ...(details ?? []).map((d) => `  ${d.path}: ${d.message}`)].join('\n'));
  process.exitCode = 1;
});
