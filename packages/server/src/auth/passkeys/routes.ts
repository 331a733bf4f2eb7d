import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { principalOf } from '../../http/auth.ts';
import { ErrorResponse } from '../../http/error-schema.ts';
import { ChallengeResponse } from '../mfa/schemas.ts';
import { NoContent, SessionHeaders } from '../schemas.ts';
import type { Current } from '../sessions.ts';
import type { Passkeys } from './passkeys.ts';

const WebAuthnJson = (description: string) => Type.Object({}, { additionalProperties: true, description });
const PasskeySchema = Type.Object({
  id: Type.String(),
  name: Type.Union([Type.Null(), Type.String()]),
  createdAt: Type.String({ format: 'date-time' }),
  lastUsedAt: Type.Union([Type.Null(), Type.String({ format: 'date-time' })]),
});

/** API.md §2.2 passkeys: registration (session), discoverable sign-in (no session), listing and removal. */
export function passkeyRoutes(app: FastifyInstance, deps: { passkeys: Passkeys; current: (request: FastifyRequest) => Promise<Current> }): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const { passkeys, current } = deps;
  const tags = ['auth'];
  const key = { access: 'key' as const };
  const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 429: ErrorResponse };
  const db = (request: FastifyRequest) => principalOf(request).databaseId;

  api.post(
    '/v1/auth/passkeys/register/options',
    {
      config: key,
      schema: {
        tags,
        summary: 'Options for navigator.credentials.create() (a fresh session with a verified e-mail)',
        headers: SessionHeaders,
        response: { 200: WebAuthnJson('PublicKeyCredentialCreationOptionsJSON'), ...errors },
      },
    },
    async (request) => passkeys.registrationOptions(db(request), await current(request)),
  );

  api.post(
    '/v1/auth/passkeys/register',
    {
      config: key,
      schema: {
        tags,
        summary: "Register a passkey from the authenticator's answer",
        headers: SessionHeaders,
        body: Type.Object({ response: WebAuthnJson('RegistrationResponseJSON'), name: Type.Optional(Type.String({ maxLength: 100 })) }),
        response: { 201: Type.Object({ passkey: PasskeySchema }), ...errors },
      },
    },
    async (request, reply) => {
      const { response, name } = request.body;
      const passkey = await passkeys.register(db(request), await current(request), response as unknown as RegistrationResponseJSON, name);
      return reply.code(201).send({ passkey });
    },
  );

  api.post(
    '/v1/auth/passkeys/sign-in/options',
    {
      config: key,
      schema: {
        tags,
        summary: 'A challenge for navigator.credentials.get() (discoverable credentials: no e-mail asked)',
        response: { 200: Type.Object({ challengeId: Type.String(), options: WebAuthnJson('PublicKeyCredentialRequestOptionsJSON') }), ...errors },
      },
    },
    async (request) => passkeys.signInOptions(db(request)),
  );

  api.post(
    '/v1/auth/passkeys/sign-in',
    {
      config: key,
      schema: {
        tags,
        summary: 'Sign in with a passkey (complete: no second step)',
        body: Type.Object({ challengeId: Type.String({ maxLength: 128 }), response: WebAuthnJson('AuthenticationResponseJSON') }),
        response: { 200: ChallengeResponse, ...errors },
      },
    },
    async (request) => passkeys.signIn(db(request), request.body.challengeId, request.body.response as unknown as AuthenticationResponseJSON),
  );

  api.get(
    '/v1/auth/passkeys',
    {
      config: key,
      schema: {
        tags,
        summary: "The signed-in user's passkeys",
        headers: SessionHeaders,
        response: { 200: Type.Object({ passkeys: Type.Array(PasskeySchema) }), ...errors },
      },
    },
    async (request) => ({ passkeys: await passkeys.list(await current(request)) }),
  );

  api.delete(
    '/v1/auth/passkeys/:id',
    {
      config: key,
      schema: {
        tags,
        summary: 'Remove a passkey',
        headers: SessionHeaders,
        params: Type.Object({ id: Type.String({ maxLength: 128 }) }),
        response: { 204: NoContent, ...errors },
      },
    },
    async (request, reply) => {
      await passkeys.remove(await current(request), request.params.id);
      return reply.code(204).send();
    },
  );
}
