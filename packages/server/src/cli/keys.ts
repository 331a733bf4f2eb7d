import type { Command } from 'commander';
import { loadConfig } from '../config.ts';
import { getDatabase } from '../databases/databases.ts';
import { barrierOnce } from '../infra/invalidation/invalidation.ts';
import { systemClock } from '../infra/clock.ts';
import { createKey, listKeys, parseKind, revokeKey } from '../keys/keys.ts';
import { example, print, table, withStore } from './output.ts';

/** `svc key create|list|revoke`: the API keys of a database. */
export function registerKeyCommands(program: Command): void {
  const key = program.command('key').description('API keys of a database: secret keys for servers, public keys for browser code');

  example(
    key
      .command('create')
      .description('create a key and print it (a secret key is shown once; a public key any time)')
      .requiredOption('--database <id>')
      .requiredOption('--kind <kind>', 'secret or public')
      .option('--name <name>')
      .action(async (o: { database: string; kind: string; name?: string }) => {
        const k = await withStore(async (store) => {
          await getDatabase(store, o.database);
          return createKey(store, systemClock, o.database, parseKind(o.kind), o.name ?? null);
        });
        const out = { id: k.id, kind: k.kind, name: k.name, key: k.key, createdAt: k.createdAt };
        print(out, () => `Created ${k.kind} key ${k.id}${k.name ? ` (${k.name})` : ''}. Key${k.kind === 'secret' ? ' (shown once)' : ''}: ${k.key}`);
      }),
    'svc key create --database <id> --kind public --name web',
  );

  example(
    key
      .command('list')
      .description('list the keys: public keys whole, secret keys by their hint (prefix and last 4 characters)')
      .requiredOption('--database <id>')
      .action(async (o: { database: string }) => {
        const keys = await withStore(async (store) => {
          await getDatabase(store, o.database);
          return listKeys(store, o.database);
        });
        print({ keys }, () =>
          table(
            keys,
            [
              ['ID', (k) => k.id],
              ['KIND', (k) => k.kind],
              ['NAME', (k) => k.name],
              ['KEY', (k) => k.key ?? k.hint],
              ['CREATED', (k) => k.createdAt],
              ['LAST USED', (k) => k.lastUsedAt],
              ['REVOKED', (k) => k.revokedAt],
            ],
            'No keys.',
          ),
        );
      }),
    'svc key list --database <id>',
  );

  example(
    key
      .command('revoke')
      .description('revoke a key; it stops working at once')
      .requiredOption('--database <id>')
      .requiredOption('--key <keyId>')
      .action(async (o: { database: string; key: string }) => {
        await withStore((store) => revokeKey(store, systemClock, o.database, o.key));
        // Running servers drop the key from their caches; return once every one of them has.
        await barrierOnce(loadConfig().databaseUrl);
        print({ revoked: o.key }, () => `Revoked key ${o.key}.`);
      }),
    'svc key revoke --database <id> --key <keyId>',
  );
}
