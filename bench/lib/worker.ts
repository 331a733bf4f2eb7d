import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './paths.ts';

/**
 * A helper process driven from the bench process over IPC (load generators and clients that must
 * not share the bench process's event loop, e.g. 10,000 WebSocket clients). The script calls
 * `serve(handlers)`; the bench calls `worker.call(name, args)` and gets the handler's result.
 */
export interface Worker {
  child: ChildProcess;
  call<T>(cmd: string, args?: unknown): Promise<T>;
  stop(): Promise<void>;
}

interface Reply {
  id: number;
  result?: unknown;
  error?: string;
}

/** Forks `node --import tsx <script>` (a path relative to the repository root) with `env` added. */
export function startWorker(script: string, env: Record<string, string> = {}): Worker {
  const child = fork(join(ROOT, script), [], {
    cwd: ROOT,
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let next = 0;
  const waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  child.on('message', (m: Reply) => {
    const w = waiting.get(m.id);
    if (!w) return;
    waiting.delete(m.id);
    if (m.error !== undefined) w.reject(new Error(`${script}: ${m.error}`));
    else w.resolve(m.result);
  });
  const gone = new Promise<void>((resolve) =>
    child.once('exit', (code) => {
      for (const w of waiting.values()) w.reject(new Error(`${script} exited with code ${code}`));
      waiting.clear();
      resolve();
    }),
  );
  return {
    child,
    call<T>(cmd: string, args?: unknown) {
      return new Promise<T>((resolve, reject) => {
        const id = next++;
        waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
        child.send({ id, cmd, args });
      });
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await gone;
      clearTimeout(timer);
    },
  };
}

/** In the worker script: answers the bench's calls with these handlers. Exits on SIGTERM or when the bench goes away. */
export function serve(handlers: Record<string, (args: any) => unknown>): void {
  process.on('message', (m: { id: number; cmd: string; args: unknown }) => {
    const h = handlers[m.cmd];
    Promise.resolve()
      .then(() => {
        if (!h) throw new Error(`unknown command ${m.cmd}`);
        return h(m.args);
      })
      .then(
        (result) => process.send!({ id: m.id, result: result ?? null }),
        (e: Error) => process.send!({ id: m.id, error: String(e?.stack ?? e) }),
      );
  });
  process.on('disconnect', () => process.exit(0));
  process.on('SIGTERM', () => process.exit(0));
}
