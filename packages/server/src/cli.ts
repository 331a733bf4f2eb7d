import { buildProgram } from './cli/commands.ts';
import { CommanderError } from 'commander';
import { CliError, failureMessage, setJsonOutput } from './cli/output.ts';

/**
 * The `svc` command (bin/svc.js runs it). It works on the store named by DATABASE_URL through the
 * same services as the management API, so it also works before any operator exists (the first
 * operator is created here) and while the server is stopped. The commands are in cli/, registered
 * by cli/commands.ts. Exit code 0 on success; on any failure 1, with the reason on standard error
 * and no stack trace.
 */
// `svc … | head` closes standard output early: that is no failure worth a stack trace.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code !== 'EPIPE') throw e;
  process.exit(process.exitCode ?? 0);
});
// Until a command runs (cli/commands.ts then reads --json where commander put it), a refusal of
// the command line itself is printed as JSON when --json appears anywhere.
setJsonOutput(process.argv.slice(2).includes('--json'));
buildProgram()
  .parseAsync()
  .catch((e: unknown) => {
    if (e instanceof CommanderError && /^commander\.(help|helpDisplayed|version)$/.test(e.code)) {
      process.exitCode = e.exitCode; // the help is printed already: 0 when asked for, 1 for a group named without a command
      return;
    }
    console.error(failureMessage(e instanceof CommanderError ? new CliError(e.message.replace(/^error: /, '')) : e));
    process.exitCode = e instanceof CommanderError ? e.exitCode : 1;
  });
