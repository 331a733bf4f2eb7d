import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { once } from 'node:events';
import { forEachStore } from '../helpers/stores.ts';
import { startServer, useServer } from '../helpers/server.ts';

/** One response read off a raw socket. */
interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Splits the responses a server wrote on one connection (Content-Length framing; no chunked error answers). */
function parseResponses(raw: string): RawResponse[] {
  const out: RawResponse[] = [];
  let rest = raw;
  while (rest.startsWith('HTTP/')) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) break;
    const [statusLine, ...lines] = rest.slice(0, end).split('\r\n');
    const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
    const length = Number(headers['content-length'] ?? 0);
    const bodyBytes = Buffer.from(rest.slice(end + 4));
    out.push({ status: Number(statusLine.split(' ')[1]), headers, body: bodyBytes.subarray(0, length).toString() });
    rest = bodyBytes.subarray(length).toString();
  }
  return out;
}

/** Opens a socket to the server. */
async function open(url: string): Promise<Socket> {
  const u = new URL(url);
  const socket = connect(Number(u.port), u.hostname);
  await once(socket, 'connect');
  return socket;
}

/** Everything the server writes until it closes the connection. */
function readAll(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let data = '';
    socket.on('data', (d) => {
      data += d.toString('latin1');
    });
    socket.on('close', () => resolve(data));
    socket.on('error', () => undefined);
  });
}

/** Sends raw bytes on a new connection and returns the responses written before the server closed it. */
async function rawRequest(url: string, bytes: string): Promise<RawResponse[]> {
  const socket = await open(url);
  const all = readAll(socket);
  socket.write(bytes);
  return parseResponses(await all);
}

/** The §0 shape: a JSON body `{"error": {"code", "message"}}`. */
function assertErrorShape(r: RawResponse | undefined, status: number, code: string, what: string): void {
  assert.ok(r, `${what}: no response`);
  assert.equal(r.status, status, `${what}: ${r.body}`);
  assert.match(r.headers['content-type'] ?? '', /^application\/json/, what);
  const body = JSON.parse(r.body) as { error: { code: string; message: string } };
  assert.equal(body.error.code, code, what);
  assert.equal(typeof body.error.message, 'string', what);
  assert.ok(body.error.message.length > 0, what);
}

const KIB = 1024;

forEachStore('errors raised by the HTTP layer itself', (kind) => {
  const t = useServer(kind);

  test('request headers over 16 KiB in all → 431 in the error shape; just under is served', async () => {
    const big = await rawRequest(t.server.url, `GET /health HTTP/1.1\r\nHost: x\r\nX-A: ${'a'.repeat(9 * KIB)}\r\nX-B: ${'b'.repeat(8 * KIB)}\r\n\r\n`);
    assertErrorShape(big[0], 431, 'headers_too_large', 'two headers of 17 KiB together');
    const ok = await rawRequest(t.server.url, `GET /health HTTP/1.1\r\nHost: x\r\nX-A: ${'a'.repeat(15 * KIB)}\r\nConnection: close\r\n\r\n`);
    assert.equal(ok[0]?.status, 200);
  });

  test('malformed framing and unreadable requests → 400 bad_request in the error shape', async () => {
    const cases: Record<string, string> = {
      'not HTTP at all': 'HELLO THERE\r\n\r\n',
      'an unknown method': 'BREW /health HTTP/1.1\r\nHost: x\r\n\r\n',
      'a Content-Length that is not a number': 'POST /v1/posts/docs HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n',
      'Content-Length and Transfer-Encoding together':
        'POST /v1/posts/docs HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      'a bad chunk size': 'POST /v1/posts/docs HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
      'HTTP/1.1 without Host': 'GET /health HTTP/1.1\r\nConnection: close\r\n\r\n',
      'a URL that is not validly percent-encoded': 'GET /v1/posts/docs/%zz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      'a page path that is not validly percent-encoded': 'GET /%zz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    };
    for (const [what, bytes] of Object.entries(cases)) assertErrorShape((await rawRequest(t.server.url, bytes))[0], 400, 'bad_request', what);
    const http10 = await rawRequest(t.server.url, 'GET /health HTTP/1.0\r\n\r\n');
    assert.equal(http10[0]?.status, 200, 'HTTP/1.0 needs no Host');
  });

  test('unknown methods and routes → 404 in the shape; OPTIONS without Origin → 204; an unknown Expect is ignored', async () => {
    // (PUT on /v1/posts/docs is a 405 with Allow: test/http/teaching-errors.test.ts)
    for (const line of ['PUT /v1/posts', 'PROPFIND /v1/posts/docs', 'DELETE /health']) {
      assertErrorShape((await rawRequest(t.server.url, `${line} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`))[0], 404, 'not_found', line);
    }
    const options = await rawRequest(t.server.url, 'OPTIONS /v1/posts/docs HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    assert.equal(options[0]?.status, 204, options[0]?.body);
    const expect = await rawRequest(t.server.url, 'GET /health HTTP/1.1\r\nHost: x\r\nExpect: something-else\r\nConnection: close\r\n\r\n');
    assert.equal(expect[0]?.status, 200);
    assert.deepEqual(JSON.parse(expect[0].body), { status: 'ok' });
  });
});

forEachStore('shutting down', (kind) => {
  test('a request that arrives on a kept-alive connection while the server closes → 503 unavailable in the shape', async () => {
    const server = await startServer(kind);
    try {
      const socket = await open(server.url);
      const all = readAll(socket);
      // A request whose body is still coming keeps the connection busy, so closing waits for it.
      const received = once(server.app.server, 'request');
      const body = '{"email":"nobody@example.com","password":"whatever-1"}';
      socket.write(
        `POST /v1/admin/sign-in HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
      );
      await received;
      const closed = server.app.close();
      socket.write(`${body.slice(10)}GET /health HTTP/1.1\r\nHost: x\r\n\r\n`);
      const responses = parseResponses(await all);
      await closed;
      assert.equal(responses.length, 2, JSON.stringify(responses));
      assertErrorShape(responses[0], 401, 'invalid_credentials', 'the request in flight is answered');
      assertErrorShape(responses[1], 503, 'unavailable', 'the request after closing began');
      assert.equal(responses[1].headers['retry-after'], '1');
    } finally {
      await server.close();
    }
  });
});
