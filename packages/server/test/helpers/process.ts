import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort, OPERATOR } from './server.ts';

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));

/** A real `svc` server process, as `npm start` runs it. */
export interface ServerProcess {
  url: string;
  base: string;
  port: number;
  /** Everything the process printed. */
  output(): string;
  /** SIGKILL (or another signal); resolves with the exit code once the process is gone. */
  kill(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `node --import tsx src/main.ts` with the given environment; resolves once GET /health answers 200. */
export async function startProcess(env: Record<string, string>, port?: number): Promise<ServerProcess> {
  const p = port ?? (await freePort());
  const url = `http://127.0.0.1:${p}`;
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(p),
      PUBLIC_URL: url,
      SVC_ADMIN_EMAIL: OPERATOR.email,
      SVC_ADMIN_PASSWORD: OPERATOR.password,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => {
    out += d;
  });
  child.stderr!.on('data', (d) => {
    out += d;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${out}`);
    try {
      if ((await fetch(`${url}/health`)).status === 200) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not answer /health in 60 s:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    base: `${url}/v1`,
    port: p,
    output: () => out,
    async kill(signal = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
