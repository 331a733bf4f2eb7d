import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { OPERATOR, useServer } from '../helpers/server.ts';
import { apiClient } from '../helpers/api.ts';
import { newUser } from '../helpers/auth-client.ts';
import { runSvc, SVC_BIN, type CliRun } from '../helpers/cli.ts';
import { spawn } from 'node:child_process';

/** Runs the real `svc` on a store, standard input a pipe holding `stdin` (so never a terminal). */
const svc = (databaseUrl: string, args: string[], stdin = ''): Promise<CliRun> => runSvc(databaseUrl, args, stdin);

/**
 * Runs `svc` on a terminal: util-linux `script` gives it a pseudo-terminal, as a person's shell
 * would. Each answer is typed once the text before it has appeared (as a person reads the
 * question before typing), and `seen` is everything the terminal showed: what was echoed too.
 */
function svcOnTerminal(
  databaseUrl: string,
  args: string[],
  dialogue: Array<[question: string, answer: string]>,
): Promise<{ code: number | null; seen: string }> {
  return new Promise((resolve, reject) => {
    const command = [process.execPath, SVC_BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
    const child = spawn('script', ['-qfec', command, '/dev/null'], { env: { ...process.env, DATABASE_URL: databaseUrl } });
    let seen = '';
    let step = 0;
    let searchFrom = 0;
    child.stdout.on('data', (c: Buffer) => {
      seen += c.toString();
      while (step < dialogue.length) {
        const [question, answer] = dialogue[step];
        const at = seen.indexOf(question, searchFrom);
        if (at < 0) break;
        searchFrom = at + question.length;
        step += 1;
        child.stdin.write(`${answer}\r`);
      }
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, seen }));
  });
}

const json = (r: CliRun): any => {
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
};

/**
 * A failure as the CLI prints it: exit code 1, one line on standard error, no stack trace (a
 * validation error adds one indented `/path: message` line per problem, as rules set shows them).
 */
function failed(r: CliRun, pattern: RegExp): void {
  assert.equal(r.code, 1, `exit code; stdout: ${r.stdout}`);
  const [, ...more] = r.stderr.trimEnd().split('\n');
  assert.ok(
    more.every((l) => /^ {2}\/\S*: /.test(l)),
    `one line: ${r.stderr}`,
  );
  assert.match(r.stderr, /^svc: /);
  assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
  assert.match(r.stderr, pattern);
}

/** The lines of a table: the header's column names, then the rows split on runs of 2+ spaces. */
function tableOf(text: string): { header: string[]; rows: string[][] } {
  const [header, ...rows] = text.trimEnd().split('\n');
  const split = (line: string) => line.trim().split(/ {2,}/);
  return { header: split(header), rows: rows.filter((l) => l.trim() && !/^\d+–\d+ of /.test(l)).map(split) };
}

forEachStore('svc operator, database delete, user list', (kind) => {
  const t = useServer(kind);
  const api = apiClient(() => t.server);
  const url = () => t.server.db.url;

  test('operator create from a piped password, list as a table and as JSON, reset-password ends sessions, delete; the last one stays', async () => {
    await t.server.operatorToken(); // OPERATOR exists
    const created = json(await svc(url(), ['--json', 'operator', 'create', '--email', 'Second@Svc.test'], 'piped-password-1\n'));
    assert.equal(created.operator.email, 'second@svc.test');
    const { token } = await api.post<{ token: string }>('/admin/sign-in', { email: 'second@svc.test', password: 'piped-password-1' }, 200);

    const listed = await svc(url(), ['operator', 'list']);
    assert.equal(listed.code, 0, listed.stderr);
    const { header, rows } = tableOf(listed.stdout);
    assert.deepEqual(header, ['ID', 'EMAIL', 'CREATED']);
    assert.deepEqual(
      rows.map((r) => r[1]),
      [OPERATOR.email, 'second@svc.test'],
    );
    const asJson = json(await svc(url(), ['operator', 'list', '--json'])); // --json after the command too
    assert.deepEqual(
      asJson.operators.map((o: { email: string }) => o.email),
      [OPERATOR.email, 'second@svc.test'],
    );
    assert.equal(asJson.operators[1].id, created.operator.id);

    // A new password from standard input: the old one and the old session stop working.
    const reset = await svc(url(), ['operator', 'reset-password', '--email', 'second@svc.test'], 'reset-password-2\r\n');
    assert.equal(reset.code, 0, reset.stderr);
    await api.get('/admin/me', 401, { key: token });
    await api.post('/admin/sign-in', { email: 'second@svc.test', password: 'piped-password-1' }, 401);
    const again = await api.post<{ token: string }>('/admin/sign-in', { email: 'second@svc.test', password: 'reset-password-2' }, 200);
    failed(await svc(url(), ['operator', 'reset-password', '--email', 'second@svc.test'], 'short\n'), /8 to 256 characters \(weak_password\)/);
    failed(await svc(url(), ['operator', 'reset-password', '--email', 'second@svc.test']), /no password on standard input/);
    failed(await svc(url(), ['operator', 'reset-password', '--email', 'nobody@svc.test', '--password', 'whatever-123']), /not_found/);

    const deleted = json(await svc(url(), ['--json', 'operator', 'delete', '--email', 'second@svc.test']));
    assert.equal(deleted.deleted.email, 'second@svc.test');
    await api.get('/admin/me', 401, { key: again.token }); // their session ended with them
    failed(await svc(url(), ['operator', 'delete', '--email', 'second@svc.test']), /No operator has the e-mail second@svc\.test \(not_found\)/);

    // The last operator is never deleted: nobody could sign in any more.
    failed(await svc(url(), ['operator', 'delete', '--email', OPERATOR.email]), /last operator/);
    const refused = await svc(url(), ['--json', 'operator', 'delete', '--email', OPERATOR.email]);
    assert.equal(refused.code, 1);
    assert.equal(JSON.parse(refused.stderr).error.code, 'conflict');
    await api.post('/admin/sign-in', OPERATOR, 200);
    assert.deepEqual(
      json(await svc(url(), ['--json', 'operator', 'list'])).operators.map((o: { email: string }) => o.email),
      [OPERATOR.email],
    );
    // A taken e-mail is refused before any password is asked for (or read).
    failed(await svc(url(), ['operator', 'create', '--email', OPERATOR.email]), /already exists \(conflict\)/);
  });

  test('two operators deleting each other at once: exactly one goes, one operator stays', async () => {
    await t.server.operatorToken();
    const emails = json(await svc(url(), ['--json', 'operator', 'list'])).operators.map((o: { email: string }) => o.email) as string[];
    for (const email of emails.filter((e) => e !== OPERATOR.email)) json(await svc(url(), ['--json', 'operator', 'delete', '--email', email]));
    json(await svc(url(), ['--json', 'operator', 'create', '--email', 'racer@svc.test', '--password', 'racer-password-1']));
    const [a, b] = await Promise.all([
      svc(url(), ['operator', 'delete', '--email', OPERATOR.email]),
      svc(url(), ['operator', 'delete', '--email', 'racer@svc.test']),
    ]);
    assert.deepEqual([a.code, b.code].sort(), [0, 1], `${a.stderr} ${b.stderr}`);
    assert.match(a.code === 1 ? a.stderr : b.stderr, /last operator/);
    assert.equal(json(await svc(url(), ['--json', 'operator', 'list'])).operators.length, 1);
  });

  test('on a terminal the password is asked twice and never shown; two different answers change nothing', async () => {
    const typed = 'typed-secret-77';
    const ok = await svcOnTerminal(
      url(),
      ['operator', 'create', '--email', 'tty@svc.test'],
      [
        ['Password', typed],
        ['again', typed],
      ],
    );
    assert.equal(ok.code, 0, ok.seen);
    assert.match(ok.seen, /Created operator tty@svc\.test/);
    assert.ok(!ok.seen.includes(typed), `the password was echoed: ${JSON.stringify(ok.seen)}`);
    await api.post('/admin/sign-in', { email: 'tty@svc.test', password: typed }, 200);

    const differ = await svcOnTerminal(
      url(),
      ['operator', 'reset-password', '--email', 'tty@svc.test'],
      [
        ['Password', 'first-answer-1'],
        ['again', 'other-answer-2'],
      ],
    );
    assert.equal(differ.code, 1, differ.seen);
    assert.match(differ.seen, /the two passwords differ/);
    await api.post('/admin/sign-in', { email: 'tty@svc.test', password: typed }, 200); // unchanged
  });

  test('database delete: refused without --yes when standard input is not a terminal, asks on a terminal, deletes with --yes', async () => {
    const made = async (name: string) => json(await svc(url(), ['--json', 'database', 'create', '--name', name]));
    const doomed = await made('doomed');
    const id = doomed.database.id as string;
    const data = apiClient(() => t.server, doomed.key.key as string);
    await data.post('/notes/docs', { id: 'n1' }, 201);

    const piped = await svc(url(), ['database', 'delete', '--database', id]);
    failed(piped, /without --yes: standard input is not a terminal/);
    await data.get('/notes/docs/n1', 200); // nothing deleted

    const no = await svcOnTerminal(url(), ['database', 'delete', '--database', id], [['[y/N]', 'n']]);
    assert.equal(no.code, 1, no.seen);
    assert.match(no.seen, /Delete database doomed/);
    assert.match(no.seen, /was not deleted/);
    await data.get('/notes/docs/n1', 200);

    const yes = await svcOnTerminal(url(), ['database', 'delete', '--database', id], [['[y/N]', 'yes']]);
    assert.equal(yes.code, 0, yes.seen);
    await data.get('/notes/docs/n1', 401); // its keys died with it

    const scripted = await made('scripted');
    const out = json(await svc(url(), ['database', 'delete', '--database', scripted.database.id, '--yes', '--json']));
    assert.deepEqual(out, { deleted: { id: scripted.database.id, name: 'scripted' } });
    const left = json(await svc(url(), ['--json', 'database', 'list'])).databases.map((d: { id: string }) => d.id);
    assert.ok(!left.includes(id) && !left.includes(scripted.database.id), 'both are gone from the list');
    assert.ok(left.includes(t.db.databaseId), 'the others stay');

    failed(await svc(url(), ['database', 'delete', '--database', id, '--yes']), /Database '.*' not found \(not_found\)/);
    const missing = await svc(url(), ['--json', 'database', 'delete', '--database', 'nope', '--yes']);
    assert.equal(missing.code, 1);
    assert.equal(JSON.parse(missing.stderr).error.code, 'not_found');
  });

  test('user list: a table with headers, --email prefix, paging, --json the same as GET /auth/users', async () => {
    for (const email of ['ada@users.test', 'adam@users.test', 'bob@users.test']) await newUser(t.server, t.db.publicKey, email);
    const db = t.db.databaseId;

    const all = await svc(url(), ['user', 'list', '--database', db]);
    assert.equal(all.code, 0, all.stderr);
    const { header, rows } = tableOf(all.stdout);
    assert.deepEqual(header, ['ID', 'EMAIL', 'NAME', 'VERIFIED', 'DISABLED', 'CREATED']);
    assert.deepEqual(
      rows.map((r) => r[1]),
      ['ada@users.test', 'adam@users.test', 'bob@users.test'],
    );
    assert.match(all.stdout, /1–3 of 3 users\.$/m);

    const secret = apiClient(() => t.server, t.db.secretKey);
    const viaCli = json(await svc(url(), ['--json', 'user', 'list', '--database', db, '--email', 'ADA']));
    assert.deepEqual(
      viaCli.users.map((u: { email: string }) => u.email),
      ['ada@users.test', 'adam@users.test'],
    );
    assert.deepEqual(viaCli, await secret.get('/auth/users', 200, { query: { email: 'ADA' } }), 'the same answer as the API');

    const page = json(await svc(url(), ['user', 'list', '--database', db, '--limit', '1', '--offset', '1', '--json']));
    assert.equal(page.total, 3);
    assert.deepEqual(
      page.users.map((u: { email: string }) => u.email),
      ['adam@users.test'],
    );
    const paged = await svc(url(), ['user', 'list', '--database', db, '--limit', '1']);
    assert.match(paged.stdout, /1–1 of 3 users \(--offset 1 for the next ones\)\.$/m);

    assert.equal((await svc(url(), ['user', 'list', '--database', db, '--email', 'zed'])).stdout.trim(), 'No users whose e-mail starts with zed.');
    failed(await svc(url(), ['user', 'list', '--database', 'nope']), /not_found/);
    failed(await svc(url(), ['user', 'list', '--database', db, '--limit', '0']), /--limit/);
  });

  test('database list and key list print tables with headers; a public key in full, a secret key by its hint', async () => {
    const dbs = await svc(url(), ['database', 'list']);
    assert.deepEqual(tableOf(dbs.stdout).header, ['ID', 'NAME', 'CREATED']);
    assert.ok(tableOf(dbs.stdout).rows.some((r) => r[0] === t.db.databaseId));

    const keys = await svc(url(), ['key', 'list', '--database', t.db.databaseId]);
    assert.equal(keys.code, 0, keys.stderr);
    const [headerLine] = keys.stdout.split('\n');
    assert.match(headerLine, /^ID +KIND +NAME +KEY +CREATED +LAST USED +REVOKED$/);
    assert.ok(keys.stdout.includes(t.db.publicKey), 'the public key is shown whole');
    assert.ok(!keys.stdout.includes(t.db.secretKey), 'never a secret key');
    assert.match(keys.stdout, /^\S+ +secret +\S+ +svc_sk_…\S{4} /m);
  });

  test('failures exit 1 with one line on standard error: unreachable store, bad input, unknown command; JSON under --json', async () => {
    const unreachable = kind === 'postgres' ? 'postgres://svc@127.0.0.1:1/none' : 'sqlite:/etc/passwd/under-a-file.db';
    failed(await svc(unreachable, ['database', 'list']), kind === 'postgres' ? /unreachable/ : /EEXIST|ENOTDIR|directory/);
    if (kind === 'postgres') assert.equal(JSON.parse((await svc(unreachable, ['--json', 'operator', 'list'])).stderr).error.code, 'unavailable');
    failed(await svc(url(), ['operator', 'create']), /required option '--email <email>' not specified/);
    failed(await svc(url(), ['databse', 'list']), /unknown command 'databse'/);
    failed(await svc(url(), ['operator', 'create', '--email', 'not-an-email', '--password', 'long-enough-1']), /validation_failed/);
    const bad = await svc(url(), ['--json', 'key', 'create', '--database', t.db.databaseId, '--kind', 'root']);
    assert.equal(bad.code, 1);
    assert.equal(JSON.parse(bad.stderr).error.code, 'validation_failed');
    const usage = await svc(url(), ['operator', 'delete', '--json']);
    assert.equal(usage.code, 1);
    assert.match(JSON.parse(usage.stderr).error.message, /--email/);
  });
});

test('svc --help lists every command with an example; each command --help shows its example', async () => {
  const url = 'sqlite:/nonexistent-never-opened.db'; // help opens no store
  const help = await svc(url, ['--help']);
  assert.equal(help.code, 0, help.stderr);
  const commands = [
    'migrate',
    'operator create',
    'operator list',
    'operator delete',
    'operator reset-password',
    'database create',
    'database list',
    'database delete',
    'key create',
    'key list',
    'key revoke',
    'user list',
    'rules get',
    'rules set',
    'search get',
    'search set',
    'export',
    'import',
    'backup',
  ];
  for (const name of commands) {
    const line = help.stdout.split('\n').find((l) => new RegExp(`^ {2}${name} +.*svc ${name}\\b`).test(l));
    assert.ok(line, `svc --help shows ${name} with an example:\n${help.stdout}`);
  }
  for (const name of ['operator delete', 'database delete', 'user list', 'key list', 'export']) {
    const own = await svc(url, [...name.split(' '), '--help']);
    assert.equal(own.code, 0, own.stderr);
    assert.match(own.stdout, new RegExp(`Examples?:\\n {2}.*svc ${name}`), `${name} --help shows an example`);
    assert.match(own.stdout, /--json/, `${name} --help shows --json`);
  }
});
