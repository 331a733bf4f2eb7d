import { createPrivateKey } from 'node:crypto';
import { ApiError, type ErrorDetail } from '../errors.ts';
import { isObject, mergePatch, type JsonObject } from '../json/merge-patch.ts';
import { isHttpUrl } from '../http/urls.ts';
import { validateRules } from '../rules/validate.ts';
import { checkSearchSettings, type SearchSettings } from '../documents/search.ts';
import { checkEmailSettings, publicEmailSettings, type EmailSettings } from '../email/settings.ts';
import { checkFilesSettings, type FilesSettings } from '../files/settings.ts';

/** A database's settings as stored (API.md §6). */
export interface Settings {
  redirectUrls: string[];
  siteUrl: string | null;
  oauth: Partial<Record<Exclude<OAuthProvider, 'oidc'>, ProviderSettings>> & { oidc?: OidcSettings };
  /**
   * The §10 access rules as last written, kept as JSON text: PostgreSQL's jsonb would reorder
   * their keys, and GET /rules answers them exactly as written. Absent: never set (rules/).
   */
  rules?: string;
  /** API.md §2.1 sign-up control; absent in settings stored before it: read it with `authSettings`. */
  auth?: Partial<AuthSettings>;
  /** API.md §1.1 full-text search: collection → the field paths `search=` looks in (documents/search.ts); absent: none. */
  search?: SearchSettings;
  /** docs/email.md: the SMTP server, sender, application name and templates of auth e-mails; absent: the server's. */
  email?: EmailSettings;
  /** API.md §12: bucket → its settings (files/settings.ts); absent: none. */
  files?: FilesSettings;
}

/** API.md §2.1: who may create an account, and whether a password account must verify its e-mail first. */
interface AuthSettings {
  allowSignUp: boolean;
  requireEmailVerification: boolean;
  /** API.md §2.2: the issuer authenticator apps show for TOTP factors; default: the database's name. */
  mfaIssuer?: string;
  /** API.md §2.2: the WebAuthn relying party; default: rpId the host of siteUrl, origins its origin. */
  passkeys?: PasskeySettings;
}

/** The relying party of a database's passkeys (API.md §2.2); each part may be left to its default. */
interface PasskeySettings {
  rpId?: string;
  rpName?: string;
  origins?: string[];
}

const DEFAULT_AUTH: AuthSettings = { allowSignUp: true, requireEmailVerification: false };

/** A database's auth settings, defaults filled in. */
export const authSettings = (s: Settings): AuthSettings => ({ ...DEFAULT_AUTH, ...s.auth });

export type OAuthProvider = 'google' | 'github' | 'apple' | 'microsoft' | 'discord' | 'gitlab' | 'facebook' | 'x' | 'oidc';

/**
 * The settings of one OAuth provider (docs/oauth.md): `clientId` and `clientSecret`, except Apple
 * (`teamId`, `keyId` and `privateKey` sign a client secret per request) and Microsoft (`tenant`).
 */
export interface ProviderSettings {
  clientId: string | null;
  clientSecret?: string | null;
  teamId?: string | null;
  keyId?: string | null;
  privateKey?: string | null;
  tenant?: string | null;
}

/** The one generic OpenID Connect provider of a database (API.md §2.1): `name` is its label for people. */
export interface OidcSettings {
  issuer: string | null;
  clientId: string | null;
  clientSecret: string | null;
  name: string | null;
}
/** The keys each provider's settings may hold. */
const PROVIDER_KEYS: Record<OAuthProvider, string[]> = {
  google: ['clientId', 'clientSecret'],
  github: ['clientId', 'clientSecret'],
  apple: ['clientId', 'teamId', 'keyId', 'privateKey'],
  microsoft: ['clientId', 'clientSecret', 'tenant'],
  discord: ['clientId', 'clientSecret'],
  gitlab: ['clientId', 'clientSecret'],
  facebook: ['clientId', 'clientSecret'],
  x: ['clientId', 'clientSecret'],
  oidc: ['issuer', 'clientId', 'clientSecret', 'name'],
};
const PROVIDERS = Object.keys(PROVIDER_KEYS) as OAuthProvider[];
/** Write-only: reads show `<key>Set: true|false` instead. */
const SECRET_KEYS = new Set(['clientSecret', 'privateKey']);

export const EMPTY_SETTINGS: Settings = { redirectUrls: [], siteUrl: null, oauth: {}, auth: DEFAULT_AUTH };

/** Validates a merged settings object; throws 400 `validation_failed` with every problem. */
function validate(v: JsonObject): Settings {
  const details: ErrorDetail[] = [];
  const allowed = new Set(['redirectUrls', 'siteUrl', 'oauth', 'auth', 'search', 'email', 'files']);
  for (const k of Object.keys(v)) if (!allowed.has(k)) details.push({ path: `/settings/${k}`, message: 'is not a setting' });
  const redirectUrls = v.redirectUrls ?? [];
  if (!Array.isArray(redirectUrls) || !redirectUrls.every(isHttpUrl))
    details.push({ path: '/settings/redirectUrls', message: 'must be a list of http(s) URLs' });
  const siteUrl = v.siteUrl ?? null;
  if (siteUrl !== null && !isHttpUrl(siteUrl)) details.push({ path: '/settings/siteUrl', message: 'must be an http(s) URL' });
  const oauth = v.oauth ?? {};
  if (!isObject(oauth)) details.push({ path: '/settings/oauth', message: 'must be an object' });
  else {
    for (const [provider, conf] of Object.entries(oauth)) {
      const base = `/settings/oauth/${provider}`;
      if (!PROVIDERS.includes(provider as OAuthProvider)) details.push({ path: base, message: `must be one of ${PROVIDERS.join(', ')}` });
      else if (!isObject(conf)) details.push({ path: base, message: `must be {${PROVIDER_KEYS[provider as OAuthProvider].join(', ')}}` });
      else {
        for (const [k, val] of Object.entries(conf)) {
          if (!PROVIDER_KEYS[provider as OAuthProvider].includes(k)) details.push({ path: `${base}/${k}`, message: 'is not a setting' });
          else if (val !== null && (typeof val !== 'string' || val.length > (k === 'privateKey' ? 4096 : 512)))
            details.push({ path: `${base}/${k}`, message: 'must be a string' });
          else if (val !== null) {
            const problem = providerValueProblem(k, val);
            if (problem) details.push({ path: `${base}/${k}`, message: problem });
          }
        }
      }
    }
  }
  const search = checkSearchSettings(v.search, details);
  const email = checkEmailSettings(v.email, details);
  const files = checkFilesSettings(v.files, details);
  const auth = v.auth ?? {};
  if (!isObject(auth)) details.push({ path: '/settings/auth', message: 'must be {allowSignUp, requireEmailVerification}' });
  else {
    for (const [k, val] of Object.entries(auth)) {
      if (k === 'mfaIssuer' || k === 'passkeys') checkSecondFactorSettings(k, val, details);
      else if (!Object.hasOwn(DEFAULT_AUTH, k)) details.push({ path: `/settings/auth/${k}`, message: 'is not a setting' });
      else if (typeof val !== 'boolean') details.push({ path: `/settings/auth/${k}`, message: 'must be true or false' });
    }
  }
  if (details.length) throw new ApiError('validation_failed', `Invalid settings: ${details.map((d) => `${d.path} ${d.message}`).join('; ')}`, details);
  return {
    redirectUrls: redirectUrls as string[],
    siteUrl: siteUrl as string | null,
    oauth: oauth as Settings['oauth'],
    auth: { ...DEFAULT_AUTH, ...(auth as Partial<AuthSettings>) },
    ...(search ? { search } : {}),
    ...(email ? { email } : {}),
    ...(files ? { files } : {}),
  };
}

/** `auth.mfaIssuer` (a short string) and `auth.passkeys` ({rpId, rpName, origins}) of API.md §2.2. */
function checkSecondFactorSettings(k: 'mfaIssuer' | 'passkeys', val: unknown, details: ErrorDetail[]): void {
  const base = `/settings/auth/${k}`;
  const shortString = (v: unknown) => typeof v === 'string' && v.length > 0 && v.length <= 200;
  if (k === 'mfaIssuer') {
    if (!shortString(val)) details.push({ path: base, message: 'must be a string of 1 to 200 characters' });
    return;
  }
  if (!isObject(val)) {
    details.push({ path: base, message: 'must be {rpId, rpName, origins}' });
    return;
  }
  for (const [key, v] of Object.entries(val)) {
    if (key === 'rpId' || key === 'rpName') {
      if (!shortString(v)) details.push({ path: `${base}/${key}`, message: 'must be a string of 1 to 200 characters' });
    } else if (key === 'origins') {
      const origin = (o: unknown) => isHttpUrl(o) && new URL(o as string).origin === o;
      if (!Array.isArray(v) || v.length > 20 || !v.every(origin))
        details.push({ path: `${base}/origins`, message: 'must be a list of origins (scheme://host[:port])' });
    } else details.push({ path: `${base}/${key}`, message: 'is not a setting' });
  }
}

/**
 * Applies a JSON Merge Patch to settings and validates the result. `rules` is the exception
 * (§6): a patch replaces it whole, after rules/validate.ts accepted it, or removes it with null.
 */
export function patchSettings(current: Settings, patch: unknown): Settings {
  if (!isObject(patch)) throw new ApiError('validation_failed', 'settings must be an object', [{ path: '/settings', message: 'must be an object' }]);
  const { rules: currentRules, ...base } = current;
  const { rules: newRules, ...rest } = patch;
  const rules = newRules === undefined ? currentRules : newRules === null ? undefined : JSON.stringify(validateRules(newRules, '/settings/rules'));
  const merged = validate(mergePatch(base, rest) as JsonObject);
  return rules === undefined ? merged : { ...merged, rules };
}

/** What is wrong with one value of a provider's settings, if anything (the type is checked before). */
function providerValueProblem(key: string, val: string): string | undefined {
  if (key === 'issuer' && !isHttpUrl(val)) return 'must be an http(s) URL';
  // Both go into the endpoint's path (microsoft) or a JWT header and claim (apple).
  if ((key === 'tenant' || key === 'teamId' || key === 'keyId') && !/^[A-Za-z0-9._-]{1,100}$/.test(val)) return 'must be letters, digits, dots or dashes';
  if (key === 'privateKey') {
    try {
      const k = createPrivateKey(val);
      if (k.asymmetricKeyType !== 'ec' || k.asymmetricKeyDetails?.namedCurve !== 'prime256v1') return 'must be the P-256 key Apple gives (.p8)';
    } catch {
      return 'must be the PEM text of the .p8 key file Apple gives (-----BEGIN PRIVATE KEY-----…)';
    }
  }
  return undefined;
}

/** Settings as reads show them: client secrets and keys replaced by `clientSecretSet` / `privateKeySet`. */
export function publicSettings(s: Settings) {
  const oauth: Record<string, Record<string, string | boolean | null>> = {};
  for (const [provider, conf] of Object.entries(s.oauth) as unknown as [OAuthProvider, Record<string, string | null | undefined>][]) {
    const shown: Record<string, string | boolean | null> = {};
    for (const k of PROVIDER_KEYS[provider] ?? []) {
      if (SECRET_KEYS.has(k)) shown[`${k}Set`] = Boolean(conf?.[k]);
      else shown[k] = conf?.[k] ?? null;
    }
    oauth[provider] = shown;
  }
  return {
    redirectUrls: s.redirectUrls,
    siteUrl: s.siteUrl,
    oauth,
    auth: authSettings(s),
    ...(s.search ? { search: s.search } : {}),
    ...(s.email ? { email: publicEmailSettings(s.email) } : {}),
    ...(s.files ? { files: s.files } : {}),
    ...(s.rules === undefined ? {} : { rules: JSON.parse(s.rules) as unknown }),
  };
}
