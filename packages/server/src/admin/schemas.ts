import { Type } from '@sinclair/typebox';
import { MfaStepSchema } from '../auth/mfa/schemas.ts';

/** Schemas of the §6 management routes. */
export const SignInBody = Type.Object({ email: Type.String({ maxLength: 320 }), password: Type.String({ maxLength: 256 }) });
export const OperatorSchema = Type.Object({ id: Type.String(), email: Type.String(), createdAt: Type.String() });
export const SignInResponse = Type.Object({
  token: Type.Union([Type.Null(), Type.String()], { description: 'null while a second step is due (API.md §2.2): then see mfa' }),
  operator: Type.Optional(OperatorSchema),
  mfa: Type.Optional(MfaStepSchema),
});

const OAuthClient = Type.Object({ clientId: Type.Union([Type.String(), Type.Null()]), clientSecretSet: Type.Boolean() });
const OidcClient = Type.Object({
  issuer: Type.Union([Type.String(), Type.Null()]),
  clientId: Type.Union([Type.String(), Type.Null()]),
  clientSecretSet: Type.Boolean(),
  name: Type.Union([Type.String(), Type.Null()]),
});
const NullableString = Type.Union([Type.String(), Type.Null()]);
/** Apple signs a client secret per sign-in with this key (docs/oauth.md); reads show only whether it is set. */
const AppleClient = Type.Object({ clientId: NullableString, teamId: NullableString, keyId: NullableString, privateKeySet: Type.Boolean() });
const MicrosoftClient = Type.Object({
  clientId: NullableString,
  clientSecretSet: Type.Boolean(),
  tenant: Type.Union([Type.String(), Type.Null()], { description: 'null: common (any Microsoft account)' }),
});
const MailTemplateSchema = Type.Object({ subject: Type.Optional(Type.String()), text: Type.Optional(Type.String()), html: Type.Optional(Type.String()) });
/** docs/email.md: a database's own SMTP server (write-only), sender, application name and templates. */
const EmailSettingsSchema = Type.Object({
  smtpUrlSet: Type.Boolean({ description: 'Whether the database sends through its own SMTP server (the URL itself is write-only)' }),
  from: Type.Optional(Type.String()),
  appName: Type.Optional(Type.String({ description: '{APP_NAME} in templates; default: the database name' })),
  templates: Type.Optional(
    Type.Object({
      verifyEmail: Type.Optional(MailTemplateSchema),
      resetPassword: Type.Optional(MailTemplateSchema),
      magicLink: Type.Optional(MailTemplateSchema),
    }),
  ),
});
const SettingsSchema = Type.Object({
  redirectUrls: Type.Array(Type.String()),
  siteUrl: Type.Union([Type.String(), Type.Null()]),
  oauth: Type.Object({
    google: Type.Optional(OAuthClient),
    github: Type.Optional(OAuthClient),
    apple: Type.Optional(AppleClient),
    microsoft: Type.Optional(MicrosoftClient),
    discord: Type.Optional(OAuthClient),
    gitlab: Type.Optional(OAuthClient),
    facebook: Type.Optional(OAuthClient),
    x: Type.Optional(OAuthClient),
    oidc: Type.Optional(OidcClient),
  }),
  auth: Type.Object({
    allowSignUp: Type.Boolean({ description: 'false: no path (sign-up, magic link, OAuth) creates an account' }),
    requireEmailVerification: Type.Boolean({ description: 'true: sign-up mails a verification link and starts no session; unverified password sign-in → 403' }),
    mfaIssuer: Type.Optional(Type.String({ description: "The issuer authenticator apps show for TOTP factors (default: the database's name)" })),
    passkeys: Type.Optional(
      Type.Object(
        { rpId: Type.Optional(Type.String()), rpName: Type.Optional(Type.String()), origins: Type.Optional(Type.Array(Type.String())) },
        { description: 'The WebAuthn relying party of passkeys (default: rpId the host of siteUrl, origins its origin)' },
      ),
    ),
  }),
  search: Type.Optional(
    Type.Record(Type.String(), Type.Array(Type.String()), { description: 'Full-text search: collection → the field paths search= looks in' }),
  ),
  email: Type.Optional(EmailSettingsSchema),
  files: Type.Optional(
    Type.Record(Type.String(), Type.Object({}, { additionalProperties: true }), {
      description: 'Files (§12): bucket → {maxSize, contentTypes, thumbs, public}',
    }),
  ),
});
export const DatabaseSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  settings: SettingsSchema,
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
const KeyKindSchema = Type.Union([Type.Literal('secret'), Type.Literal('public')]);
export const NewKeySchema = Type.Object({
  id: Type.String(),
  kind: KeyKindSchema,
  name: Type.Union([Type.String(), Type.Null()]),
  key: Type.String({ description: 'A secret key is shown here once; a public key can be listed again' }),
  createdAt: Type.String(),
});
export const KeySchema = Type.Object({
  id: Type.String(),
  kind: KeyKindSchema,
  name: Type.Union([Type.String(), Type.Null()]),
  hint: Type.String({ description: 'The prefix and last 4 characters' }),
  key: Type.Optional(
    Type.String({
      description: 'Public keys only: the whole key, shown any time (absent for public keys created before public keys were kept: those were stored hashed)',
    }),
  ),
  createdAt: Type.String(),
  lastUsedAt: Type.Union([Type.String(), Type.Null()]),
  revokedAt: Type.Union([Type.String(), Type.Null()]),
});
export const CreateDatabaseBody = Type.Object({ name: Type.String({ minLength: 1, maxLength: 100 }) });
export const PatchDatabaseBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    settings: Type.Optional(
      Type.Object(
        {},
        {
          additionalProperties: true,
          description:
            'JSON Merge Patch of {redirectUrls, siteUrl, oauth: {google|github|discord|gitlab|facebook|x: {clientId, clientSecret}, microsoft: {clientId, clientSecret, tenant}, apple: {clientId, teamId, keyId, privateKey}, oidc: {issuer, clientId, clientSecret, name}}, email: {smtpUrl, from, appName, templates}}',
        },
      ),
    ),
  },
  { additionalProperties: false },
);
export const CreateKeyBody = Type.Object({ kind: KeyKindSchema, name: Type.Optional(Type.String({ maxLength: 100 })) });
export const IdParams = Type.Object({ id: Type.String() });
export const KeyParams = Type.Object({ id: Type.String(), keyId: Type.String() });
export const CreateOperatorBody = Type.Object({
  email: Type.String({ maxLength: 320 }),
  password: Type.String({ maxLength: 256 }),
  code: Type.Optional(Type.String({ maxLength: 64, description: "The caller's current TOTP or recovery code, when the caller has a second factor" })),
});
