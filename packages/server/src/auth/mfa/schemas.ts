import { Type } from '@sinclair/typebox';
import { SessionSchema, UserSchema } from '../schemas.ts';

/** Schemas of the §2.2 second-factor routes (users and operators share the bodies). */
const Code = Type.String({ maxLength: 64, description: 'A current 6-digit TOTP code, or a recovery code' });
export const UserIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 128, description: 'The user id' }) });
export const FactorParams = Type.Object({ factorId: Type.String({ maxLength: 128 }) });
export const EnrolResponse = Type.Object({
  factorId: Type.String(),
  secret: Type.String({ description: 'Base32 (RFC 4648), 160 bits: shown this once' }),
  otpauthUrl: Type.String({ description: 'otpauth://totp/… for an authenticator app (show it as a QR code)' }),
});
export const VerifyBody = Type.Object({ factorId: Type.String({ maxLength: 128 }), code: Type.String({ maxLength: 16 }) });
export const RecoveryCodesResponse = Type.Object({
  recoveryCodes: Type.Array(Type.String(), { description: 'Shown this once: each signs in once instead of a TOTP code' }),
});
export const FactorsResponse = Type.Object({
  factors: Type.Array(
    Type.Object({ id: Type.String(), type: Type.Literal('totp'), createdAt: Type.String({ format: 'date-time' }), verified: Type.Boolean() }),
  ),
  recoveryCodesLeft: Type.Integer(),
});
export const CodeBody = Type.Object({ code: Code });
export const ChallengeBody = Type.Union([
  Type.Object({ mfaToken: Type.String({ maxLength: 512 }), code: Type.String({ maxLength: 16 }) }),
  Type.Object({ mfaToken: Type.String({ maxLength: 512 }), recoveryCode: Type.String({ maxLength: 64 }) }),
]);
export const MfaStepSchema = Type.Object(
  { token: Type.String({ description: 'Send it to the challenge with a code' }), expiresAt: Type.String({ format: 'date-time' }) },
  { description: 'Present only when a second step is due: complete the sign-in with POST /auth/mfa/challenge' },
);
export const ChallengeResponse = Type.Object({ user: UserSchema, session: SessionSchema });
/** Every sign-in that may need a second step: {user, session}, or {user: null, session: null, mfa}. */
export const SignInOrMfaResponse = Type.Object({
  user: Type.Union([Type.Null(), UserSchema]),
  session: Type.Union([Type.Null(), SessionSchema]),
  mfa: Type.Optional(MfaStepSchema),
});
