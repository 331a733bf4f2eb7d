/**
 * Issue 3, item 8: end-user authentication on both stores.
 *
 * - Sign-in (`POST /v1/auth/sign-in`) against the argon2 ceiling: verifications per second of svc's
 *   own parameters in a bare loop (baseline/argon2-loop.ts, its own process) with as many calls in
 *   flight as autocannon has connections, measured right before. Target ≥ 85 %.
 * - `GET /v1/auth/me` with an `X-Session-Token` against the bare get-by-id of baseline/bare-server.ts,
 *   measured right before. Target ≥ 60 %.
 *
 * svc limits sign-in to 10 attempts per e-mail per 15 minutes, so the bench signs up USERS accounts
 * and rotates through them (each request the next account), never reaching the limit.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LOAD, measure, type Measurement } from '../lib/load.ts';
import { machine, num, table } from '../lib/markdown.ts';
import { ROOT } from '../lib/paths.ts';
import { startProcess, type ServerProcess } from '../lib/process.ts';
import { log, type Scenario } from '../lib/scenario.ts';
import { benchStores, call, seed, startSvc, type StoreKind, stopSvc } from '../lib/svc.ts';
import { startWorker, type Worker } from '../lib/worker.ts';

const USERS = Number(process.env.BENCH_AUTH_USERS ?? 120);
/** svc's per-e-mail sign-in limit (packages/server/src/auth/limits.ts). */
const SIGN_IN_LIMIT = 10;
const PASSWORD = 'bench-user-password-0123';
const BARE_DOCS = 10_000;
const STORE_NAME: Record<StoreKind, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

interface Rate {
  rate: number;
  p50: number;
  p99: number;
}
interface Row {
  scenario: string;
  store: string;
  m: Measurement;
  base: Rate;
  baseName: string;
  target: number;
  targetText: string;
}

const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)];

async function benchStore(
  store: StoreKind,
  bare: ServerProcess,
  bareIds: string[],
  argon2: Worker,
  rows: Row[],
  baseRows: string[][],
  notes: string[],
): Promise<void> {
  const name = STORE_NAME[store];
  log(`${name}: starting svc`);
  const svc = await startSvc(store);
  try {
    // Accounts to rotate through; each sign-up also gives a session for /auth/me.
    const t = Date.now();
    const users = Array.from({ length: USERS }, (_, i) => ({ email: `user${i}@bench.example`, password: PASSWORD }));
    const tokens: string[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < users.length) {
          const u = users[next++];
          const out = await call<{ session: { token: string } }>(svc.url, 'POST', '/v1/auth/sign-up', svc.key, { ...u, name: u.email.split('@')[0] });
          tokens.push(out.session.token);
        }
      }),
    );
    notes.push(`${name}: signing up ${USERS} accounts (4 in flight) took ${num((Date.now() - t) / 1000, 1)} s.`);

    // Sign-in against the argon2 ceiling, each measured right after the other.
    log(`${name}: argon2 verify loop, ${LOAD.connections} in flight`);
    const ceiling = await argon2.call<Rate>('run', { op: 'verify', concurrency: LOAD.connections, warmup: LOAD.warmup, duration: LOAD.duration });
    baseRows.push([`argon2id verify(), ${LOAD.connections} in flight`, name, `${num(ceiling.rate, 1)} verifies/s`, num(ceiling.p50, 1), num(ceiling.p99, 1)]);
    log(`${name}: sign-in`);
    let signIns = 0;
    const bodies = users.map((u) => JSON.stringify(u));
    const signIn = await measure({
      url: svc.url,
      key: svc.key,
      method: 'POST',
      path: '/v1/auth/sign-in',
      body: bodies[0],
      next: () => ({ body: bodies[signIns++ % bodies.length] }),
    });
    rows.push({
      scenario: 'sign-in (argon2id verify + session)',
      store: name,
      m: signIn,
      base: ceiling,
      baseName: 'argon2 ceiling',
      target: 0.85,
      targetText: '≥ 85 % of argon2',
    });
    const perUser = Math.ceil(signIns / USERS);
    notes.push(
      `${name}: sign-in sent ${num(signIns)} attempts over ${USERS} accounts (≤ ${perUser} per e-mail, svc allows ${SIGN_IN_LIMIT} per 15 minutes` +
        (perUser > SIGN_IN_LIMIT ? `: **over the limit**, so some answers were 429 — raise BENCH_AUTH_USERS` : '') +
        ').',
    );

    // /auth/me against the bare get by id.
    log(`${name}: bare get by id`);
    const bareGet = await measure({ url: bare.url, path: `/docs/${bareIds[0]}`, nextPath: () => `/docs/${pick(bareIds)}` });
    baseRows.push(['bare get by id', name, `${num(bareGet.rps)} req/s`, num(bareGet.p50, 2), num(bareGet.p99, 1)]);
    log(`${name}: GET /auth/me`);
    const me = await measure({
      url: svc.url,
      key: svc.key,
      path: '/v1/auth/me',
      next: () => ({ headers: { 'x-session-token': pick(tokens) } }),
    });
    rows.push({
      scenario: 'GET /auth/me with a session',
      store: name,
      m: me,
      base: { rate: bareGet.rps, p50: bareGet.p50, p99: bareGet.p99 },
      baseName: 'bare get',
      target: 0.6,
      targetText: '≥ 60 % of bare get',
    });
  } finally {
    await stopSvc(svc, name, notes);
  }
}

function render(rows: Row[], baseRows: string[][], notes: string[]): string {
  const main = table(
    ['scenario', 'store', 'req/s', 'p50 ms', 'p99 ms', 'baseline /s', 'ratio', 'target', 'met', 'errors'],
    rows.map((r) => {
      const ratio = r.m.rps / r.base.rate;
      return [
        r.scenario,
        r.store,
        num(r.m.rps, r.m.rps < 1000 ? 1 : 0),
        num(r.m.p50, 2),
        num(r.m.p99, 1),
        `${num(r.base.rate, r.base.rate < 1000 ? 1 : 0)} (${r.baseName})`,
        `${num(100 * ratio)} %`,
        r.targetText,
        ratio >= r.target ? '✅' : '❌',
        r.m.failures ? `⚠ ${r.m.failureDetail}` : '',
      ];
    }),
    ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'l', 'l', 'l'],
  );
  const base = table(['baseline', 'measured beside', 'rate', 'p50 ms', 'p99 ms'], baseRows, ['l', 'l', 'r', 'r', 'r']);
  return `## Auth: sign-in and sessions (issue 3)

${machine()}. autocannon, ${LOAD.connections} connections, ${LOAD.warmup} s warm-up then ${LOAD.duration} s per row; UV_THREADPOOL_SIZE=${process.env.UV_THREADPOOL_SIZE ?? 'unset (4)'} for svc and the argon2 loop alike; the load generator shares the machine with the server.

${main}

${base}

How to read it: sign-in is bounded by one Argon2id verification per request (svc's parameters: 19 MiB,
2 iterations, 1 lane, \`@node-rs/argon2\` on libuv's threadpool). The ceiling is the same verify() in a
bare loop in its own process (\`bench/baseline/argon2-loop.ts\`) with ${LOAD.connections} calls always in flight,
as the server gets ${LOAD.connections} concurrent sign-ins; it is measured right before the sign-in row, so the
ratio says how much of the machine's hashing capacity svc turns into sign-ins. Each sign-in request uses the
next of ${USERS} accounts, so svc's limit of ${SIGN_IN_LIMIT} sign-ins per e-mail per 15 minutes is never reached.
\`/auth/me\` sends the secret key and one of the ${USERS} session tokens at random; its baseline is the bare
get by id of \`bench/baseline/bare-server.ts\` (Fastify + better-sqlite3, one prepared statement, a random id
of ${num(BARE_DOCS)} rows), measured right before it.

${notes.map((n) => `- ${n}`).join('\n')}
`;
}

const auth: Scenario = {
  name: 'auth',
  description: 'sign-in vs the argon2 ceiling, /auth/me vs bare get by id, on SQLite and PostgreSQL (issue 3)',
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'svc-bench-bare-'));
    const rows: Row[] = [];
    const baseRows: string[][] = [];
    const notes: string[] = [];
    log('starting the bare baseline server and the argon2 loop');
    const bare = await startProcess('bare baseline', ['--import', 'tsx', 'bench/baseline/bare-server.ts'], { BARE_DB: join(dir, 'bare.db') }, ROOT);
    const argon2 = startWorker('bench/baseline/argon2-loop.ts');
    try {
      const bareIds = await seed({
        url: bare.url,
        bulkPath: '/bulk',
        count: BARE_DOCS,
        parallel: 2,
        sampleEvery: 1,
        make: (i) => ({ email: `user${i}@bench.example`, name: `user${i}`, avatar: null, emailVerified: false, updatedAt: new Date(0).toISOString() }),
      });
      const { stores, skipped } = await benchStores();
      if (skipped) notes.push(skipped);
      for (const store of stores) await benchStore(store, bare, bareIds, argon2, rows, baseRows, notes);
    } finally {
      await argon2.stop();
      await bare.stop();
      rmSync(dir, { recursive: true, force: true });
    }
    return render(rows, baseRows, notes);
  },
};

export default auth;
