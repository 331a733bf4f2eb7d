/**
 * The bare baseline of the realtime scenario: a node:http server with a `ws` WebSocketServer and
 * nothing else (no tokens, store, feed, replay or backpressure checks). Every connection at
 * /v1/realtime gets a `ready` message; `POST /broadcast {count}` sends `count` messages shaped like
 * svc's `event` messages (~300 bytes, each serialised once) to every client, then answers 201.
 * For the rules scenario a client may connect with `?user=<id>`, and `POST /broadcast {owner}` then
 * sends only to that user's clients (looked up in a Map: the least a server can do to route per user).
 * Run by bench/ in its own process: `PORT=<port> node --import tsx bench/baseline/bare-ws.ts`.
 */
import http from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';

let seq = 0;
const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
/** Clients that connected with `?user=`, per user. */
const byUser = new Map<string, Set<WebSocket>>();
const server = http.createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/health') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
  if (req.method === 'POST' && req.url === '/broadcast') {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const {
        count = 1,
        document = {},
        owner,
      } = JSON.parse(Buffer.concat(chunks).toString() || '{}') as { count?: number; document?: Record<string, unknown>; owner?: string };
      const to = owner === undefined ? wss.clients : (byUser.get(owner) ?? new Set<WebSocket>());
      for (let k = 0; k < count; k++) {
        const id = String(++seq);
        const timestamp = new Date().toISOString();
        const message = JSON.stringify({
          type: 'event',
          id,
          event: 'document.created',
          collection: 'rt',
          document: { id: `doc-${id}`, ...document, createdAt: timestamp, updatedAt: timestamp },
          timestamp,
        });
        for (const ws of to) ws.send(message);
      }
      res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ sent: count, clients: wss.clients.size }));
    });
    return;
  }
  res.writeHead(404).end();
});
server.on('upgrade', (req, socket, head) => {
  socket.on('error', () => undefined);
  const user = new URL(req.url ?? '/', 'http://bare').searchParams.get('user');
  wss.handleUpgrade(req, socket, head, (ws) => {
    ws.on('error', () => undefined);
    if (user !== null) {
      const mine = byUser.get(user) ?? new Set<WebSocket>();
      byUser.set(user, mine.add(ws));
      ws.on('close', () => mine.delete(ws));
    }
    ws.send(JSON.stringify({ type: 'ready', collections: ['rt'] }));
  });
});
server.listen(Number(process.env.PORT ?? 8798), process.env.HOST ?? '127.0.0.1');
const stop = () => {
  for (const ws of wss.clients) ws.terminate();
  server.close(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
