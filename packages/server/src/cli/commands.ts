import { Command } from 'commander';
import { registerTransferCommands } from '../transfer/cli.ts';
import { registerEmailCommands } from '../email/cli.ts';
import { registerDatabaseCommands } from './databases.ts';
import { registerKeyCommands } from './keys.ts';
import { registerOperatorCommands } from './operators.ts';
import { examplesHelp, example, listedExample, print, setJsonOutput, withStore } from './output.ts';
import { registerSettingsCommands } from './settings.ts';
import { registerUserCommands } from './users.ts';

/**
 * The `svc` command and every command under it, registered here and only here: a new command
 * group is a file in this folder with a `register…Commands(program)` called below, each command
 * with its `example(…)` (output.ts), which its --help and `svc --help` show.
 */
export function buildProgram(): Command {
  const program = new Command('svc')
    .description(
      'Manage an svc instance: operators, databases, API keys, users, access rules, search, export, import and backup. ' +
        'Every command works on the store of DATABASE_URL (default sqlite:./data/svc.db; also read from .env), as the server does, ' +
        'whether a server is running or not.',
    )
    .option('--json', 'print the result as one JSON document (errors too, on standard error)')
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false })
    // Commander's own refusals (unknown command, missing option) are thrown, not printed, so that
    // cli.ts prints them as every other failure: one line, or JSON under --json. Inherited by every command.
    .exitOverride()
    .configureOutput({ outputError: () => undefined });

  // --json is read before or after the command's name: `svc --json database list` or `svc database list --json`.
  program.hook('preAction', (_program, action) => setJsonOutput(action.optsWithGlobals().json === true));

  example(
    program
      .command('migrate')
      .description('apply the pending migrations of DATABASE_URL and exit (servers also do it at start)')
      .action(async () => {
        await withStore(async () => undefined);
        print({ migrated: true }, () => 'The store is up to date.');
      }),
    'DATABASE_URL=postgres://svc:secret@db/svc svc migrate',
  );
  registerOperatorCommands(program);
  registerDatabaseCommands(program);
  registerKeyCommands(program);
  registerUserCommands(program);
  registerEmailCommands(program);
  registerSettingsCommands(program);
  registerTransferCommands(program, print);
  const named = (name: string) => program.commands.find((c) => c.name() === name);
  listedExample(named('export'), 'svc export --database <id> > app.ndjson');
  listedExample(named('import'), 'DATABASE_URL=postgres://svc:secret@db/svc svc import < app.ndjson');
  listedExample(named('backup'), 'svc backup backups/svc-$(date +%F).db');

  // `svc --help` and each group's --help end with every command under them and an example of each.
  for (const command of [program, ...program.commands.filter((c) => c.commands.length > 0)]) {
    command.addHelpText('after', () => examplesHelp(command));
  }
  return program;
}
