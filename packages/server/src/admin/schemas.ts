import { Type } from '@sinclair/typebox';

/** Schemas of the §6 management routes. */
export const SignInBody = Type.Object({ email: Type.String({ maxLength: 320 }), password: Type.String({ maxLength: 256 }) });
export const OperatorSchema = Type.Object({ id: Type.String(), email: Type.String(), createdAt: Type.String() });
export const SignInResponse = Type.Object({ token: Type.String(), operator: OperatorSchema });

const OAuthClient = Type.Object({ clientId: Type.Union([Type.String(), Type.Null()]), clientSecretSet: Type.Boolean() });
const OidcClient = Type.Object({
  issuer: Type.Union([Type.String(), Type.Null()]),
  clientId: Type.Union([Type.String(), Type.Null()]),
  clientSecretSet: Type.Boolean(),
  name: Type.Union([Type.String(), Type.Null()]),
});
export const SettingsSchema = Type.Object({
  redirectUrls: Type.Array(Type.String()),
  siteUrl: Type.Union([Type.String(), Type.Null()]),
  oauth: Type.Object({ google: Type.Optional(OAuthClient), github: Type.Optional(OAuthClient), oidc: Type.Optional(OidcClient) }),
  auth: Type.Object({
    allowSignUp: Type.Boolean({ description: 'false: no path (sign-up, magic link, OAuth) creates an account' }),
    requireEmailVerification: Type.Boolean({ description: 'true: sign-up mails a verification link and starts no session; unverified password sign-in → 403' }),
  }),
  search: Type.Optional(
    Type.Record(Type.String(), Type.Array(Type.String()), { description: 'Full-text search: collection → the field paths search= looks in' }),
  ),
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
export const KeyKindSchema = Type.Union([Type.Literal('secret'), Type.Literal('public')]);
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
            'JSON Merge Patch of {redirectUrls, siteUrl, oauth: {google|github: {clientId, clientSecret}, oidc: {issuer, clientId, clientSecret, name}}}',
        },
      ),
    ),
  },
  { additionalProperties: false },
);
export const CreateKeyBody = Type.Object({ kind: KeyKindSchema, name: Type.Optional(Type.String({ maxLength: 100 })) });
export const IdParams = Type.Object({ id: Type.String() });
export const KeyParams = Type.Object({ id: Type.String(), keyId: Type.String() });
export const CreateOperatorBody = Type.Object({ email: Type.String({ maxLength: 320 }), password: Type.String({ maxLength: 256 }) });
