import { Type, type TSchema } from '@sinclair/typebox';

/** Schemas of the §2 routes: they validate input and generate /v1/openapi.json (and the SDK's types). */
// Null first: with coerceTypes, a string branch first would turn a null into "".
const Nullable = <T extends TSchema>(t: T, options: { description?: string } = {}) => Type.Union([Type.Null(), t], options);

export const UserSchema = Type.Object(
  {
    id: Type.String(),
    email: Type.String(),
    name: Nullable(Type.String()),
    avatar: Nullable(Type.String()),
    emailVerified: Type.Boolean(),
    appMetadata: Type.Object(
      {},
      { additionalProperties: true, description: "The app's data about the user (roles, plan, team): set only with a secret key; rules read it" },
    ),
    disabled: Type.Boolean({ description: 'A disabled user cannot sign in and has no session' }),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { description: 'An end user of the database (never a password hash)' },
);

export const SessionSchema = Type.Object({
  token: Type.String({ description: 'Send it as X-Session-Token' }),
  expiresAt: Type.String({ format: 'date-time' }),
});

export const SignedInResponse = Type.Object({ user: UserSchema, session: SessionSchema });
export const SignedUpResponse = Type.Object({
  user: UserSchema,
  session: Nullable(SessionSchema, { description: 'null when the database requires a verified e-mail first: a verification link was mailed' }),
});
export const UserResponse = Type.Object({ user: UserSchema });
export const AcceptedResponse = Type.Object({}, { description: 'Accepted; the e-mail, if any, is sent in the background' });

const Email = Type.String({ maxLength: 320, description: 'Trimmed and lower-cased' });
const NewPassword = Type.String({ description: '8 to 256 characters, else 400 weak_password' });
const Password = Type.String({ maxLength: 4096 });
const LinkToken = Type.String({ maxLength: 512, description: 'The token of the link in the e-mail' });

const RedirectUrl = Type.String({ maxLength: 2048, description: "Where the link points; default: the database's siteUrl" });
export const SignUpBody = Type.Object({
  email: Email,
  password: NewPassword,
  name: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  redirectUrl: Type.Optional(
    Type.String({
      maxLength: 2048,
      description: 'Where the verification link points when the database requires verified e-mails; default: the siteUrl setting',
    }),
  ),
});
export const SignInBody = Type.Object({ email: Email, password: Password });
export const PatchMeBody = Type.Object(
  {
    name: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
    // Its length is checked with its scheme (users/users.ts checkAvatar), so a data: URL hears one message: "an http(s) URL".
    avatar: Type.Optional(Nullable(Type.String({ description: 'An http(s) URL of at most 2048 characters' }))),
  },
  { additionalProperties: false },
);
export const ChangePasswordBody = Type.Object({ currentPassword: Password, newPassword: NewPassword });
export const ForgotPasswordBody = Type.Object({
  email: Email,
  redirectUrl: Type.Optional(Type.String({ maxLength: 2048, description: "Where the link points; default: the database's siteUrl" })),
});
export const ResetPasswordBody = Type.Object({ email: Email, token: LinkToken, newPassword: NewPassword });
export const MagicLinkBody = Type.Object({ email: Email, redirectUrl: Type.String({ maxLength: 2048, description: 'Where the link points' }) });
export const VerifyMagicLinkBody = Type.Object({ email: Email, token: LinkToken });
export const VerifyEmailBody = Type.Object({
  email: Type.Optional(Type.String({ maxLength: 320, description: 'Without X-Session-Token: the address to verify (ignored with one)' })),
  redirectUrl: Type.Optional(RedirectUrl),
});
export const ConfirmEmailBody = Type.Object({
  email: Email,
  token: LinkToken,
  password: Type.Optional(Type.String({ maxLength: 4096, description: "The account's password; required when it has one" })),
});
export const DeleteMeBody = Type.Object({
  password: Type.Optional(Type.String({ maxLength: 4096, description: "The account's password; required when it has one" })),
});

export const SessionHeaders = Type.Object({ 'x-session-token': Type.Optional(Type.String({ description: 'The session token of the signed-in user' })) });

const PROVIDER_NAMES = ['google', 'github', 'apple', 'microsoft', 'discord', 'gitlab', 'facebook', 'x', 'oidc'] as const;
export const ProviderParams = Type.Object({ provider: Type.Union(PROVIDER_NAMES.map((p) => Type.Literal(p))) });
export const OAuthStartQuery = Type.Object({
  key: Type.Optional(Type.String({ description: 'A public key (svc_pk_…); a secret key here is refused' })),
  redirectUrl: Type.String({ maxLength: 2048, description: 'An allowed redirect URL: where the user comes back with ?token= or ?error=' }),
});
export const OAuthCallbackQuery = Type.Object(
  {
    code: Type.Optional(Type.String()),
    state: Type.Optional(Type.String()),
    error: Type.Optional(Type.String()),
    iss: Type.Optional(Type.String({ description: 'OpenID Connect: the issuer, when it says so in its answer (RFC 9207)' })),
  },
  { additionalProperties: true, description: 'What the provider sends back' },
);

export const Redirect = { type: 'null', description: 'Redirect (see Location)' } as const;
export const NoContent = { type: 'null', description: 'Done' } as const;
