/**
 * Instructions per insert, with and without an Idempotency-Key, counted by callgrind: a figure the
 * machine's load does not move, unlike CPU time or throughput on the shared boxes here. The server
 * (the build in packages/server/dist of this tree, or of BENCH_SVC_ROOT) runs under
 * `valgrind --tool=callgrind` with counting off while it starts and warms up (BENCH_CG_WARM inserts
 * of each kind), then counts phases of BENCH_CG_REQUESTS inserts (10 connections), each phase dumped
 * on its own: plain, a random key (UUIDv4), a key as the SDK makes it (UUIDv7), three times in a
 * turning order. Prints each phase and the medians. SQLite only (a PostgreSQL backend's work is in
 * other processes). About two minutes.
 *
 *   npm run build && node --import tsx bench/keyed-instructions.ts
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { newKey } from '../packages/client/src/http.ts';
import { median } from './lib/cpu.ts';
import { oneDocBody } from './lib/documents.ts';
import { ROOT } from './lib/paths.ts';

const WARM = Number(process.env.BENCH_CG_WARM ?? 2500);
const REQUESTS = Number(process.env.BENCH_CG_REQUESTS ?? 800);
const ADMIN = { email: 'admin@example.com', password: 'correct horse battery staple' };
const SHAPES = {
  plain: () => ({ 'x-nonce': randomUUID() }),
  random: () => ({ 'idempotency-key': randomUUID() }),
  sdk: () => ({ 'idempotency-key': newKey() }),
};
type Shape = keyof typeof SHAPES;
const ORDER: Shape[] = ['plain', 'random', 'sdk', 'sdk', 'random', 'plain', 'plain', 'random', 'sdk'];

const dir = mkdtempSync(join(tmpdir(), 'svc-callgrind-'));
const port = 39_000 + Math.floor(Math.random() * 1000);
const url = `http://127.0.0.1:${port}`;
const server = spawn('valgrind', ['--tool=callgrind', '--instr-atstart=no', `--callgrind-out-file=${dir}/phase`, 'node', 'packages/server/dist/main.js'], {
  cwd: process.env.BENCH_SVC_ROOT ?? ROOT,
  stdio: ['ignore', 'ignore', 'pipe'],
  env: {
    ...process.env,
    PORT: String(port),
    DATABASE_URL: `sqlite:${dir}/svc.db`,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_KEY: '1000000000',
    RATE_LIMIT_PER_IP: '1000000000',
    SVC_ADMIN_EMAIL: ADMIN.email,
    SVC_ADMIN_PASSWORD: ADMIN.password,
    NODE_ENV: 'production',
  },
});
let stderr = '';
server.stderr.on('data', (d) => (stderr += d));

async function call<T>(method: string, path: string, token: string | undefined, body: unknown): Promise<T> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) };
  const res = await fetch(url + path, { method, headers, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

try {
  // Under valgrind the server starts in about a minute.
  for (let i = 0; ; i++) {
    if (
      await fetch(`${url}/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (i > 600 || server.exitCode !== null) throw new Error(`the server did not start: ${stderr.slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  const { token } = await call<{ token: string }>('POST', '/v1/admin/sign-in', undefined, ADMIN);
  const key = (await call<{ key: { key: string } }>('POST', '/v1/admin/databases', token, { name: 'callgrind' })).key.key;
  const load = async (shape: Shape, amount: number) => {
    const r = await autocannon({
      url,
      connections: 10,
      amount,
      timeout: 120,
      headers: { authorization: `Bearer ${key}` },
      requests: [
        {
          method: 'POST',
          path: `/v1/${shape}/docs`,
          headers: { 'content-type': 'application/json' },
          body: oneDocBody,
          setupRequest: (req) => ({ ...req, headers: { ...req.headers, ...SHAPES[shape]() } }),
        },
      ],
    });
    if (r.non2xx || r.errors || r.timeouts) throw new Error(`${shape}: ${r.non2xx + r.errors + r.timeouts} failed requests`);
  };
  const control = (...args: string[]) => execFileSync('callgrind_control', [...args, String(server.pid)], { stdio: 'ignore' });
  for (const shape of Object.keys(SHAPES) as Shape[]) await load(shape, WARM);
  control('--instr=on');
  control('--zero');
  for (const shape of ORDER) {
    await load(shape, REQUESTS);
    control(`--dump=${shape}`);
  }
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  // One file per dump, numbered in order: phase.<pid>.<n>.
  const dumps = readdirSync(dir)
    .filter((f) => /^phase\.\d+\.\d+$/.test(f))
    .sort((a, b) => Number(a.split('.')[2]) - Number(b.split('.')[2]));
  const perInsert: Record<Shape, number[]> = { plain: [], random: [], sdk: [] };
  dumps.forEach((f, i) => {
    const total = Number(/^(?:summary|totals): (\d+)/m.exec(readFileSync(join(dir, f), 'utf8'))?.[1]);
    perInsert[ORDER[i]].push(total / REQUESTS / 1000);
  });
  const m = (s: Shape) => median(perInsert[s]);
  for (const s of Object.keys(SHAPES) as Shape[])
    console.log(`${s.padEnd(6)} k instructions per insert: ${perInsert[s].map((x) => x.toFixed(0)).join(' ')} (median ${m(s).toFixed(0)})`);
  console.log(`plain ÷ keyed: random keys ${((100 * m('plain')) / m('random')).toFixed(1)} %, SDK keys ${((100 * m('plain')) / m('sdk')).toFixed(1)} %`);
} finally {
  if (server.exitCode === null) server.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
}
