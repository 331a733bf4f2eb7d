import { buildProgram } from './cli/commands.ts';
import { failureMessage } from './cli/output.ts';

/**
 * The `svc` command (bin/svc.js runs it). It works on the store named by DATABASE_URL through the
 * same services as the management API, so it also works before any operator exists (the first
 * operator is created here) and while the server is stopped. The commands are in cli/, registered
 * by cli/commands.ts. Exit code 0 on success; on any failure 1, with the reason on standard error
 * and no stack trace.
 */
buildProgram()
  .parseAsync()
  .catch((e: unknown) => {
    console.error(failureMessage(e));
    process.exitCode = 1;
  });
