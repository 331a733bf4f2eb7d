import { useEffect, useRef, useState } from 'preact/hooks';
import { api, describeError } from '../api.ts';
import type { CollectionList, Database, Doc, RealtimeToken } from '../types.ts';
import { ErrorText, Loaded, useLoad } from '../ui.tsx';

/** An event message of the realtime WebSocket (API.md §3; sockets are not in the OpenAPI document). */
type LiveEvent = { type: 'event'; id: string; event: string; collection: string; document: Doc; timestamp: string };
type State = 'idle' | 'connecting' | 'live' | 'reconnecting';
const KEEP = 200;

/** Realtime events of chosen collections, through a realtime token and the WebSocket (API.md §3). */
export function LivePage({ db }: { db: Database }) {
  const collections = useLoad(() => api<CollectionList>('GET', '/collections', { databaseId: db.id }).then((r) => r.collections), [db.id]);
  const [chosen, setChosen] = useState<string[]>([]);
  const [extra, setExtra] = useState('');
  const [state, setState] = useState<State>('idle');
  const [events, setEvents] = useState<LiveEvent[]>([]);
  const [error, setError] = useState<string>();
  const conn = useRef<{ stop: () => void }>();

  useEffect(() => () => conn.current?.stop(), []);

  const names = [...new Set([...chosen, ...extra.split(/[\s,]+/).filter(Boolean)])];
  const start = async () => {
    setError(undefined);
    setState('connecting');
    let stopped = false;
    let socket: WebSocket | undefined;
    let after: string | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let token: RealtimeToken | undefined;
    const connect = async () => {
      try {
        if (!token || Date.parse(token.expiresAt) - Date.now() < 60_000) {
          token = await api<RealtimeToken>('POST', '/realtime/token', { databaseId: db.id, body: { collections: names } });
        }
      } catch (e) {
        setError(describeError(e));
        setState('idle');
        return;
      }
      if (stopped) return;
      socket = new WebSocket(token.url + (after ? `&after=${after}` : ''));
      socket.onmessage = (m) => {
        const msg = JSON.parse(String(m.data)) as { type: string; id?: string };
        if (msg.type === 'ready') setState('live');
        if (msg.type === 'event') {
          after = msg.id!;
          setEvents((list) => [msg as unknown as LiveEvent, ...list].slice(0, KEEP));
        }
      };
      socket.onclose = () => {
        if (stopped) return;
        // Resume after the last event seen: nothing is lost or shown twice.
        setState('reconnecting');
        retry = setTimeout(connect, 1500);
      };
    };
    conn.current = {
      stop: () => {
        stopped = true;
        clearTimeout(retry);
        socket?.close();
        setState('idle');
      },
    };
    await connect();
  };
  const stop = () => conn.current?.stop();

  return (
    <div class="page">
      <div class="page-head">
        <h1>Live</h1>
        <span class={`badge ${state === 'live' ? 'succeeded' : state === 'idle' ? '' : 'pending'}`} role="status">
          {state === 'live' ? `listening to ${names.join(', ')}` : state}
        </span>
      </div>
      <form
        class="card"
        onSubmit={(e) => {
          e.preventDefault();
          if (state === 'idle') void start();
          else stop();
        }}
      >
        <fieldset disabled={state !== 'idle'}>
          <legend>Collections to watch</legend>
          <Loaded load={collections} what="Loading collections">
            {(list) =>
              list.map((c) => (
                <label class="inline" key={c.name}>
                  <input
                    type="checkbox"
                    checked={chosen.includes(c.name)}
                    onChange={() => setChosen(chosen.includes(c.name) ? chosen.filter((x) => x !== c.name) : [...chosen, c.name])}
                  />{' '}
                  {c.name}
                </label>
              ))
            }
          </Loaded>
          <label>
            Other collections <span class="muted">(comma-separated, even ones with no document yet)</span>
            <input name="collections" value={extra} onInput={(e) => setExtra(e.currentTarget.value)} placeholder="posts, comments" />
          </label>
        </fieldset>
        <ErrorText error={error} />
        <div class="actions">
          {state === 'idle' ? (
            <button type="submit" class="primary" disabled={names.length === 0}>
              Start listening
            </button>
          ) : (
            <button type="submit">Stop</button>
          )}
          <button type="button" onClick={() => setEvents([])} disabled={events.length === 0}>
            Clear events
          </button>
        </div>
      </form>
      {events.length === 0 ? (
        <div class="empty">
          <p>
            {state === 'live'
              ? 'Waiting for changes… insert, update or delete a document in a watched collection.'
              : 'Pick collections and start listening to see changes as they happen.'}
          </p>
        </div>
      ) : (
        <ol class="events" aria-live="polite" aria-label="Events, newest first">
          {events.map((e) => (
            <li key={e.id} class="event">
              <div class="row between">
                <span>
                  <span class={`badge ${e.event.split('.')[1]}`}>{e.event}</span> <strong>{e.collection}</strong>{' '}
                  <span class="mono">{String(e.document.id)}</span>
                </span>
                <span class="muted small">
                  #{e.id} · {new Date(e.timestamp).toLocaleTimeString()}
                </span>
              </div>
              <pre class="body">{JSON.stringify(e.document, null, 2)}</pre>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
