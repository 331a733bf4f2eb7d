/**
 * `npm run bench:profile [-- --label before] [--worktree | --commit <rev>] [--keyed]` (issue 16, item 4): where
 * the time of an insert and of a get by id goes, on each store, from a CPU profile rather than a guess.
 *
 * Per store (SQLite, then PostgreSQL when reachable; `BENCH_STORES` narrows it) one svc process runs
 * with `node --cpu-prof` on a fresh store, gets BENCH_DOCS documents (bulk), then takes
 * `BENCH_PROFILE_SECONDS` (10) s of autocannon load per operation (`BENCH_CONNECTIONS`, 10), each after
 * `BENCH_WARMUP` s of the same load: insert one document, then get one by a random id. When svc has
 * stopped and written its profile, the samples of each measured window (taken by the monotonic clock,
 * which the bench and V8's profiler share on Linux) are summed up: the top functions by self time,
 * and the time per module inclusive of what it called (lib/cpuprofile.ts). The bare baseline
 * (baseline/bare-server.ts: Fastify + better-sqlite3, nothing else) is profiled the same way first, as
 * the reference for what the machine's HTTP and socket layer cost by themselves.
 *
 * By default svc runs from `git archive HEAD` (node_modules linked in), so the profile is of exactly
 * the commit it names, whatever is uncommitted in the working tree; `--commit <rev>` picks another
 * commit, `--worktree` the working tree as it is. With `--label <name>` the Markdown replaces the
 * section between `<!-- profile:<name>:start -->` and `<!-- profile:<name>:end -->` of BENCHMARKS.md
 * (appended if missing); without it, it is only printed. The .cpuprofile files are kept (their
 * directory is printed) for DevTools or speedscope.
 */
import { execFileSync, execSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { readProfile, sampleTimes, summarize, type ProfileSummary, type Window } from './lib/cpuprofile.ts';
import { makeDoc, oneDocBody, pick, random } from './lib/documents.ts';
import { LOAD, measure, type LoadTarget, type Measurement } from './lib/load.ts';
import { machine, num, table } from './lib/markdown.ts';
import { BENCHMARKS_MD, ROOT } from './lib/paths.ts';
import { startProcess } from './lib/process.ts';
import { log } from './lib/scenario.ts';
import { benchStores, seed, startSvc, type StoreKind, stopSvc } from './lib/svc.ts';

const DOCS = Number(process.env.BENCH_DOCS ?? 100_000);
const SECONDS = Number(process.env.BENCH_PROFILE_SECONDS ?? 10);
const TOP = 10;
/** Modules under nearly every stack (node's task queues and the microtask runner): left out of the inclusive table, which they would top without saying anything. */
const PLUMBING = new Set(['node: process', 'native ← node: process']);

const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const label = flag('--label');
const useWorktree = args.includes('--worktree');
const rev = flag('--commit') ?? 'HEAD';

/** Microseconds of the monotonic clock (CLOCK_MONOTONIC on Linux, as V8's profiler uses). */
const monoUs = () => Number(process.hrtime.bigint() / 1000n);

/**
 * Exports `rev` into a temporary directory (read-only for the repository: `git archive`, no
 * checkout) and links in what git does not hold: node_modules and the built dashboard.
 */
function exportTree(commit: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-profile-tree-'));
  execSync(`git -C ${JSON.stringify(ROOT)} archive --format=tar ${commit} | tar -x -C ${JSON.stringify(dir)}`);
  for (const p of [
    'node_modules',
    'packages/server/node_modules',
    'packages/client/node_modules',
    'packages/dashboard/node_modules',
    'packages/dashboard/dist',
    'packages/client/dist',
  ]) {
    if (existsSync(join(ROOT, p)) && !existsSync(join(dir, p))) symlinkSync(join(ROOT, p), join(dir, p));
  }
  return dir;
}

/** What is profiled: svc on one of its stores, or the bare baseline (bare Fastify + better-sqlite3) as the reference. */
type Subject = 'bare' | StoreKind;
const SUBJECT_NAME: Record<Subject, string> = { bare: 'bare Fastify + SQLite', sqlite: 'SQLite', postgres: 'PostgreSQL' };

/** One profiled operation: its svc request and the bare server's equivalent. */
interface Op {
  name: string;
  svc: (ids: string[]) => Omit<LoadTarget, 'url' | 'key'>;
  bare: (ids: string[]) => Omit<LoadTarget, 'url' | 'key'>;
}

/**
 * `--keyed` (issue 26): instead, an insert with a fresh `Idempotency-Key` against one without, both
 * building each request alike (a fresh UUID in a header), so the difference is the key's handling.
 */
const KEYED_OPS: Op[] = [
  ['insert one document', 'x-nonce'],
  ['insert with an Idempotency-Key', 'idempotency-key'],
].map(([name, header]) => ({
  name,
  svc: () => ({ method: 'POST', path: '/v1/inserted/docs', body: oneDocBody, next: () => ({ headers: { [header]: randomUUID() } }) }),
  bare: () => ({ method: 'POST', path: '/docs', body: oneDocBody, next: () => ({ headers: { [header]: randomUUID() } }) }),
}));

const OPS: Op[] = args.includes('--keyed')
  ? KEYED_OPS
  : [
      {
        name: 'insert one document',
        svc: () => ({ method: 'POST', path: '/v1/inserted/docs', body: oneDocBody }),
        bare: () => ({ method: 'POST', path: '/docs', body: oneDocBody }),
      },
      {
        name: 'get by id',
        svc: (ids) => ({ path: `/v1/items/docs/${ids[0]}`, nextPath: () => `/v1/items/docs/${pick(ids)}` }),
        bare: (ids) => ({ path: `/docs/${ids[0]}`, nextPath: () => `/docs/${pick(ids)}` }),
      },
    ];

interface Result {
  subject: Subject;
  op: string;
  m: Measurement;
  s: ProfileSummary;
}

/** The largest .cpuprofile under `dir` (one per thread; the main thread's is the large one). */
function mainProfile(dir: string): string {
  const files: string[] = [];
  const walk = (d: string) => {
    for (const f of readdirSync(d)) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (f.endsWith('.cpuprofile')) files.push(p);
    }
  };
  walk(dir);
  if (!files.length) throw new Error(`no .cpuprofile under ${dir}`);
  return files.sort((a, b) => statSync(b).size - statSync(a).size)[0];
}

/** A server under profile, seeded: where to send requests, and how to stop it (which writes the profile). */
interface Profiled {
  url: string;
  key?: string;
  ids: string[];
  stop(): Promise<void>;
}

/** Starts svc (with --cpu-prof through BENCH_CPU_PROF) on `store`, or the bare server with --cpu-prof, and seeds it. */
async function start(subject: Subject, dir: string, notes: string[]): Promise<Profiled> {
  const make = makeDoc(random(42));
  if (subject === 'bare') {
    const dbDir = mkdtempSync(join(tmpdir(), 'svc-profile-bare-'));
    const bare = await startProcess(
      'bare baseline',
      ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--import', 'tsx', 'bench/baseline/bare-server.ts'],
      { BARE_DB: join(dbDir, 'bare.db') },
      ROOT,
    );
    try {
      const ids = await seed({ url: bare.url, bulkPath: '/bulk', count: DOCS, make, parallel: 3 });
      return {
        url: bare.url,
        ids,
        stop: async () => {
          await bare.stop();
          rmSync(dbDir, { recursive: true, force: true });
        },
      };
    } catch (e) {
      await bare.stop();
      rmSync(dbDir, { recursive: true, force: true });
      throw e;
    }
  }
  process.env.BENCH_CPU_PROF = dir;
  const svc = await startSvc(subject);
  try {
    const ids = await seed({ url: svc.url, bulkPath: '/v1/items/bulk', key: svc.key, count: DOCS, make, parallel: 3 });
    await svc.settle();
    return { url: svc.url, key: svc.key, ids, stop: () => stopSvc(svc, SUBJECT_NAME[subject], notes) };
  } catch (e) {
    await svc.stop();
    throw e;
  }
}

/** Profiles every operation on one subject: a warm-up, then SECONDS of load whose samples are summed up. */
async function profile(subject: Subject, profDir: string, notes: string[]): Promise<Result[]> {
  const name = SUBJECT_NAME[subject];
  const dir = join(profDir, subject);
  log(`${name}: starting with --cpu-prof, seeding ${num(DOCS)} documents`);
  const server = await start(subject, dir, notes);
  const windows: Array<{ op: Op; m: Measurement; w: Window }> = [];
  // measure() warms up by itself; here the warm-up is a run of its own, outside the window.
  const warmup = LOAD.warmup;
  LOAD.warmup = 0;
  try {
    for (const op of OPS) {
      const target: LoadTarget = { url: server.url, key: server.key, ...(subject === 'bare' ? op.bare : op.svc)(server.ids) };
      if (warmup > 0) {
        LOAD.duration = warmup;
        await measure(target);
      }
      LOAD.duration = SECONDS;
      log(`${name}: ${op.name}, ${SECONDS} s`);
      const fromUs = monoUs();
      const m = await measure(target);
      windows.push({ op, m, w: { fromUs, toUs: monoUs() } });
    }
  } finally {
    LOAD.warmup = warmup;
    await server.stop();
  }
  const file = mainProfile(dir);
  const p = readProfile(file);
  const times = sampleTimes(p);
  return windows.map(({ op, m, w }) => {
    // Should the clocks ever differ, say so rather than summarise the wrong samples.
    if (!times.some((t) => t >= w.fromUs && t < w.toUs))
      throw new Error(`no sample of ${file} falls in the ${op.name} window: the profiler's clock is not the bench's`);
    return { subject, op: op.name, m, s: summarize(p, w) };
  });
}

const pct = (ms: number, total: number) => `${num((100 * ms) / total, 1)} %`;
const code = (s: string) => `\`${s.replace(/`/g, "'").replace(/\|/g, '\\|')}\``;

/** Main-thread time of the summary per request, in µs. */
const perRequest = (r: Result) => (1000 * r.s.busyMs) / Math.max(1, r.m.requests);
/** Self time of one module, as a share of the window. */
const moduleSelf = (r: Result, module: string) => pct(r.s.modules.find((x) => x.module === module)?.selfMs ?? 0, r.s.totalMs);

function render(results: Result[], commit: string, notes: string[], profDir: string): string {
  const order: Subject[] = ['bare', 'sqlite', 'postgres'];
  const sorted = OPS.flatMap((op) => order.flatMap((subject) => results.filter((r) => r.op === op.name && r.subject === subject)));
  const overview = table(
    ['operation', 'server', 'req/s', 'p50 ms', 'main thread busy', 'main-thread µs per request', 'socket writes (native ← node: net)', 'GC'],
    sorted.map((r) => [
      r.op,
      SUBJECT_NAME[r.subject],
      num(r.m.rps),
      num(r.m.p50, 2),
      pct(r.s.busyMs, r.s.totalMs),
      num(perRequest(r)),
      moduleSelf(r, 'native ← node: net'),
      moduleSelf(r, 'V8: garbage collector'),
    ]),
    ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r'],
  );
  const parts = sorted.map((r) => {
    const { s, m } = r;
    const self = table(
      ['function', 'where', 'module', 'self ms', 'self %'],
      s.self.slice(0, TOP).map((f) => [code(f.fn), f.where, f.module, num(f.ms), pct(f.ms, s.totalMs)]),
      ['l', 'l', 'l', 'r', 'r'],
    );
    const modules = table(
      ['module', 'inclusive %', 'self %'],
      s.modules
        .filter((x) => !PLUMBING.has(x.module))
        .slice(0, TOP + 2)
        .map((x) => [x.module, pct(x.inclusiveMs, s.totalMs), pct(x.selfMs, s.totalMs)]),
      ['l', 'r', 'r'],
    );
    return `#### ${r.op} · ${SUBJECT_NAME[r.subject]}

${num(m.rps)} req/s, p50 ${num(m.p50, 2)} ms, p99 ${num(m.p99, 1)} ms${m.failures ? ` (⚠ ${m.failureDetail})` : ''}; ${num(s.samples)} samples over ${num(s.totalMs / 1000, 1)} s; main thread busy ${pct(s.busyMs, s.totalMs)}, ≈ ${num(perRequest(r))} µs per request.

${self}

${modules}`;
  });
  return `### Profiles (${label ?? 'unlabelled'})

${machine()} · svc at commit **${commit}** · \`npm run bench:profile${label ? ` -- --label ${label}` : ''}\`: ${num(DOCS)} documents, then per operation ${LOAD.warmup} s warm-up and ${SECONDS} s of autocannon load with ${LOAD.connections} connections; \`node --cpu-prof\` (1 ms sampling) on the server's process, only the samples of the measured seconds; load average ${loadBefore} before the run. Profiles: \`${profDir}\` (not kept in git).

${overview}

How to read it: "main thread busy" is the share of samples not idle in the event loop; it also counts time
the thread was ready but waiting for a CPU (2 cores shared with the load generator, PostgreSQL and anything
else running), so "µs per request" (busy time ÷ requests) overstates CPU on a loaded machine: compare it
with the bare server's of the same run. "self" is time in the function itself; the module table is
inclusive (a sample counts once for each module on its stack, so it adds up to more than 100 %; node's task
and microtask queues, under nearly everything, are left out). A C++ method of an addon or of node
(better-sqlite3's statements, a socket write) has no JavaScript frame of its own: its time is the self time
of the JavaScript function that called it, so on SQLite \`get\`, \`all\`, \`run\` and \`commitBatch\` of
\`sqlite-store.ts\` are mostly SQLite's own work, and \`writev\`/\`writeBuffer\` (native ← node: net) are socket
writes, i.e. the kernel, including the wake-up of the reader (the load generator; on PostgreSQL also the
database for each query). svc's TypeScript runs as tsx compiled it (one line per file), so its rows name
the file only.

${parts.join('\n\n')}
${notes.length ? `\n${notes.map((n) => `- ${n}`).join('\n')}\n` : ''}`;
}

/** Replaces (or appends) the `profile:<name>` section of BENCHMARKS.md. */
function writeProfileSection(name: string, body: string): void {
  const start = `<!-- profile:${name}:start -->`;
  const end = `<!-- profile:${name}:end -->`;
  const section = `${start}\n${body.trim()}\n${end}`;
  const text = readFileSync(BENCHMARKS_MD, 'utf8');
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  writeFileSync(BENCHMARKS_MD, from >= 0 && to > from ? text.slice(0, from) + section + text.slice(to + end.length) : `${text.trimEnd()}\n\n${section}\n`);
}

const commit = useWorktree
  ? `${execFileSync('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD']).toString().trim()} + uncommitted changes of the working tree`
  : execFileSync('git', ['-C', ROOT, 'rev-parse', '--short', rev]).toString().trim();
let tree: string | undefined;
if (!useWorktree) {
  tree = exportTree(rev);
  process.env.BENCH_SVC_ROOT = tree;
  log(`svc from commit ${commit}, exported to ${tree}`);
}
const loadBefore = loadavg()
  .map((x) => x.toFixed(2))
  .join(' / ');
const profDir = mkdtempSync(join(tmpdir(), `svc-profiles-${label ?? 'run'}-`));
const notes: string[] = [];
const results: Result[] = [];
try {
  const { stores, skipped } = await benchStores();
  if (skipped) notes.push(skipped);
  for (const subject of ['bare', ...stores] as Subject[]) results.push(...(await profile(subject, profDir, notes)));
} finally {
  if (tree) rmSync(tree, { recursive: true, force: true });
}
const body = render(results, commit, notes, profDir);
console.log(`\n${body}`);
if (label) {
  writeProfileSection(label, body);
  log(`written to BENCHMARKS.md (profile:${label})`);
}
log(`profiles kept in ${profDir}`);
