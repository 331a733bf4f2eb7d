import assert from 'node:assert/strict';
import { request } from '../helpers/server.ts';
import { openWs, type WsClient } from '../helpers/ws.ts';

type Server = { base: string; url: string };

/** The collection every rules test makes readable by anyone: its events mark "everything before has arrived". */
export const MARKS = 'marks';

/** Sets a database's rules with its secret key (API.md §10 PUT /rules), asserting 200. */
export async function putRules(server: Server, secretKey: string, rules: object): Promise<void> {
  const r = await request(server, 'PUT', '/rules', { key: secretKey, body: { rules } });
  assert.equal(r.status, 200, r.text);
}

/** A realtime URL for a key and, when given, a user session (X-Session-Token). */
export async function tokenUrl(server: Server, key: string, collections: string[], session?: string): Promise<string> {
  const r = await request(server, 'POST', '/realtime/token', { key, body: { collections }, headers: session ? { 'x-session-token': session } : {} });
  assert.equal(r.status, 201, r.text);
  return (r.json as { url: string }).url;
}

/** An open socket past its `ready`. */
export async function watch(url: string): Promise<WsClient> {
  const c = await openWs(url);
  await c.waitFor((m) => m.type === 'ready');
  return c;
}

/** Writes a document with the secret key (rules don't apply to it), asserting 201. */
export async function insert(server: Server, secretKey: string, collection: string, body: object): Promise<{ id: string }> {
  const r = await request(server, 'POST', `/${collection}/docs`, { key: secretKey, body });
  assert.equal(r.status, 201, r.text);
  return r.json as { id: string };
}

/**
 * Writes a document to MARKS and waits until every socket received it. Events arrive in id
 * order, so once a socket has the mark it has every earlier event it was going to get: what it
 * did not get by then it never will. Resolves with each socket's events before the mark (marks left out).
 */
export async function settle(server: Server, secretKey: string, sockets: WsClient[]): Promise<Array<Array<Record<string, any>>>> {
  const mark = await insert(server, secretKey, MARKS, { mark: true });
  return Promise.all(
    sockets.map(async (s) => {
      await s.waitFor((m) => m.type === 'event' && m.document?.id === mark.id);
      return s.events().filter((e) => e.collection !== MARKS);
    }),
  );
}

/** An event as `[type, document id]`, for comparing sequences. */
export const brief = (e: Record<string, any>): [string, string] => [e.event, e.document.id];
