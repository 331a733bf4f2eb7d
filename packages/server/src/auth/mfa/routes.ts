import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { principalOf } from '../../http/auth.ts';
import { ErrorResponse } from '../../http/error-schema.ts';
import { NoContent, SessionHeaders } from '../schemas.ts';
import type { Current } from '../sessions.ts';
import {
  ChallengeBody,
  ChallengeResponse,
  CodeBody,
  EnrolResponse,
  FactorParams,
  FactorsResponse,
  RecoveryCodesResponse,
  UserIdParams,
  VerifyBody,
} from './schemas.ts';
import type { MfaService } from './service.ts';

/**
 * API.md §2.2 `/auth/mfa/*`: an end user's TOTP factor and recovery codes, and the challenge that
 * completes a two-step sign-in. Every route but the challenge needs X-Session-Token.
 */
export function mfaRoutes(app: FastifyInstance, deps: { mfa: MfaService; current: (request: FastifyRequest) => Promise<Current> }): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const { mfa, current } = deps;
  const tags = ['auth'];
  const key = { access: 'key' as const };
  const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse, 429: ErrorResponse };
  const db = (request: FastifyRequest) => principalOf(request).databaseId;

  api.post(
    '/v1/auth/mfa/totp',
    {
      config: key,
      schema: {
        tags,
        summary: 'Enrol a TOTP factor (unverified until /auth/mfa/totp/verify)',
        headers: SessionHeaders,
        response: { 201: EnrolResponse, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await mfa.enrol(db(request), await current(request))),
  );

  api.post(
    '/v1/auth/mfa/totp/verify',
    {
      config: key,
      schema: {
        tags,
        summary: 'Activate the TOTP factor with a code; answers 10 recovery codes, shown once',
        headers: SessionHeaders,
        body: VerifyBody,
        response: { 200: RecoveryCodesResponse, ...errors },
      },
    },
    async (request) => ({ recoveryCodes: await mfa.activate(db(request), await current(request), request.body.factorId, request.body.code) }),
  );

  api.get(
    '/v1/auth/mfa',
    {
      config: key,
      schema: { tags, summary: "The signed-in user's factors (never a secret)", headers: SessionHeaders, response: { 200: FactorsResponse, ...errors } },
    },
    async (request) => mfa.list(db(request), await current(request)),
  );

  api.delete(
    '/v1/auth/mfa/:factorId',
    {
      config: { ...key, invalidates: true },
      schema: {
        tags,
        summary: 'Remove a factor, with a current TOTP code or a recovery code',
        headers: SessionHeaders,
        params: FactorParams,
        body: CodeBody,
        response: { 204: NoContent, ...errors },
      },
    },
    async (request, reply) => {
      await mfa.remove(db(request), await current(request), request.params.factorId, request.body.code);
      return reply.code(204).send();
    },
  );

  api.post(
    '/v1/auth/mfa/recovery-codes',
    {
      config: key,
      schema: {
        tags,
        summary: 'New recovery codes (the old ones stop working), with a current code',
        headers: SessionHeaders,
        body: CodeBody,
        response: { 200: RecoveryCodesResponse, ...errors },
      },
    },
    async (request) => ({ recoveryCodes: await mfa.newRecoveryCodes(db(request), await current(request), request.body.code) }),
  );

  api.delete(
    '/v1/auth/users/:id/mfa',
    {
      config: { access: 'secret', invalidates: true },
      schema: {
        tags,
        summary: "Remove every factor, recovery code and passkey of a user and end their sessions (an app's support desk; secret key)",
        params: UserIdParams,
        response: { 204: NoContent, ...errors },
      },
    },
    async (request, reply) => {
      await mfa.reset(db(request), request.params.id);
      return reply.code(204).send();
    },
  );

  api.post(
    '/v1/auth/mfa/challenge',
    {
      config: key,
      schema: {
        tags,
        summary: 'Complete a two-step sign-in: the mfaToken of the first step and a TOTP code or a recovery code',
        body: ChallengeBody,
        response: { 200: ChallengeResponse, ...errors },
      },
    },
    async (request) => {
      const body = request.body;
      return mfa.challenge(db(request), body.mfaToken, 'code' in body ? { code: body.code } : { recoveryCode: body.recoveryCode });
    },
  );
}
