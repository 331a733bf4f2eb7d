import { ApiError, type ErrorDetail } from '../errors.ts';
import { isObject, mergePatch, type JsonObject } from '../json/merge-patch.ts';
import { isHttpUrl } from '../http/urls.ts';
import { validateRules } from '../rules/validate.ts';
import { checkSearchSettings, type SearchSettings } from '../documents/search.ts';
import { checkFilesSettings, type FilesSettings } from '../files/settings.ts';

/** A database's settings as stored (API.md §6). */
export interface Settings {
  redirectUrls: string[];
  siteUrl: string | null;
  oauth: Partial<Record<Exclude<OAuthProvider, 'oidc'>, { clientId: string | null; clientSecret: string | null }>> & { oidc?: OidcSettings };
  /**
   * The §10 access rules as last written, kept as JSON text: PostgreSQL's jsonb would reorder
   * their keys, and GET /rules answers them exactly as written. Absent: never set (rules/).
   */
  rules?: string;
  /** API.md §2.1 sign-up control; absent in settings stored before it: read it with `authSettings`. */
  auth?: Partial<AuthSettings>;
  /** API.md §1.1 full-text search: collection → the field paths `search=` looks in (documents/search.ts); absent: none. */
  search?: SearchSettings;
  /** API.md §12: bucket → its settings (files/settings.ts); absent: none. */
  files?: FilesSettings;
}

/** API.md §2.1: who may create an account, and whether a password account must verify its e-mail first. */
export interface AuthSettings {
  allowSignUp: boolean;
  requireEmailVerification: boolean;
}

const DEFAULT_AUTH: AuthSettings = { allowSignUp: true, requireEmailVerification: false };

/** A database's auth settings, defaults filled in. */
export const authSettings = (s: Settings): AuthSettings => ({ ...DEFAULT_AUTH, ...s.auth });

export type OAuthProvider = 'google' | 'github' | 'oidc';
const PROVIDERS: OAuthProvider[] = ['google', 'github', 'oidc'];

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
  oidc: ['issuer', 'clientId', 'clientSecret', 'name'],
};

export const EMPTY_SETTINGS: Settings = { redirectUrls: [], siteUrl: null, oauth: {}, auth: DEFAULT_AUTH };

/** Validates a merged settings object; throws 400 `validation_failed` with every problem. */
function validate(v: JsonObject): Settings {
  const details: ErrorDetail[] = [];
  const allowed = new Set(['redirectUrls', 'siteUrl', 'oauth', 'auth', 'search', 'files']);
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
      if (!PROVIDERS.includes(provider as OAuthProvider)) details.push({ path: base, message: 'must be google, github or oidc' });
      else if (!isObject(conf)) details.push({ path: base, message: `must be {${PROVIDER_KEYS[provider as OAuthProvider].join(', ')}}` });
      else {
        for (const [k, val] of Object.entries(conf)) {
          if (!PROVIDER_KEYS[provider as OAuthProvider].includes(k)) details.push({ path: `${base}/${k}`, message: 'is not a setting' });
          else if (val !== null && (typeof val !== 'string' || val.length > 512)) details.push({ path: `${base}/${k}`, message: 'must be a string' });
          else if (k === 'issuer' && val !== null && !isHttpUrl(val)) details.push({ path: `${base}/${k}`, message: 'must be an http(s) URL' });
        }
      }
    }
  }
  const search = checkSearchSettings(v.search, details);
  const files = checkFilesSettings(v.files, details);
  const auth = v.auth ?? {};
  if (!isObject(auth)) details.push({ path: '/settings/auth', message: 'must be {allowSignUp, requireEmailVerification}' });
  else {
    for (const [k, val] of Object.entries(auth)) {
      if (!Object.hasOwn(DEFAULT_AUTH, k)) details.push({ path: `/settings/auth/${k}`, message: 'is not a setting' });
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
    ...(files ? { files } : {}),
  };
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

/** Settings as reads show them: client secrets replaced by `clientSecretSet`. */
export function publicSettings(s: Settings) {
  const oauth: Record<string, { clientId: string | null; clientSecretSet: boolean; issuer?: string | null; name?: string | null }> = {};
  for (const [provider, conf] of Object.entries(s.oauth)) {
    oauth[provider] = { clientId: conf?.clientId ?? null, clientSecretSet: Boolean(conf?.clientSecret) };
  }
  if (s.oauth.oidc) oauth.oidc = { issuer: s.oauth.oidc.issuer ?? null, ...oauth.oidc, name: s.oauth.oidc.name ?? null };
  return {
    redirectUrls: s.redirectUrls,
    siteUrl: s.siteUrl,
    oauth,
    auth: authSettings(s),
    ...(s.search ? { search: s.search } : {}),
    ...(s.files ? { files: s.files } : {}),
    ...(s.rules === undefined ? {} : { rules: JSON.parse(s.rules) as unknown }),
  };
}
