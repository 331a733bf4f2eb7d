import { type Command, InvalidArgumentError } from 'commander';
import { UserAdmin } from '../users/user-admin.ts';
import { loadConfig } from '../config.ts';
import { getDatabase } from '../databases/databases.ts';
import { systemClock } from '../infra/clock.ts';
import { example, print, table, withStore } from './output.ts';

/** A whole number from `min` on, for an option. */
const integer = (min: number) => (raw: string) => {
  const n = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || n < min) throw new InvalidArgumentError(`it must be a whole number, ${min} or more`);
  return n;
};

/** `svc user list`: a database's end users, through the same code as GET /v1/auth/users. */
export function registerUserCommands(program: Command): void {
  const user = program.command('user').description("a database's end users (those who sign in to the app)");

  example(
    user
      .command('list')
      .description('list the users of a database, oldest first (as GET /v1/auth/users)')
      .requiredOption('--database <id>')
      .option('--email <prefix>', 'only users whose e-mail starts with this (case-insensitive)')
      .option('--limit <n>', 'at most this many (up to LIMIT_PAGE_SIZE)', integer(1), 100)
      .option('--offset <n>', 'skip this many first', integer(0), 0)
      .action(async (o: { database: string; email?: string; limit: number; offset: number }) => {
        const limit = Math.min(o.limit, loadConfig().limits.pageSize);
        const list = await withStore(async (store) => {
          await getDatabase(store, o.database);
          return new UserAdmin({ store, clock: systemClock }).list(o.database, { limit, offset: o.offset, email: o.email });
        });
        print(list, () => {
          const rows = table(
            list.users,
            [
              ['ID', (u) => u.id],
              ['EMAIL', (u) => u.email],
              ['NAME', (u) => u.name],
              ['VERIFIED', (u) => u.emailVerified],
              ['DISABLED', (u) => u.disabled],
              ['CREATED', (u) => u.createdAt],
            ],
            o.email ? `No users whose e-mail starts with ${o.email}.` : 'No users.',
          );
          const shown = list.users.length;
          const more = o.offset + shown < list.total ? ` (--offset ${o.offset + shown} for the next ones)` : '';
          return shown ? `${rows}\n\n${o.offset + 1}–${o.offset + shown} of ${list.total} users${more}.` : rows;
        });
      }),
    'svc user list --database <id> --email ada@',
  );
}
