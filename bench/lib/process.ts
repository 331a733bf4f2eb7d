import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** A server under test, running in its own process. */
export interface ServerProcess {
  /** `http://127.0.0.1:<port>` */
  url: string;
  child: ChildProcess;
  /** Lines the process wrote (stdout and stderr), the first 200. */
  output(): string[];
  /** SIGTERM, then SIGKILL after 10 s; resolves when the process is gone. */
  stop(): Promise<void>;
}

/** A port nobody listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Starts `node <args>` with `env` added to this process's environment and PORT set, and waits
 * until `GET /health` answers 200. Keeps the last lines of its output for error messages.
 */
export async function startProcess(name: string, args: string[], env: Record<string, string>, cwd: string): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let tail = '';
  const lines: string[] = [];
  let partial = '';
  const keep = (chunk: Buffer) => {
    const text = chunk.toString();
    tail = (tail + text).slice(-4000);
    const parts = (partial + text).split('\n');
    partial = parts.pop() ?? '';
    for (const l of parts) if (lines.length < 200 && l.trim()) lines.push(l);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exited: number | null | undefined;
  const gone = new Promise<void>((resolve) =>
    child.once('exit', (code) => {
      exited = code;
      resolve();
    }),
  );

  const url = `http://127.0.0.1:${port}`;
  // 3 minutes: on a shared 2-core machine under load, tsx compiling svc's sources took over 60 s.
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (exited !== undefined) throw new Error(`${name} exited with code ${exited} before it was healthy:\n${tail}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${name} did not answer GET /health within 180 s:\n${tail}`);
    }
    try {
      const res = await fetch(`${url}/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }

  return {
    url,
    child,
    output: () => lines,
    async stop() {
      if (exited !== undefined) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await gone;
      clearTimeout(timer);
    },
  };
}
