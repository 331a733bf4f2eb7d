/**
 * Issue 10, item 7: access rules on both stores, each figure beside a comparison measured in the
 * same run.
 *
 * For each store a fresh svc gets USERS users (sign-up with the public key; each gives a session),
 * the rules `{"todos": owner = $auth.id for read, create, update, delete}` (`PUT /v1/rules`, secret
 * key) and DOCS todos spread evenly over the users (bulk, secret key). Lists warm up until svc's
 * automatic index on `owner` exists. Then:
 *
 * - a list of 20 under the read rule (public key + a random user's `X-Session-Token` per request),
 *   beside the same list with the secret key and an explicit `filter={"owner": id}`, itself beside a
 *   bare Fastify + better-sqlite3 list by an indexed owner column (baseline/bare-owned.ts);
 * - an insert under the create rule (public key + session, `owner` = the user) right after an insert
 *   with the secret key (which rules never bind);
 * - fan-out: USERS × SOCKETS_PER_USER WebSockets, each with a token asked for with the public key
 *   and its user's session, all subscribed to `todos`; WRITES secret-key inserts of documents owned
 *   by random users, each timed from its 201 to its owner's sockets; every event any socket receives
 *   is checked to belong to that socket's user. Beside it, the same sockets and writes on the bare
 *   `ws` server (baseline/bare-ws.ts, routing per user through a Map), measured right before.
 *
 * `BENCH_SMALL=1` shrinks it to a smoke run (2,000 documents, 50 users, 500 sockets, 50 writes).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { LOAD, measure, type LoadTarget, type Measurement } from '../lib/load.ts';
import { machine, num, table } from '../lib/markdown.ts';
import { ROOT } from '../lib/paths.ts';
import { startProcess, type ServerProcess } from '../lib/process.ts';
import { log, type Scenario } from '../lib/scenario.ts';
import { now, openFilesLimit, percentiles } from '../lib/stats.ts';
import { benchStores, call, seed, startSvc, type StoreKind, stopSvc, type Svc, waitForIndexes, LISTS_FROM_STORE } from '../lib/svc.ts';
import { startWorker, type Worker } from '../lib/worker.ts';

const SMALL_RUN = process.env.BENCH_SMALL === '1';
const DOCS = Number(process.env.BENCH_RULES_DOCS ?? (SMALL_RUN ? 2000 : 100_000));
const USERS = Number(process.env.BENCH_RULES_USERS ?? (SMALL_RUN ? 50 : 1000));
const SOCKETS_PER_USER = Number(process.env.BENCH_RULES_SOCKETS_PER_USER ?? 10);
const WRITES = Number(process.env.BENCH_RULES_WRITES ?? (SMALL_RUN ? 50 : 200));
/** Pause between two timed writes, so each one's fan-out is measured alone. */
const WRITE_GAP_MS = 50;
/** Alternating rounds of the two insert rows (secret, rule, …): each side's median is shown. */
const INSERT_ROUNDS = SMALL_RUN ? 1 : 3;
/** Source addresses 127.0.0.1 … 127.0.0.SOURCES, so the client never runs out of ephemeral ports. */
const SOURCES = 4;
const LIMIT = 20;
const PASSWORD = 'bench-user-password-0123';
const STORE_NAME: Record<StoreKind, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

const OWNER = { owner: { $auth: 'id' } };
const RULES = { todos: { read: OWNER, create: OWNER, update: OWNER, delete: OWNER } };

interface User {
  id: string;
  token: string;
}

const pick = <T>(xs: T[]): T => xs[Math.floor(Math.random() * xs.length)];
const todo = (i: number, owner: string, mark = '') => ({ title: `Todo ${i}${mark}`, done: i % 4 === 0, priority: i % 3, owner });
const listPath = `/v1/todos/docs?limit=${LIMIT}`;
const filteredPath = (owner: string) => `${listPath}&filter=${encodeURIComponent(JSON.stringify({ owner }))}`;

/** One measured HTTP row of the main table. */
interface Row {
  scenario: string;
  store: string;
  m: Measurement;
  against?: { m: Measurement; name: string };
  target: string;
  met?: boolean;
}

/** What one fan-out pass (svc or bare) gave. */
interface FanOut {
  sockets: number;
  openMs: number;
  openFailed: string;
  /** Receipt − 201, every owner's socket of every write (ms). */
  fromAnswer: number[];
  fromSent: number[];
  writeMs: number[];
  missing: number;
  /** Sockets of other users that had the write's marker when its owner's sockets all had it. */
  strays: number;
  events: number;
  expectedEvents: number;
  violations: number;
  example: string;
  closed: number;
}

interface FanOutTarget {
  urls: string[];
  write(k: number, mark: string, owner: string): Promise<void>;
}

async function fanOut(label: string, clients: Worker, target: FanOutTarget, owners: string[]): Promise<FanOut> {
  const users = [...new Set(owners)];
  log(`${label}: opening ${num(owners.length)} sockets of ${num(users.length)} users`);
  const o = await clients.call<{ opened: number; failed: number; firstError: string; ms: number }>('open', {
    urls: target.urls,
    owners,
    count: owners.length,
    sources: SOURCES,
  });
  await sleep(2000);
  log(`${label}: ${num(o.opened)} open in ${num(o.ms / 1000, 1)} s; ${WRITES} writes`);
  const r: FanOut = {
    sockets: o.opened,
    openMs: o.ms,
    openFailed: o.failed ? `${o.failed} sockets failed to open (${o.firstError})` : '',
    fromAnswer: [],
    fromSent: [],
    writeMs: [],
    missing: 0,
    strays: 0,
    events: 0,
    expectedEvents: 0,
    violations: 0,
    example: '',
    closed: 0,
  };
  for (let k = 0; k < WRITES; k++) {
    const owner = pick(users);
    const mark = ` fanout-${k}-${Math.random().toString(36).slice(2)}`;
    await clients.call('arm', { text: mark });
    const sent = now();
    await target.write(k, mark, owner);
    const answered = now();
    const c = await clients.call<{ delays: number[]; missing: number; strays: number; closed: number }>('collect', {
      from: answered,
      timeoutMs: 10_000,
      owner,
    });
    for (const d of c.delays) {
      r.fromAnswer.push(d);
      r.fromSent.push(d + (answered - sent));
    }
    r.writeMs.push(answered - sent);
    r.missing += c.missing;
    r.strays += c.strays;
    r.closed = c.closed;
    r.expectedEvents += c.delays.length + c.missing;
    await sleep(WRITE_GAP_MS);
  }
  await sleep(1000); // late strays, if any, still count as violations
  const v = await clients.call<{ events: number; violations: number; example: string }>('violations');
  Object.assign(r, { events: v.events, violations: v.violations, example: v.example });
  await clients.call('close');
  return r;
}

/** Signs up `count` users with the public key, 4 in flight; each sign-up gives a session. */
async function signUp(svc: Svc, count: number): Promise<User[]> {
  const users: User[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < count) {
        const i = next++;
        const out = await call<{ user: { id: string }; session: { token: string } }>(svc.url, 'POST', '/v1/auth/sign-up', svc.publicKey, {
          email: `user${i}@bench.example`,
          password: PASSWORD,
          name: `user${i}`,
        });
        users[i] = { id: out.user.id, token: out.session.token };
      }
    }),
  );
  return users;
}

/**
 * Figures of rules that are not enforced would measure nothing: before measuring, a list under the
 * rule must show exactly its user's documents, and an insert naming another owner must be refused.
 */
async function checkEnforced(svc: Svc, users: User[]): Promise<string> {
  const [u, other] = users;
  const mine = Math.ceil(DOCS / USERS); // user 0 owns documents 0, USERS, 2 × USERS, …
  const page = await call<{ documents: Array<{ owner?: string }>; total: number }>(svc.url, 'GET', `/v1/todos/docs?limit=100`, svc.publicKey, undefined, {
    'x-session-token': u.token,
  });
  if (page.total !== mine || page.documents.some((d) => d.owner !== u.id)) {
    throw new Error(
      `the read rule is not enforced: a list under it answered total ${page.total} (expected ${mine}) with owners ${[...new Set(page.documents.map((d) => d.owner))].join(', ')}`,
    );
  }
  const res = await fetch(`${svc.url}/v1/todos/docs`, {
    method: 'POST',
    headers: { authorization: `Bearer ${svc.publicKey}`, 'x-session-token': u.token, 'content-type': 'application/json' },
    body: JSON.stringify(todo(0, other.id)),
  });
  await res.arrayBuffer();
  if (res.status !== 403) throw new Error(`the create rule is not enforced: an insert naming another user as owner answered ${res.status}`);
  return `checked before measuring: a list under the rule showed only its user's documents (total ${mine}), and an insert naming another user as owner was refused (403).`;
}

async function benchStore(
  store: StoreKind,
  bare: ServerProcess,
  bareOwners: string[],
  clients: Worker,
  fanUsers: number,
  rows: Row[],
  bareRows: string[][],
  fanOuts: Array<{ store: string; svc: FanOut; bare: FanOut }>,
  notes: string[],
): Promise<void> {
  const name = STORE_NAME[store];
  log(`${name}: starting svc`);
  const svc = await startSvc(store, LISTS_FROM_STORE);
  try {
    let t = Date.now();
    const users = await signUp(svc, USERS);
    notes.push(`${name}: signing up ${num(USERS)} users (public key, 4 in flight) took ${num((Date.now() - t) / 1000, 1)} s.`);
    await call(svc.url, 'PUT', '/v1/rules', svc.key, { rules: RULES });
    t = Date.now();
    await seed({ url: svc.url, bulkPath: '/v1/todos/bulk', key: svc.key, count: DOCS, make: (i) => todo(i, users[i % USERS].id), parallel: 3 });
    notes.push(
      `${name}: seeding ${num(DOCS)} todos (${num(DOCS / USERS)} per user, bulk with the secret key, 3 in flight) took ${num((Date.now() - t) / 1000, 1)} s.`,
    );
    if (store === 'postgres') await svc.settle();
    notes.push(`${name}: ${await checkEnforced(svc, users)}`);

    // The rule's field earns its automatic index as any filtered field does: lists naming it.
    const ruleList = async (u: User) => {
      await call(svc.url, 'GET', listPath, svc.publicKey, undefined, { 'x-session-token': u.token });
    };
    t = Date.now();
    for (let k = 0; k < 3; k++) await ruleList(pick(users));
    try {
      const { ms, pokes } = await waitForIndexes(svc, ['owner>createdAt'], () => ruleList(pick(users)), 2000, 60_000);
      notes.push(
        `${name}: svc's automatic index on \`owner\` existed ${num((Date.now() - t) / 1000, 1)} s after the first list under the rule (3 lists, then ${pokes} more, one every 2 s; ${num(ms / 1000, 1)} s of waiting): lists under the rule alone earned it.`,
      );
    } catch {
      const started = Date.now();
      const { pokes } = await waitForIndexes(svc, ['owner>createdAt'], () => call(svc.url, 'GET', filteredPath(pick(users).id), svc.key), 2000, 120_000);
      notes.push(
        `${name}: ⚠ 60 s of lists under the rule did **not** earn the index on \`owner\`; ${pokes} secret-key lists with \`filter={"owner": …}\` did, ${num((Date.now() - started) / 1000, 1)} s later.`,
      );
    }
    await sleep(2000);

    const run = (label: string, target: LoadTarget) => {
      log(`${name}: ${label}`);
      return measure(target);
    };
    const baseline = async (label: string, target: LoadTarget) => {
      const m = await run(label, target);
      bareRows.push([label, name, num(m.rps), num(m.p50, 2), num(m.p99, 1), m.failures ? `⚠ ${m.failureDetail}` : '']);
      return m;
    };
    const session = () => {
      const u = pick(users);
      return { headers: { 'x-session-token': u.token } };
    };

    // Lists: bare by owner column, then secret key + explicit filter, then the same under the rule.
    const bareList = await baseline(`bare list ${LIMIT} by owner`, {
      url: bare.url,
      path: `/docs?owner=${bareOwners[0]}&limit=${LIMIT}`,
      nextPath: () => `/docs?owner=${pick(bareOwners)}&limit=${LIMIT}`,
    });
    const secretList = await run('list, secret key + filter', {
      url: svc.url,
      key: svc.key,
      path: filteredPath(users[0].id),
      nextPath: () => filteredPath(pick(users).id),
    });
    const ruleListM = await run('list under the rule', { url: svc.url, key: svc.publicKey, path: listPath, next: session });
    const ruleList1 = await run('list under the rule, 1 connection', { url: svc.url, key: svc.publicKey, path: listPath, next: session, connections: 1 });
    const perUser = `${num(DOCS / 1000)}k docs, ${num(USERS)} users`;
    rows.push({
      scenario: `list ${LIMIT} under the owner rule, public key + session (${perUser})`,
      store: name,
      m: ruleListM,
      against: { m: secretList, name: 'secret + filter' },
      target: 'p50 ≤ 5 ms',
      met: ruleListM.p50 <= 5,
    });
    rows.push({ scenario: 'same, 1 connection', store: name, m: ruleList1, target: 'p50 ≤ 5 ms', met: ruleList1.p50 <= 5 });
    rows.push({
      scenario: `list ${LIMIT}, secret key + \`filter={"owner": id}\``,
      store: name,
      m: secretList,
      against: { m: bareList, name: 'bare list' },
      target: '— (comparison)',
    });

    // Inserts: secret key right before the same under the create rule, same body shape, in
    // INSERT_ROUNDS alternating rounds (secret, rule, secret, rule, …); each side's median round is
    // shown. One pair alone moved between 68 % and 101 % across runs on this shared machine.
    const insertAs = (kind: 'secret' | 'rule') =>
      run(kind === 'secret' ? 'insert, secret key' : 'insert under the create rule', {
        url: svc.url,
        key: kind === 'secret' ? svc.key : svc.publicKey,
        method: 'POST',
        path: '/v1/todos/docs',
        body: JSON.stringify(todo(0, users[0].id)),
        next: () => {
          const u = pick(users);
          return { body: JSON.stringify(todo(1, u.id)), headers: kind === 'rule' ? { 'x-session-token': u.token } : undefined };
        },
      });
    const secretRounds: Measurement[] = [];
    const ruleRounds: Measurement[] = [];
    for (let round = 0; round < INSERT_ROUNDS; round++) {
      secretRounds.push(await insertAs('secret'));
      ruleRounds.push(await insertAs('rule'));
    }
    const median = (ms: Measurement[]) => [...ms].sort((x, y) => x.rps - y.rps)[Math.floor(ms.length / 2)];
    const secretInsert = median(secretRounds);
    const ruleInsert = median(ruleRounds);
    notes.push(
      `${name}: insert rounds (req/s), secret then rule: ${secretRounds.map((m, i) => `${num(m.rps)} / ${num(ruleRounds[i].rps)}`).join('; ')}; the table shows each side's median.`,
    );
    rows.push({
      scenario: 'insert under the create rule, public key + session',
      store: name,
      m: ruleInsert,
      against: { m: secretInsert, name: 'secret insert' },
      target: '≥ 90 % of secret insert',
      met: ruleInsert.rps >= 0.9 * secretInsert.rps,
    });
    rows.push({ scenario: 'insert, secret key (rules do not bind it)', store: name, m: secretInsert, target: '— (comparison)' });

    // Fan-out: the bare ws server first, then svc, with the same owners and socket layout.
    const fan = users.slice(0, fanUsers);
    const owners = Array.from({ length: fanUsers * SOCKETS_PER_USER }, (_, i) => fan[i % fanUsers].id);
    log(`${name}: bare ws baseline`);
    const bareWs = await startProcess('bare ws', ['--import', 'tsx', 'bench/baseline/bare-ws.ts'], {}, ROOT);
    let bareFan: FanOut;
    try {
      const base = `${bareWs.url.replace(/^http/, 'ws')}/v1/realtime?user=`;
      bareFan = await fanOut(
        `bare ws (beside ${name})`,
        clients,
        {
          urls: owners.map((o) => base + o),
          write: (k, mark, owner) => call(bareWs.url, 'POST', '/broadcast', undefined, { count: 1, owner, document: todo(k, owner, mark) }),
        },
        owners,
      );
    } finally {
      await bareWs.stop();
    }
    t = Date.now();
    const urlOf = new Map<string, string>();
    for (const u of fan) {
      const { url } = await call<{ url: string }>(
        svc.url,
        'POST',
        '/v1/realtime/token',
        svc.publicKey,
        { collections: ['todos'] },
        { 'x-session-token': u.token },
      );
      urlOf.set(u.id, url.replace(/^ws:\/\/[^/]+/, svc.url.replace(/^http/, 'ws')));
    }
    notes.push(
      `${name}: ${num(fanUsers)} realtime tokens (public key + each user's session) took ${num((Date.now() - t) / 1000, 1)} s; each user's ${SOCKETS_PER_USER} sockets share its token.`,
    );
    const svcFan = await fanOut(
      `svc (${name})`,
      clients,
      {
        urls: owners.map((o) => urlOf.get(o)!),
        write: (k, mark, owner) => call(svc.url, 'POST', '/v1/todos/docs', svc.key, todo(k, owner, mark)),
      },
      owners,
    );
    fanOuts.push({ store: name, svc: svcFan, bare: bareFan });
  } finally {
    await stopSvc(svc, name, notes);
  }
}

function render(rows: Row[], bareRows: string[][], fanOuts: Array<{ store: string; svc: FanOut; bare: FanOut }>, notes: string[], sockets: number): string {
  const pct = (a: number, b: number) => `${num((100 * a) / b)} %`;
  const verdict = (met: boolean | undefined) => (met === undefined ? '' : met ? '✅' : '❌');
  const main: string[][] = rows.map((r) => [
    r.scenario,
    r.store,
    num(r.m.rps),
    num(r.m.p50, 2),
    num(r.m.p99, 1),
    r.against ? `${pct(r.m.rps, r.against.m.rps)} of ${r.against.name} (${num(r.against.m.rps)} req/s, p50 ${num(r.against.m.p50, 2)} ms)` : '—',
    r.target,
    verdict(r.met),
    r.m.failures ? `⚠ ${r.m.failureDetail}` : '',
  ]);
  for (const { store, svc, bare } of fanOuts) {
    const f = percentiles(svc.fromAnswer);
    const fb = percentiles(bare.fromAnswer);
    const s = percentiles(svc.fromSent);
    const sb = percentiles(bare.fromSent);
    const w = percentiles(svc.writeMs);
    const wb = percentiles(bare.writeMs);
    const err = (p: FanOut) =>
      [p.openFailed, p.missing ? `⚠ ${num(p.missing)} receipts missing` : '', p.closed ? `⚠ ${num(p.closed)} sockets closed` : ''].filter(Boolean).join(', ');
    main.push([
      `fan-out: one write to its owner's ${SOCKETS_PER_USER} sockets among ${num(svc.sockets)} (201 → receipt)`,
      store,
      '—',
      num(f.p50, 1),
      num(f.p99, 1),
      `bare ws p99 ${num(fb.p99, 1)} ms (${pct(f.p99, fb.p99)})`,
      'p99 ≤ 100 ms',
      verdict(f.p99 <= 100),
      err(svc),
    ]);
    main.push([
      'same, write request sent → receipt',
      store,
      '—',
      num(s.p50, 1),
      num(s.p99, 1),
      `bare ws p99 ${num(sb.p99, 1)} ms (${pct(s.p99, sb.p99)})`,
      '—',
      '',
      '',
    ]);
    main.push([
      `the write itself with ${num(svc.sockets)} sockets subscribed (sent → 201)`,
      store,
      '—',
      num(w.p50, 1),
      `${num(w.max, 1)} (max)`,
      `bare ws p50 ${num(wb.p50, 1)} ms`,
      '—',
      '',
      '',
    ]);
    main.push([
      "sockets that received another user's document",
      store,
      num(svc.violations),
      '—',
      '—',
      `bare ws: ${num(bare.violations)}`,
      '0',
      verdict(svc.violations === 0 && svc.strays === 0),
      svc.violations ? `⚠ ${svc.example}` : '',
    ]);
    bareRows.push([`bare ws fan-out, ${num(bare.sockets)} sockets (201 → receipt)`, store, '—', num(fb.p50, 1), num(fb.p99, 1), err(bare)]);
    notes.push(
      `${store}: svc opened ${num(svc.sockets)} sockets in ${num(svc.openMs / 1000, 1)} s (bare: ${num(bare.openMs / 1000, 1)} s); over ${WRITES} writes its owners' sockets received ${num(svc.events)} events of ${num(svc.expectedEvents)} expected` +
        ` (bare: ${num(bare.events)} of ${num(bare.expectedEvents)}); other users' sockets that had a write's event by the time its owner's all had it: ${num(svc.strays)} (bare ${num(bare.strays)}).`,
    );
  }
  const head = ['scenario', 'store', 'req/s · value', 'p50 ms', 'p99 ms', 'compared with (same run)', 'target', 'met', 'errors'];
  return `## Rules: access rules on documents and realtime (issue 10)

${machine()}. autocannon, ${LOAD.connections} connections, ${LOAD.warmup} s warm-up then ${LOAD.duration} s per row; ${num(DOCS)} todos of ${num(USERS)} users; fan-out: ${num(sockets)} WebSockets (${SOCKETS_PER_USER} per user) from one client process over ${SOURCES} loopback source addresses, ${WRITES} writes.${SMALL_RUN ? " **Smoke run (`BENCH_SMALL=1`): sizes are not the issue's.**" : ''}

${table(head, main, ['l', 'l', 'r', 'r', 'r', 'r', 'l', 'l', 'l'])}

${table(['bare baseline', 'measured beside', 'req/s', 'p50 ms', 'p99 ms', 'errors'], bareRows, ['l', 'l', 'r', 'r', 'r', 'l'])}

How to read it: the rules are \`${JSON.stringify(RULES)}\`, set with \`PUT /v1/rules\`. A list
"under the owner rule" is \`GET ${listPath}\` with the **public** key and the \`X-Session-Token\` of a user picked
at random for each request, so svc looks the session up, reads the rules and ANDs \`owner = <user id>\` into the
list's SQL; its comparison is the same list made with the secret key and an explicit \`filter={"owner": <id>}\`
(no session, no rules), itself compared with a bare Fastify + better-sqlite3 list by an indexed owner column
(\`bench/baseline/bare-owned.ts\`, a random owner of ${num(USERS)}, also ${num(DOCS)} rows), measured right before.
Before the lists, lists under the rule run until svc's automatic index on \`owner\` exists (see the notes). The
load is closed-loop, so with ${LOAD.connections} connections a p50 is about ${LOAD.connections} × the server's time per request;
the 1-connection row shows that time alone. The insert under the create rule (public key + session, \`owner\` = that
user) and the same insert with the secret key, which rules never bind, are measured in ${INSERT_ROUNDS} alternating rounds
(secret, rule, secret, rule, …); each row shows its median round (the notes list every round), and the ratio is of req/s.
Fan-out: every socket's token was asked for with the public key and its user's session, for \`todos\`; each write
is a secret-key insert of a document owned by a random one of those users, timed from its 201 to the arrival at
each of that user's ${SOCKETS_PER_USER} sockets (pooled over every write; "sent → receipt" adds the write itself).
The bare \`ws\` server (\`bench/baseline/bare-ws.ts\`) holds the same sockets (one \`?user=\` each) and sends each
write to that user's sockets, found in a Map, before its 201; it is measured right before svc. The client checks
**every** event message any socket receives: one whose document's \`owner\` is not the socket's user is a violation.

${notes.map((n) => `- ${n}`).join('\n')}
`;
}

const rules: Scenario = {
  name: 'rules',
  description: 'access rules: list and insert under an owner rule vs secret key and bare, 10k-socket fan-out under a read rule (issue 10)',
  async run() {
    const rows: Row[] = [];
    const bareRows: string[][] = [];
    const fanOuts: Array<{ store: string; svc: FanOut; bare: FanOut }> = [];
    const notes: string[] = [];
    const limit = openFilesLimit();
    const fanUsers = Math.min(USERS, Math.floor((limit - 500) / SOCKETS_PER_USER));
    if (fanUsers < USERS)
      notes.push(
        `Fan-out: only ${num(fanUsers)} users' sockets: this shell allows ${num(limit)} open files per process (\`ulimit -n\`); raise it for ${num(USERS * SOCKETS_PER_USER)}.`,
      );
    const { stores, skipped } = await benchStores();
    if (skipped) notes.push(skipped);
    const dir = mkdtempSync(join(tmpdir(), 'svc-bench-bare-'));
    log('starting the bare list baseline');
    const bare = await startProcess('bare owned', ['--import', 'tsx', 'bench/baseline/bare-owned.ts'], { BARE_DB: join(dir, 'bare.db') }, ROOT);
    const clients = startWorker('bench/lib/ws-clients.ts');
    try {
      const bareOwners = Array.from({ length: USERS }, () => randomUUID());
      await seed({ url: bare.url, bulkPath: '/bulk', count: DOCS, make: (i) => todo(i, bareOwners[i % USERS]), parallel: 3 });
      log(`bare: seeded ${num(DOCS)} documents`);
      for (const store of stores) await benchStore(store, bare, bareOwners, clients, fanUsers, rows, bareRows, fanOuts, notes);
    } finally {
      await clients.stop();
      await bare.stop();
      rmSync(dir, { recursive: true, force: true });
    }
    return render(rows, bareRows, fanOuts, notes, fanUsers * SOCKETS_PER_USER);
  },
};

export default rules;
