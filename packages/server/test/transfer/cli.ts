import { spawn } from 'node:child_process';
import { createReadStream, createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/svc.js', import.meta.url));

/** How a `svc` process ended. */
export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the real `svc` CLI on the store `databaseUrl`: standard input from a file (or nothing),
 * standard output into a file (or collected). The CLI exactly as an operator runs it.
 */
export function svc(databaseUrl: string, args: string[], io: { stdinFile?: string; stdoutFile?: string; nodeArgs?: string[] } = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...(io.nodeArgs ?? []), BIN, ...args], {
      env: { ...process.env, DATABASE_URL: databaseUrl },
      stdio: [io.stdinFile ? 'pipe' : 'ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    // With a file, the answer waits until the file holds everything the process wrote.
    const written = io.stdoutFile ? finished(child.stdout!.pipe(createWriteStream(io.stdoutFile))) : Promise.resolve();
    if (!io.stdoutFile) child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    if (io.stdinFile && child.stdin) createReadStream(io.stdinFile).pipe(child.stdin);
    child.once('error', reject);
    child.once('close', (code) => void written.then(() => resolve({ code, stdout, stderr }), reject));
  });
}

/** `svc export --database <id>` on one store piped into `svc import` on another, as the README shows. */
export function pipeExportImport(fromUrl: string, toUrl: string, databaseId: string): Promise<{ exported: Ran; imported: Ran }> {
  const run = (url: string, args: string[]) =>
    spawn(process.execPath, [BIN, ...args], { env: { ...process.env, DATABASE_URL: url }, stdio: ['pipe', 'pipe', 'pipe'] });
  const exp = run(fromUrl, ['export', '--database', databaseId]);
  const imp = run(toUrl, ['import']);
  exp.stdout.pipe(imp.stdin);
  const collect = (child: ReturnType<typeof run>, out: boolean) =>
    new Promise<Ran>((resolve, reject) => {
      let stdout = '';
      let stderr = '';
      if (out) child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      child.once('error', reject);
      child.once('close', (code) => resolve({ code, stdout, stderr }));
    });
  return Promise.all([collect(exp, false), collect(imp, true)]).then(([exported, imported]) => ({ exported, imported }));
}
