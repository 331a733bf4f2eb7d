import { request as httpRequest } from 'node:http';
import { randomBytes } from 'node:crypto';

/** What the server answered to a WebSocket upgrade: 101, or a refusal with its headers and §0 body. */
export interface UpgradeAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
  /** Ends the socket of an accepted upgrade. */
  end(): void;
}

/** Sends one WebSocket upgrade request and reads the answer, whatever it is (the ws client hides refused bodies). */
export function upgrade(url: string): Promise<UpgradeAnswer> {
  const u = new URL(url.replace(/^ws/, 'http'));
  return new Promise((resolve, reject) => {
    const req = httpRequest({
      host: u.hostname,
      port: Number(u.port),
      path: `${u.pathname}${u.search}`,
      agent: false,
      headers: { Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Key': randomBytes(16).toString('base64'), 'Sec-WebSocket-Version': '13' },
    });
    req.once('error', reject);
    req.once('upgrade', (res, socket) => {
      socket.on('error', () => undefined);
      resolve({ status: res.statusCode ?? 0, headers: res.headers, body: undefined, end: () => socket.destroy() });
    });
    req.once('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        text += d;
      });
      res.once('end', () => {
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          body = text;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, end: () => undefined });
      });
    });
    req.end();
  });
}

/** The close code of a socket the server is expected to close; fails (instead of hanging) if it stays open for `ms`. */
export async function closeCode(closed: Promise<{ code: number }>, ms = 15_000): Promise<number> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the socket was still open after ${ms} ms`)), ms);
  });
  try {
    return (await Promise.race([closed, timeout])).code;
  } finally {
    clearTimeout(timer);
  }
}
