import { SvcError } from './errors.js';

/** The part of the WebSocket API the SDK uses: the browser's, Node ≥ 22's and the `ws` package's all fit. */
export interface WebSocketLike {
  readonly readyState: number;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: { code: number; reason: string }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

/** A WebSocket class: `globalThis.WebSocket`, or `ws`'s default export in Node. */
export type WebSocketConstructor = new (url: string) => WebSocketLike;

type Runtime = { WebSocket?: unknown; process?: { versions?: { node?: string } } };

/**
 * The WebSocket class to use: the caller's, else the platform's, else (Node 20 only) the `ws`
 * package loaded on demand. The specifier is a variable so that bundlers never pull `ws` into a
 * browser build.
 */
export async function resolveWebSocket(given: WebSocketConstructor | undefined): Promise<WebSocketConstructor> {
  if (given) return given;
  const g = globalThis as Runtime;
  if (typeof g.WebSocket === 'function') return g.WebSocket as WebSocketConstructor;
  if (g.process?.versions?.node) {
    const specifier = 'ws';
    try {
      const mod = (await import(/* @vite-ignore */ /* webpackIgnore: true */ specifier)) as { default?: unknown; WebSocket?: unknown };
      return (mod.WebSocket ?? mod.default) as WebSocketConstructor;
    } catch (e) {
      throw new SvcError({
        status: 0,
        code: 'websocket_unavailable',
        message: 'This Node has no WebSocket: npm install ws (or pass createClient({ WebSocket }))',
        cause: e,
      });
    }
  }
  throw new SvcError({ status: 0, code: 'websocket_unavailable', message: 'No WebSocket implementation: pass createClient({ WebSocket })' });
}

/** The text of a message event (`ws` may hand over a Buffer for text frames in old versions). */
export function messageText(data: unknown): string {
  if (typeof data === 'string') return data;
  if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) return new TextDecoder().decode(data as ArrayBuffer);
  return String(data);
}
