import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { request, useServer, type TestServer } from '../helpers/server.ts';
import { upgrade, type UpgradeAnswer } from './upgrade.ts';

const tokenUrl = async (server: TestServer, key: string) => {
  const r = await request(server, 'POST', '/realtime/token', { key, body: { collections: ['limits'] } });
  assert.equal(r.status, 201, r.text);
  return (r.json as { url: string }).url;
};

/** A 429 of API.md §0/§5: the error shape, `retryAfter` in the body, the same in `Retry-After`. */
function assertRateLimited(a: UpgradeAnswer, message?: RegExp): void {
  assert.equal(a.status, 429);
  assert.equal(a.body?.error?.code, 'rate_limited', JSON.stringify(a.body));
  assert.equal(typeof a.body.error.message, 'string');
  if (message) assert.match(a.body.error.message, message);
  assert.ok(Number.isInteger(a.body.retryAfter) && a.body.retryAfter > 0, JSON.stringify(a.body));
  assert.equal(a.headers['retry-after'], String(a.body.retryAfter));
  assert.match(String(a.headers['content-type']), /^application\/json/);
}

/** API.md §5 (second version): upgrades count against the rate limits; at most 100 open sockets per token. */
forEachStore('realtime upgrade limits', (kind) => {
  const limited = useServer(kind, { env: { RATE_LIMIT_PER_IP: '20', RATE_LIMIT_PER_KEY: '15' } });
  const roomy = useServer(kind);

  test('upgrades with a valid token count against the key: past its limit the upgrade is refused with 429', async () => {
    const { server } = limited;
    const op = await server.operatorToken();
    const k = await request(server, 'POST', `/admin/databases/${limited.db.databaseId}/keys`, { key: op, body: { kind: 'public' } });
    const url = await tokenUrl(server, (k.json as { key: string }).key); // the key's first request of the minute
    const answers: UpgradeAnswer[] = [];
    for (let i = 0; i < 15; i += 1) answers.push(await upgrade(url));
    assert.deepEqual(
      answers.map((a) => a.status),
      [...Array(14).fill(101), 429],
    );
    assertRateLimited(answers[14]);
    assert.equal(answers[14].headers['x-ratelimit-limit'], '15');
    assert.equal(answers[0].headers['x-ratelimit-remaining'], '13', 'the 101 answer carries the X-RateLimit-* headers too');
    for (const a of answers) a.end();
  });

  // Last on this server: it uses up the client IP's budget for the minute.
  test('a flood of upgrades with bad tokens is counted per IP: 401s, then 429 in the error shape', async () => {
    const { server } = limited;
    const bad = `${server.url.replace(/^http/, 'ws')}/v1/realtime?token=rt_${'a'.repeat(43)}`;
    const answers: UpgradeAnswer[] = [];
    for (let i = 0; i < 30; i += 1) answers.push(await upgrade(i % 2 ? bad : `${bad}x`));
    const statuses = answers.map((a) => a.status);
    const firstLimited = statuses.indexOf(429);
    assert.ok(firstLimited > 0, `some 401s, then 429s: ${statuses}`);
    assert.deepEqual(statuses.slice(firstLimited), Array(30 - firstLimited).fill(429), `${statuses}`);
    assert.deepEqual(new Set(statuses.slice(0, firstLimited)), new Set([401]));
    assert.equal(answers[0].body?.error?.code, 'invalid_token');
    assertRateLimited(answers[firstLimited]);
    assert.equal(answers[firstLimited].headers['x-ratelimit-limit'], '20');
  });

  test('at most 100 open sockets per realtime token: the 101st is refused with 429; a closed one frees its place', async () => {
    const { server, db } = roomy;
    const url = await tokenUrl(server, db.secretKey);
    const open: UpgradeAnswer[] = [];
    for (let i = 0; i < 100; i += 1) {
      const a = await upgrade(url);
      assert.equal(a.status, 101, `socket ${i + 1}: ${JSON.stringify(a.body)}`);
      open.push(a);
    }
    const refused = await upgrade(url);
    assertRateLimited(refused, /100 open sockets/);
    const other = await upgrade(await tokenUrl(server, db.secretKey));
    assert.equal(other.status, 101, 'the cap is per token: another token of the same key opens');
    other.end();
    open.pop()!.end();
    let again = await upgrade(url);
    for (let i = 0; again.status === 429 && i < 100; i += 1) {
      await new Promise((r) => setTimeout(r, 50)); // the server hears the close a moment later
      again = await upgrade(url);
    }
    assert.equal(again.status, 101);
    again.end();
    for (const a of open) a.end();
  });

  test('a token lookup that fails (store error) refuses the upgrade with 503 unavailable, never a 400 internal', async () => {
    const { server, db } = roomy;
    const url = await tokenUrl(server, db.secretKey);
    await server.db.store.run('ALTER TABLE realtime_tokens RENAME TO realtime_tokens_away');
    let answer: UpgradeAnswer;
    try {
      answer = await upgrade(url);
    } finally {
      await server.db.store.run('ALTER TABLE realtime_tokens_away RENAME TO realtime_tokens');
    }
    assert.equal(answer.status, 503, JSON.stringify(answer.body));
    assert.equal(answer.body?.error?.code, 'unavailable');
    assert.ok(Number(answer.headers['retry-after']) > 0);
    const back = await upgrade(url);
    assert.equal(back.status, 101, 'the store answers again: so does the upgrade');
    back.end();
  });
});
