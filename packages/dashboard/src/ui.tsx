import type { ComponentChildren, JSX } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { describeError } from './api.ts';
import { navigate } from './router.ts';

/** Loads data on mount and whenever `deps` change; `reload` runs it again. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): { data?: T; error?: string; loading: boolean; reload: () => void } {
  const [state, setState] = useState<{ data?: T; error?: string; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true, error: undefined }));
    load().then(
      (data) => live && setState({ data, loading: false }),
      (e) => live && setState({ error: describeError(e), loading: false }),
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, tick]);
  return { ...state, reload: useCallback(() => setTick((t) => t + 1), []) };
}

/** What `useLoad` gives: the data once loaded, the error in words, whether a load runs, and `reload`. */
export type LoadState<T> = ReturnType<typeof useLoad<T>>;

const nothingIn = (data: unknown) => Array.isArray(data) && data.length === 0;

/**
 * The states every loaded view repeats, in one place: the error in words, a spinner until the first
 * answer, `empty` when `isEmpty(data)` (by default: an empty list), else `children(data)`, which stays
 * on screen while a reload runs (pass `load.loading` to `aria-busy` to say so).
 */
export function Loaded<T>({
  load,
  what,
  empty,
  isEmpty = nothingIn,
  children,
}: {
  load: LoadState<T>;
  what?: string;
  empty?: ComponentChildren;
  isEmpty?: (data: T) => boolean;
  children: (data: T) => ComponentChildren;
}) {
  if (load.error) return <ErrorText error={load.error} />;
  if (load.data === undefined) return <Loading what={what} />;
  if (empty !== undefined && isEmpty(load.data)) return <Empty>{empty}</Empty>;
  return <>{children(load.data)}</>;
}

/** Runs an action, tracking whether it runs and what went wrong. */
export function useAction(): { busy: boolean; error?: string; run: (fn: () => Promise<void>) => Promise<boolean>; clear: () => void } {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const run = useCallback(async (fn: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await fn();
      return true;
    } catch (e) {
      setError(describeError(e));
      return false;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, run, clear: () => setError(undefined) };
}

/** A spinner with words, announced to screen readers. */
export function Loading({ what = 'Loading' }: { what?: string }) {
  return (
    <p class="muted loading" role="status">
      <span class="spinner" aria-hidden="true" />
      {what}…
    </p>
  );
}

/** An error in words, announced as an alert; nothing when there is none. */
export function ErrorText({ error }: { error?: string }) {
  return error ? (
    <p class="error" role="alert">
      {error}
    </p>
  ) : null;
}

/** The box a view shows when it has nothing to list. */
export function Empty({ children }: { children: ComponentChildren }) {
  return <div class="empty">{children}</div>;
}

/** A link that navigates inside the dashboard (modifier clicks still open a new tab). */
export function Link({ href, children, ...rest }: { href: string; children: ComponentChildren } & JSX.HTMLAttributes<HTMLAnchorElement>) {
  return (
    <a
      href={href}
      {...rest}
      onClick={(e) => {
        if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        navigate(href);
      }}
    >
      {children}
    </a>
  );
}

/** A modal dialog on the native <dialog>: focus moves in, Escape closes, focus returns after. */
export function Dialog({ title, onClose, children, wide }: { title: string; onClose: () => void; children: ComponentChildren; wide?: boolean }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current!;
    const before = document.activeElement as HTMLElement | null;
    d.showModal();
    return () => {
      if (d.open) d.close();
      before?.focus?.();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      class={wide ? 'wide' : ''}
      aria-label={title}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <header class="dialog-head">
        <h2>{title}</h2>
        <button type="button" class="icon" aria-label="Close" onClick={onClose}>
          ×
        </button>
      </header>
      {children}
    </dialog>
  );
}

/**
 * How the server keeps what `SecretOnce` shows, in words that must stay true (API.md §0, §4, §6):
 * API keys are stored as a hash and a hint, so the key itself can't be shown again; a webhook secret
 * is stored as it is, because the server signs every delivery with it, yet no route reads it back.
 */
const KEPT = {
  apiKey: "the server stores only a hash of it (and a hint to recognise it by), so it can't show it to you again.",
  webhookSecret:
    'the server stores it in clear, because it signs every delivery with it, but never shows it again: it is shown now so you can configure your receiver. Lost it? Rotate the secret to get a new one.',
} as const;

/** A value that is not a secret (a public key), shown any time: read-only field and copy button. */
export function CopyableValue({ label, value }: { label: string; value: string }) {
  const [copied, setCopied] = useState<string>();
  const input = useRef<HTMLInputElement>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('Copied.');
    } catch {
      input.current?.select();
      setCopied(document.execCommand('copy') ? 'Copied.' : 'Select the text and copy it with Ctrl+C.');
    }
  };
  return (
    <span class="row copyable">
      <input ref={input} class="mono public-value" readOnly value={value} aria-label={label} onFocus={(e) => e.currentTarget.select()} />
      <button type="button" onClick={copy} aria-label={`Copy ${label}`}>
        Copy
      </button>
      {copied && (
        <span class="muted" role="status">
          {copied}
        </span>
      )}
    </span>
  );
}

/** A secret shown once: read-only field, copy button and the warning, with how the server keeps it. */
export function SecretOnce({ label, value, kept }: { label: string; value: string; kept: keyof typeof KEPT }) {
  const [copied, setCopied] = useState<string>();
  const input = useRef<HTMLInputElement>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('Copied to the clipboard.');
    } catch {
      input.current?.select();
      setCopied(document.execCommand('copy') ? 'Copied to the clipboard.' : 'Select the text and copy it with Ctrl+C.');
    }
  };
  return (
    <div class="secret-once">
      <label>
        {label}
        <div class="row">
          <input ref={input} class="mono secret-value" readOnly value={value} onFocus={(e) => e.currentTarget.select()} />
          <button type="button" class="primary" onClick={copy}>
            Copy
          </button>
        </div>
      </label>
      <p class="warning" role="note">
        <strong>You won't see it again.</strong> Copy it now and keep it somewhere safe: {KEPT[kept]}
      </p>
      {copied && (
        <p class="muted" role="status">
          {copied}
        </p>
      )}
    </div>
  );
}

/** A confirmation that asks to type a name first (deleting things that can't come back). */
export function TypeToConfirm({
  title,
  name,
  what,
  action,
  onConfirm,
  onClose,
}: {
  title: string;
  name: string;
  what: ComponentChildren;
  action: string;
  onConfirm: () => Promise<void>;
  onClose: () => void;
}) {
  const [typed, setTyped] = useState('');
  const act = useAction();
  return (
    <Dialog title={title} onClose={onClose}>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          if (typed === name && (await act.run(onConfirm))) onClose();
        }}
      >
        <p>{what}</p>
        <label>
          Type <strong class="mono">{name}</strong> to confirm
          <input value={typed} onInput={(e) => setTyped(e.currentTarget.value)} autoFocus autoComplete="off" spellcheck={false} />
        </label>
        <ErrorText error={act.error} />
        <div class="actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" class="danger" disabled={typed !== name || act.busy}>
            {act.busy ? 'Working…' : action}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** A yes/no confirmation. */
export function Confirm({
  title,
  children,
  action,
  danger,
  onConfirm,
  onClose,
}: {
  title: string;
  children: ComponentChildren;
  action: string;
  danger?: boolean;
  onConfirm: () => Promise<void>;
  onClose: () => void;
}) {
  const act = useAction();
  return (
    <Dialog title={title} onClose={onClose}>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          if (await act.run(onConfirm)) onClose();
        }}
      >
        <div>{children}</div>
        <ErrorText error={act.error} />
        <div class="actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" class={danger ? 'danger' : 'primary'} disabled={act.busy} autoFocus>
            {act.busy ? 'Working…' : action}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** "3 minutes ago"-style time with the exact ISO time on hover. */
export function When({ at, never = '—' }: { at: string | null | undefined; never?: string }) {
  if (!at) return <span class="muted">{never}</span>;
  const s = Math.round((Date.now() - Date.parse(at)) / 1000);
  const rel =
    s < 45 ? 'just now' : s < 3600 ? `${Math.round(s / 60)} min ago` : s < 86400 ? `${Math.round(s / 3600)} h ago` : new Date(at).toLocaleDateString();
  return (
    <time dateTime={at} title={at}>
      {rel}
    </time>
  );
}

/** Previous/next paging with "1–20 of 42". */
export function Pager({ offset, limit, total, onPage }: { offset: number; limit: number; total: number; onPage: (offset: number) => void }) {
  const last = Math.min(offset + limit, total);
  return (
    <nav class="pager" aria-label="Pages">
      <span class="muted">{total === 0 ? 'None' : `${offset + 1}–${last} of ${total}`}</span>
      <button type="button" disabled={offset === 0} onClick={() => onPage(Math.max(0, offset - limit))}>
        ‹ Previous
      </button>
      <button type="button" disabled={last >= total} onClick={() => onPage(offset + limit)}>
        Next ›
      </button>
    </nav>
  );
}

/** A short-lived message in the corner. */
export function useToast(): { toast: (m: string) => void; view: JSX.Element | null } {
  const [msg, setMsg] = useState<string>();
  useEffect(() => {
    if (!msg) return;
    const t = setTimeout(() => setMsg(undefined), 3500);
    return () => clearTimeout(t);
  }, [msg]);
  return {
    toast: setMsg,
    view: msg ? (
      <div class="toast" role="status">
        {msg}
      </div>
    ) : null,
  };
}
