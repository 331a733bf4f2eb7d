import type { ComponentChildren } from 'preact';
import type { DatabaseSettings } from '../types.ts';

type OAuthSettings = DatabaseSettings['oauth'];
/** The providers with a card of their own (the OpenID Connect one has its own card). */
export type Provider = Exclude<keyof OAuthSettings, 'oidc'>;

/** A write-only setting: a client secret, or Apple's private key. */
export type SecretKey = 'clientSecret' | 'privateKey';

/** One provider's card: its readable settings, its write-only one, and what to tell the operator. */
export interface ProviderSpec {
  id: Provider;
  label: string;
  /** Settings shown and sent as they are: [key, label, placeholder]. */
  fields: ReadonlyArray<readonly [string, string, string?]>;
  /** The write-only setting: a client secret, or Apple's private key (a multi-line PEM). */
  secret: SecretKey;
  note?: string;
  /** Saved on every save even when empty (the first two, as they always were). */
  always?: boolean;
}

const CLIENT_ID = ['clientId', 'Client id'] as const;

/** docs/oauth.md, one card each. */
export const PROVIDERS: readonly ProviderSpec[] = [
  { id: 'google', label: 'Google', fields: [CLIENT_ID], secret: 'clientSecret', always: true },
  { id: 'github', label: 'GitHub', fields: [CLIENT_ID], secret: 'clientSecret', always: true },
  {
    id: 'apple',
    label: 'Apple',
    fields: [
      ['clientId', 'Services ID', 'com.example.web'],
      ['teamId', 'Team ID', 'ABCDE12345'],
      ['keyId', 'Key ID', 'XYZ9876543'],
    ],
    secret: 'privateKey',
    note: 'A client secret is signed for every sign-in with the key (.p8) of your Apple developer account: paste the whole file.',
  },
  {
    id: 'microsoft',
    label: 'Microsoft',
    fields: [CLIENT_ID, ['tenant', 'Tenant', 'common (any Microsoft account), organizations, or a tenant id']],
    secret: 'clientSecret',
    note: 'An e-mail counts as verified only with the optional claim xms_edov in the app registration.',
  },
  { id: 'discord', label: 'Discord', fields: [CLIENT_ID], secret: 'clientSecret' },
  { id: 'gitlab', label: 'GitLab', fields: [CLIENT_ID], secret: 'clientSecret' },
  {
    id: 'facebook',
    label: 'Facebook',
    fields: [CLIENT_ID],
    secret: 'clientSecret',
    note: 'Facebook e-mails count as unverified: they never link to an existing account.',
  },
  { id: 'x', label: 'X', fields: [CLIENT_ID], secret: 'clientSecret', note: 'X gives the e-mail only to apps allowed the users.email scope.' },
];

/** The input's name: the provider and the setting, e.g. googleClientId, applePrivateKey. */
export const inputName = (p: string, key: string) => `${p}${key[0]!.toUpperCase()}${key.slice(1)}`;

type Saved = Record<string, string | boolean | null | undefined>;
const saved = (s: DatabaseSettings, p: Provider): Saved | undefined => s.oauth[p] as Saved | undefined;

/** What the form starts with: each provider's readable settings as saved. */
export function initialValues(s: DatabaseSettings): Record<Provider, Record<string, string>> {
  const out = {} as Record<Provider, Record<string, string>>;
  for (const spec of PROVIDERS) out[spec.id] = Object.fromEntries(spec.fields.map(([k]) => [k, String(saved(s, spec.id)?.[k] ?? '')]));
  return out;
}

/** Whether the write-only setting of a provider is saved. */
export const secretSet = (s: DatabaseSettings, spec: ProviderSpec): boolean => saved(s, spec.id)?.[`${spec.secret}Set`] === true;

/**
 * The `settings.oauth` patch of the cards: a provider goes in when it is one of the first two, was
 * saved before, or something of it is filled in; an empty secret field keeps the saved secret.
 */
export function providersPatch(
  s: DatabaseSettings,
  values: Record<Provider, Record<string, string>>,
  secrets: Partial<Record<Provider, string>>,
): Record<string, Record<string, string | null>> {
  const oauth: Record<string, Record<string, string | null>> = {};
  for (const spec of PROVIDERS) {
    const v = values[spec.id];
    const secret = secrets[spec.id] ?? '';
    if (!spec.always && !saved(s, spec.id) && !secret && !Object.values(v).some((x) => x.trim())) continue;
    oauth[spec.id] = Object.fromEntries(spec.fields.map(([k]) => [k, v[k]!.trim() || null]));
    if (secret) oauth[spec.id]![spec.secret] = spec.secret === 'privateKey' ? secret.trim() : secret;
  }
  return oauth;
}

/** A write-only secret (Apple: the private key, pasted whole): a badge says whether one is saved; an empty field keeps it. */
export function SecretField(p: {
  name: string;
  secretKey: SecretKey;
  set: boolean;
  value: string;
  onInput: (v: string) => void;
  onRemove: () => void;
  busy: boolean;
}) {
  const key = p.secretKey === 'privateKey';
  const badge = p.set ? <span class="badge succeeded">set</span> : <span class="badge">not set</span>;
  const common = {
    name: p.name,
    value: p.value,
    autoComplete: 'new-password',
    placeholder: p.set ? 'Saved: leave empty to keep it, type to replace it' : `Paste the ${key ? 'private key' : 'client secret'}`,
    onInput: (e: { currentTarget: { value: string } }) => p.onInput(e.currentTarget.value),
  };
  return (
    <>
      {key ? (
        <label>
          Private key (.p8) {badge}
          <textarea class="mono" rows={4} spellcheck={false} {...common} />
        </label>
      ) : (
        <label>
          Client secret {badge}
          <input type="password" {...common} />
        </label>
      )}
      {p.set && (
        <button type="button" class="small" onClick={p.onRemove} disabled={p.busy}>
          Remove the saved {key ? 'key' : 'secret'}
        </button>
      )}
    </>
  );
}

/**
 * A provider's card: the callback URL to register, its settings and its secret. Google and GitHub
 * are shown as they always were; the others are folded until configured (eight open cards make a
 * long page).
 */
export function ProviderCard(p: {
  spec: ProviderSpec;
  callback: string;
  configured: boolean;
  values: Record<string, string>;
  onInput: (key: string, value: string) => void;
  secret: ComponentChildren;
}) {
  const { spec } = p;
  const body = (
    <>
      <p class="muted small">
        Register this callback URL with {spec.label}: <code class="break">{p.callback}</code>
        {spec.note && ` ${spec.note}`}
      </p>
      {spec.fields.map(([k, label, placeholder]) => (
        <label key={k}>
          {label}
          <input
            name={inputName(spec.id, k)}
            value={p.values[k]}
            placeholder={placeholder}
            onInput={(e) => p.onInput(k, e.currentTarget.value)}
            autoComplete="off"
          />
        </label>
      ))}
      {p.secret}
    </>
  );
  if (spec.always)
    return (
      <section class="card">
        <h2>{spec.label} sign-in</h2>
        {body}
      </section>
    );
  return (
    <details class="card provider" open={p.configured}>
      <summary>
        <h2>{spec.label} sign-in</h2> {p.configured ? <span class="badge succeeded">configured</span> : <span class="badge">not configured</span>}
      </summary>
      {body}
    </details>
  );
}
