import type { Command } from 'commander';
import { createOperator, deleteOperator, listOperators, resetOperatorPassword } from '../admin/operators.ts';
import { resetOperatorMfa } from '../admin/operator-mfa.ts';
import { normalizeEmail } from '../users/users.ts';
import { loadConfig } from '../config.ts';
import { ApiError } from '../errors.ts';
import { barrierOnce } from '../infra/invalidation/invalidation.ts';
import type { Store } from '../store/store.ts';
import { example, print, table, withStore } from './output.ts';
import { newPassword } from './prompt.ts';

/** The operator of an e-mail, if there is one. */
const findOperator = async (store: Store, email: string) => (await listOperators(store)).find((x) => x.email === normalizeEmail(email));

const PASSWORD_HELP = 'the password; without it, asked for twice without echo (or read as one line from standard input when it is not a terminal)';

/** `svc operator create|list|delete|reset-password|reset-mfa`: the people who sign in to the dashboard. */
export function registerOperatorCommands(program: Command): void {
  const operator = program.command('operator').description('operators: the people who sign in to the dashboard');

  example(
    operator
      .command('create')
      .description('create an operator (the first one, or another)')
      .requiredOption('--email <email>')
      .option('--password <password>', PASSWORD_HELP)
      .action(async (o: { email: string; password?: string }) => {
        const op = await withStore(async (store) => {
          // Ask for the password only when it can be used.
          if (o.password === undefined && (await findOperator(store, o.email))) {
            throw new ApiError('conflict', `An operator with e-mail ${normalizeEmail(o.email)} already exists`);
          }
          return createOperator(store, o.email, o.password ?? (await newPassword()));
        });
        print({ operator: op }, () => `Created operator ${op.email} (${op.id}). Sign in at the dashboard or POST /v1/admin/sign-in.`);
      }),
    'svc operator create --email ada@example.com',
    'printf \'%s\\n\' "$ADMIN_PASSWORD" | svc operator create --email ada@example.com',
  );

  example(
    operator
      .command('list')
      .description('list the operators, oldest first')
      .action(async () => {
        const operators = await withStore(listOperators);
        print({ operators }, () =>
          table(
            operators,
            [
              ['ID', (o) => o.id],
              ['EMAIL', (o) => o.email],
              ['CREATED', (o) => o.createdAt],
            ],
            'No operators yet: create one with svc operator create --email <email>.',
          ),
        );
      }),
    'svc operator list',
  );

  example(
    operator
      .command('delete')
      .description('delete an operator and end their sessions (never the last one)')
      .requiredOption('--email <email>')
      .action(async (o: { email: string }) => {
        const op = await withStore((store) => deleteOperator(store, o.email));
        // Running servers drop the ended sessions from their caches; return once every one has.
        await barrierOnce(loadConfig().databaseUrl);
        print({ deleted: op }, () => `Deleted operator ${op.email} (${op.id}); their sessions have ended.`);
      }),
    'svc operator delete --email old-admin@example.com',
  );

  example(
    operator
      .command('reset-password')
      .description("set an operator's password and end their sessions (they sign in again)")
      .requiredOption('--email <email>')
      .option('--password <password>', PASSWORD_HELP)
      .action(async (o: { email: string; password?: string }) => {
        const op = await withStore(async (store) => {
          // Ask for the password only when there is someone to give it to.
          if (o.password === undefined && !(await findOperator(store, o.email))) {
            throw new ApiError('not_found', `No operator has the e-mail ${normalizeEmail(o.email)}`);
          }
          return resetOperatorPassword(store, o.email, o.password ?? (await newPassword()));
        });
        await barrierOnce(loadConfig().databaseUrl);
        print({ operator: op }, () => `Set a new password for ${op.email}; their sessions have ended.`);
      }),
    'svc operator reset-password --email ada@example.com',
  );

  example(
    operator
      .command('reset-mfa')
      .description("remove an operator's second factors and recovery codes (they sign in with their password alone, then may enrol again)")
      .requiredOption('--email <email>')
      .action(async (o: { email: string }) => {
        const { operator: op, removed } = await withStore((store) => resetOperatorMfa(store, o.email));
        print({ operator: op, removedFactors: removed }, () => `Removed ${removed} second factor(s) of ${op.email}; they sign in with their password alone.`);
      }),
    'svc operator reset-mfa --email ada@example.com',
  );
}
