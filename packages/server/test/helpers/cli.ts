import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The `svc` command as a user runs it (bin/svc.js). */
export const SVC_BIN = fileURLToPath(new URL('../../bin/svc.js', import.meta.url));

/** What a run of `svc` did. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the real `svc` on the store `databaseUrl` names, in its own process. Its standard input is
 * a pipe holding `stdin` (so never a terminal), or nothing when `stdin` is undefined.
 */
export function runSvc(databaseUrl: string, args: string[], stdin?: string): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SVC_BIN, ...args], {
      env: { ...process.env, DATABASE_URL: databaseUrl },
      stdio: [stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr?.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    if (stdin !== undefined) child.stdin?.end(stdin);
  });
}
