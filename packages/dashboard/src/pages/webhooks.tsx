import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import type { Database, DeliveryDetail, DeliveryPage, NewWebhook, RotatedSecret, Webhook, WebhookBody, WebhookList, WebhookPatch } from '../types.ts';
import { navigate } from '../router.ts';
import { Confirm, Dialog, ErrorText, Link, Loaded, Pager, SecretOnce, useAction, useLoad, useToast, When } from '../ui.tsx';

type EventName = NonNullable<WebhookBody['events']>[number];
const EVENTS: EventName[] = ['document.created', 'document.updated', 'document.deleted'];
type Form = { url: string; events: EventName[]; collections: string; description: string };
// A webhook reads back its events as plain strings; the form knows only the names it can send.
const isEventName = (e: string): e is EventName => e === '*' || (EVENTS as string[]).includes(e);

const toForm = (w?: Webhook): Form => ({
  url: w?.url ?? '',
  events: (w?.events ?? ['*']).filter(isEventName),
  collections: (w?.collections ?? []).join(', '),
  description: w?.description ?? '',
});
const toBody = (f: Form): WebhookBody => ({
  url: f.url.trim(),
  events: f.events.length ? f.events : ['*'],
  collections: f.collections.split(/[\s,]+/).filter(Boolean),
  description: f.description.trim() || null,
});

/** A database's webhooks; creating one shows its signing secret once. */
export function WebhooksPage({ db }: { db: Database }) {
  const list = useLoad(() => api<WebhookList>('GET', '/webhooks', { databaseId: db.id }).then((r) => r.webhooks), [db.id]);
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<{ id: string; secret: string }>();
  const base = `/databases/${encodeURIComponent(db.id)}/webhooks`;
  return (
    <div class="page">
      <div class="page-head">
        <h1>Webhooks</h1>
        <button type="button" class="primary" onClick={() => setCreating(true)}>
          New webhook
        </button>
      </div>
      <Loaded load={list} what="Loading webhooks" empty={<p>No webhooks. A webhook POSTs every document change to your URL, signed with its secret.</p>}>
        {(webhooks) => (
          <div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th>URL</th>
                  <th>Events</th>
                  <th>Collections</th>
                  <th>Status</th>
                  <th>Created</th>
                </tr>
              </thead>
              <tbody>
                {webhooks.map((w) => (
                  <tr key={w.id}>
                    <td>
                      <Link href={`${base}/${encodeURIComponent(w.id)}`}>{w.url}</Link>
                      {w.description && <div class="muted small">{w.description}</div>}
                    </td>
                    <td>{w.events.join(', ')}</td>
                    <td>{w.collections.length ? w.collections.join(', ') : <span class="muted">all</span>}</td>
                    <td>
                      <EnabledBadge w={w} />
                    </td>
                    <td>
                      <When at={w.createdAt} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Loaded>
      {creating && (
        <WebhookForm
          title="New webhook"
          initial={toForm()}
          action="Create webhook"
          onClose={() => setCreating(false)}
          onSubmit={async (f) => {
            const created = await api<NewWebhook>('POST', '/webhooks', { databaseId: db.id, body: toBody(f) });
            setCreating(false);
            setSecret({ id: created.id, secret: created.secret });
            list.reload();
          }}
        />
      )}
      {secret && (
        <Dialog title="Webhook created" onClose={() => setSecret(undefined)}>
          <p>
            Verify each delivery with this secret: <code>X-Service-Signature</code> is the HMAC-SHA256 of the body keyed with it.
          </p>
          <SecretOnce label="Signing secret" value={secret.secret} kept="webhookSecret" />
          <div class="actions">
            <button
              type="button"
              class="primary"
              onClick={() => {
                const id = secret.id;
                setSecret(undefined);
                navigate(`${base}/${encodeURIComponent(id)}`);
              }}
            >
              I've copied it
            </button>
          </div>
        </Dialog>
      )}
    </div>
  );
}

function EnabledBadge({ w }: { w: Webhook }) {
  if (w.enabled) return <span class="badge succeeded">enabled</span>;
  return (
    <span class="badge failed" title={w.disabledReason ?? undefined}>
      disabled{w.disabledReason ? ' (by the service)' : ''}
    </span>
  );
}

function WebhookForm({
  title,
  initial,
  action,
  onSubmit,
  onClose,
}: {
  title: string;
  initial: Form;
  action: string;
  onSubmit: (f: Form) => Promise<void>;
  onClose: () => void;
}) {
  const [f, setF] = useState(initial);
  const act = useAction();
  const all = f.events.includes('*');
  const toggle = (e: EventName) =>
    setF({ ...f, events: all ? EVENTS.filter((x) => x !== e) : f.events.includes(e) ? f.events.filter((x) => x !== e) : [...f.events, e] });
  return (
    <Dialog title={title} onClose={onClose}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void act.run(() => onSubmit(f));
        }}
      >
        <label>
          URL
          <input
            type="url"
            name="url"
            required
            value={f.url}
            onInput={(e) => setF({ ...f, url: e.currentTarget.value })}
            placeholder="https://example.com/hooks/svc"
            autoFocus
          />
        </label>
        <fieldset>
          <legend>Events</legend>
          <label class="inline">
            <input type="checkbox" checked={all} onChange={() => setF({ ...f, events: all ? [...EVENTS] : ['*'] })} /> every event (<code>*</code>)
          </label>
          {EVENTS.map((e) => (
            <label class="inline" key={e}>
              <input type="checkbox" checked={all || f.events.includes(e)} onChange={() => toggle(e)} /> {e}
            </label>
          ))}
        </fieldset>
        <label>
          Collections <span class="muted">(comma-separated; empty = every collection)</span>
          <input name="collections" value={f.collections} onInput={(e) => setF({ ...f, collections: e.currentTarget.value })} placeholder="posts, comments" />
        </label>
        <label>
          Description <span class="muted">(optional)</span>
          <input name="description" maxLength={1000} value={f.description} onInput={(e) => setF({ ...f, description: e.currentTarget.value })} />
        </label>
        <ErrorText error={act.error} />
        <div class="actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" class="primary" disabled={act.busy}>
            {act.busy ? 'Saving…' : action}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** One webhook: edit, enable/disable, rotate, test, deliveries with their attempt log, retry. */
export function WebhookPage({ db, webhookId }: { db: Database; webhookId: string }) {
  const path = `/webhooks/${encodeURIComponent(webhookId)}`;
  const hook = useLoad(() => api<Webhook>('GET', path, { databaseId: db.id }), [db.id, webhookId]);
  const back = `/databases/${encodeURIComponent(db.id)}/webhooks`;
  return (
    <div class="page">
      <p>
        <Link href={back}>‹ Webhooks</Link>
      </p>
      <Loaded load={hook} what="Loading webhook">
        {(w) => <WebhookDetail db={db} w={w} path={path} back={back} onChanged={hook.reload} />}
      </Loaded>
    </div>
  );
}

function WebhookDetail({ db, w, path, back, onChanged }: { db: Database; w: Webhook; path: string; back: string; onChanged: () => void }) {
  const [status, setStatus] = useState('');
  const [offset, setOffset] = useState(0);
  const limit = 20;
  const deliveries = useLoad(
    () => api<DeliveryPage>('GET', `${path}/deliveries`, { databaseId: db.id, query: { limit, offset, status } }),
    [db.id, path, status, offset],
  );
  const [editing, setEditing] = useState(false);
  const [rotating, setRotating] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [secret, setSecret] = useState<string>();
  const [open, setOpen] = useState<string>();
  const act = useAction();
  const toast = useToast();
  const patch = (body: WebhookPatch) => api<Webhook>('PATCH', path, { databaseId: db.id, body }).then(onChanged);

  return (
    <>
      <div class="page-head">
        <h1 class="break">{w.url}</h1>
        <EnabledBadge w={w} />
      </div>
      <dl class="meta">
        <dt>Events</dt>
        <dd>{w.events.join(', ')}</dd>
        <dt>Collections</dt>
        <dd>{w.collections.length ? w.collections.join(', ') : 'all'}</dd>
        <dt>Description</dt>
        <dd>{w.description ?? '—'}</dd>
        {w.disabledReason && (
          <>
            <dt>Disabled because</dt>
            <dd>{w.disabledReason}</dd>
          </>
        )}
        <dt>Id</dt>
        <dd class="mono">{w.id}</dd>
        <dt>Created</dt>
        <dd>
          <When at={w.createdAt} />
        </dd>
      </dl>
      <div class="toolbar">
        <button type="button" onClick={() => setEditing(true)}>
          Edit
        </button>
        <button
          type="button"
          disabled={act.busy}
          onClick={() =>
            act.run(async () => {
              await patch({ enabled: !w.enabled });
              toast.toast(w.enabled ? 'Disabled.' : 'Enabled.');
            })
          }
        >
          {w.enabled ? 'Disable' : 'Enable'}
        </button>
        <button
          type="button"
          disabled={act.busy}
          onClick={() =>
            act.run(async () => {
              await api('POST', `${path}/test`, { databaseId: db.id });
              toast.toast('Test event queued.');
              setStatus('');
              setOffset(0);
              deliveries.reload();
            })
          }
        >
          Send test event
        </button>
        <button type="button" onClick={() => setRotating(true)}>
          Rotate secret
        </button>
        <button type="button" class="danger" onClick={() => setDeleting(true)}>
          Delete
        </button>
      </div>
      <ErrorText error={act.error} />

      <div class="page-head">
        <h2>Deliveries</h2>
        <div class="row">
          <label class="inline">
            Status
            <select
              value={status}
              onChange={(e) => {
                setStatus(e.currentTarget.value);
                setOffset(0);
              }}
            >
              <option value="">all</option>
              <option value="pending">pending</option>
              <option value="succeeded">succeeded</option>
              <option value="failed">failed</option>
            </select>
          </label>
          <button type="button" onClick={deliveries.reload}>
            Refresh
          </button>
        </div>
      </div>
      <Loaded
        load={deliveries}
        what="Loading deliveries"
        isEmpty={(p) => p.deliveries.length === 0}
        empty={<p>No deliveries{status ? ` with status ${status}` : ''} yet. Change a document, or send a test event.</p>}
      >
        {(page) => (
          <>
            <div class="table-wrap" aria-busy={deliveries.loading}>
              <table>
                <thead>
                  <tr>
                    <th>Event</th>
                    <th>Status</th>
                    <th>Attempts</th>
                    <th>Last answer</th>
                    <th>Created</th>
                    <th>Next attempt</th>
                    <th>
                      <span class="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {page.deliveries.map((d) => (
                    <tr key={d.id}>
                      <td>
                        {d.event} <span class="muted small">#{d.eventId}</span>
                      </td>
                      <td>
                        <span class={`badge ${d.status}`}>{d.status}</span>
                      </td>
                      <td>{d.attempts}</td>
                      <td>{d.responseStatus ?? <span class="muted">—</span>}</td>
                      <td>
                        <When at={d.createdAt} />
                      </td>
                      <td>
                        <When at={d.status === 'pending' ? d.nextAttemptAt : null} />
                      </td>
                      <td class="row-actions">
                        <button type="button" onClick={() => setOpen(d.id)} aria-label={`Attempts of delivery ${d.id}`}>
                          Attempts
                        </button>
                        <RetryButton
                          db={db}
                          path={`${path}/deliveries/${encodeURIComponent(d.id)}`}
                          disabled={d.status === 'pending'}
                          onDone={() => {
                            toast.toast('Retry queued.');
                            deliveries.reload();
                          }}
                        />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager offset={offset} limit={limit} total={page.total} onPage={setOffset} />
          </>
        )}
      </Loaded>

      {editing && (
        <WebhookForm
          title="Edit webhook"
          initial={toForm(w)}
          action="Save"
          onClose={() => setEditing(false)}
          onSubmit={async (f) => {
            await patch(toBody(f));
            setEditing(false);
            toast.toast('Saved.');
          }}
        />
      )}
      {rotating && (
        <Confirm
          title="Rotate secret"
          action="Rotate"
          onClose={() => setRotating(false)}
          onConfirm={async () => {
            setSecret((await api<RotatedSecret>('POST', `${path}/rotate-secret`, { databaseId: db.id })).secret);
          }}
        >
          <p>A new secret signs every delivery from now on; the old one stops working at once. Update your receiver right after.</p>
        </Confirm>
      )}
      {secret && (
        <Dialog title="New signing secret" onClose={() => setSecret(undefined)}>
          <SecretOnce label="Signing secret" value={secret} kept="webhookSecret" />
          <div class="actions">
            <button type="button" class="primary" onClick={() => setSecret(undefined)}>
              I've copied it
            </button>
          </div>
        </Dialog>
      )}
      {deleting && (
        <Confirm
          title="Delete webhook"
          action="Delete"
          danger
          onClose={() => setDeleting(false)}
          onConfirm={async () => {
            await api('DELETE', path, { databaseId: db.id });
            navigate(back);
          }}
        >
          <p>
            Delete the webhook to <strong class="break">{w.url}</strong> and its delivery history?
          </p>
        </Confirm>
      )}
      {open && (
        <DeliveryDialog db={db} path={`${path}/deliveries/${encodeURIComponent(open)}`} onClose={() => setOpen(undefined)} onRetried={deliveries.reload} />
      )}
      {toast.view}
    </>
  );
}

function RetryButton({ db, path, disabled, onDone }: { db: Database; path: string; disabled: boolean; onDone: () => void }) {
  const act = useAction();
  return (
    <>
      <button
        type="button"
        disabled={disabled || act.busy}
        title={disabled ? 'Still pending' : undefined}
        onClick={() =>
          act.run(async () => {
            await api('POST', `${path}/retry`, { databaseId: db.id });
            onDone();
          })
        }
      >
        Retry
      </button>
      {act.error && (
        <span class="error small" role="alert">
          {act.error}
        </span>
      )}
    </>
  );
}

function DeliveryDialog({ db, path, onClose, onRetried }: { db: Database; path: string; onClose: () => void; onRetried: () => void }) {
  const d = useLoad(() => api<DeliveryDetail>('GET', path, { databaseId: db.id }), [path]);
  return (
    <Dialog title="Delivery" onClose={onClose} wide>
      <Loaded load={d}>
        {(delivery) => (
          <>
            <dl class="meta">
              <dt>Id</dt>
              <dd class="mono">{delivery.id}</dd>
              <dt>Event</dt>
              <dd>
                {delivery.event} #{delivery.eventId}
              </dd>
              <dt>Status</dt>
              <dd>
                <span class={`badge ${delivery.status}`}>{delivery.status}</span> after {delivery.attempts} attempt{delivery.attempts === 1 ? '' : 's'}
              </dd>
              {delivery.status === 'pending' && (
                <>
                  <dt>Next attempt</dt>
                  <dd>{delivery.nextAttemptAt ?? 'now'}</dd>
                </>
              )}
            </dl>
            <h3>Attempt log</h3>
            {delivery.attemptLog?.length ? (
              <div class="table-wrap">
                <table>
                  <thead>
                    <tr>
                      <th>#</th>
                      <th>At</th>
                      <th>Answer</th>
                      <th>Time</th>
                      <th>Error / response body</th>
                    </tr>
                  </thead>
                  <tbody>
                    {delivery.attemptLog.map((a, i) => (
                      <tr key={i}>
                        <td>{i + 1}</td>
                        <td>{a.at}</td>
                        <td>{a.responseStatus ?? '—'}</td>
                        <td>{a.durationMs} ms</td>
                        <td>
                          {a.error && <div class="error small">{a.error}</div>}
                          {a.responseBody && <pre class="body">{a.responseBody}</pre>}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            ) : (
              <p class="muted">No attempt yet.</p>
            )}
            <div class="actions">
              <button type="button" onClick={d.reload}>
                Refresh
              </button>
              <RetryButton
                db={db}
                path={path}
                disabled={delivery.status === 'pending'}
                onDone={() => {
                  d.reload();
                  onRetried();
                }}
              />
              <button type="button" class="primary" onClick={onClose}>
                Close
              </button>
            </div>
          </>
        )}
      </Loaded>
    </Dialog>
  );
}
