import WebSocket from 'ws';

/** A test WebSocket client that records every JSON message. */
export interface WsClient {
  ws: WebSocket;
  messages: Array<Record<string, any>>;
  events(): Array<Record<string, any>>;
  /** Resolves with the messages matching `pred` once there are at least `n`. */
  waitFor(pred: (m: Record<string, any>) => boolean, n?: number, ms?: number): Promise<Array<Record<string, any>>>;
  closed: Promise<{ code: number; reason: string }>;
  close(): Promise<void>;
}

/** Opens a socket; rejects with `statusCode` set when the upgrade is refused. */
export function openWs(url: string): Promise<WsClient> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    const messages: Array<Record<string, any>> = [];
    ws.on('message', (data) => messages.push(JSON.parse(data.toString())));
    const closed = new Promise<{ code: number; reason: string }>((r) => ws.on('close', (code, reason) => r({ code, reason: reason.toString() })));
    ws.once('unexpected-response', (_req, res) => {
      res.resume();
      reject(Object.assign(new Error(`upgrade refused: ${res.statusCode}`), { statusCode: res.statusCode }));
    });
    ws.once('error', reject);
    ws.once('open', () => {
      ws.on('error', () => undefined);
      resolve({
        ws,
        messages,
        closed,
        events: () => messages.filter((m) => m.type === 'event'),
        async waitFor(pred, n = 1, ms = 10_000) {
          const deadline = Date.now() + ms;
          for (;;) {
            const got = messages.filter(pred);
            if (got.length >= n) return got;
            if (Date.now() > deadline) throw new Error(`timed out waiting for ${n} message(s); got ${JSON.stringify(messages).slice(0, 1500)}`);
            await new Promise((r) => setTimeout(r, 10));
          }
        },
        async close() {
          if (ws.readyState === WebSocket.CLOSED) return;
          ws.close();
          await Promise.race([closed, new Promise((r) => setTimeout(r, 1000))]);
          ws.terminate();
        },
      });
    });
  });
}
