import type { DatabaseSettings } from '../types.ts';

type OAuthSettings = DatabaseSettings['oauth'];
/** The providers with a card of their own (the OpenID Connect one has its own card). */
export type Provider = Exclude<keyof OAuthSettings, 'oidc'>;

/** One provider's card: its readable settings, its write-only one, and what to tell the operator. */
export interface ProviderSpec {
  id: Provider;
  label: string;
  /** Settings shown and sent as they are: [key, label, placeholder]. */
  fields: ReadonlyArray<readonly [string, string, string?]>;
  /** The write-only setting: a client secret, or Apple's private key (a multi-line PEM). */
  secret: 'clientSecret' | 'privateKey';
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
