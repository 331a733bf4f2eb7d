import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { errorResponses, NoContent } from '../http/error-schema.ts';
import { ChallengeBody, CodeBody, EnrolResponse, FactorParams, FactorsResponse, RecoveryCodesResponse, VerifyBody } from '../auth/mfa/schemas.ts';
import type { OperatorMfa } from './operator-mfa.ts';
import { OperatorSchema } from './schemas.ts';

/** API.md §2.2 "Operators": an operator's TOTP factor and the second step of the operator sign-in. */
export function operatorMfaRoutes(app: FastifyInstance, deps: { mfa: OperatorMfa }): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const { mfa } = deps;
  const tags = ['admin'];
  const operator = { access: 'operator' as const };
  const errors = errorResponses(400, 401, 403, 404, 409, 429);

  api.post(
    '/v1/admin/mfa/totp',
    { config: operator, schema: { tags, summary: 'Enrol a TOTP factor for this operator', response: { 201: EnrolResponse, ...errors } } },
    async (request, reply) => reply.code(201).send(await mfa.enrol(request.operator!, request.operatorToken!)),
  );

  api.post(
    '/v1/admin/mfa/totp/verify',
    {
      config: operator,
      schema: {
        tags,
        summary: "Activate the operator's TOTP factor; 10 recovery codes, shown once",
        body: VerifyBody,
        response: { 200: RecoveryCodesResponse, ...errors },
      },
    },
    async (request) => ({ recoveryCodes: await mfa.activate(request.operator!, request.body.factorId, request.body.code) }),
  );

  api.get(
    '/v1/admin/mfa',
    { config: operator, schema: { tags, summary: "The operator's factors", response: { 200: FactorsResponse, ...errors } } },
    async (request) => mfa.list(request.operator!),
  );

  api.delete(
    '/v1/admin/mfa/:factorId',
    {
      config: operator,
      schema: { tags, summary: 'Remove a factor, with a current code', params: FactorParams, body: CodeBody, response: { 204: NoContent, ...errors } },
    },
    async (request, reply) => {
      await mfa.remove(request.operator!, request.params.factorId, request.body.code);
      return reply.code(204).send();
    },
  );

  api.post(
    '/v1/admin/mfa/challenge',
    {
      config: { access: 'open' },
      schema: {
        tags,
        summary: 'Complete a two-step operator sign-in',
        security: [],
        body: ChallengeBody,
        response: { 200: Type.Object({ token: Type.String(), operator: OperatorSchema }), ...errors },
      },
    },
    async (request) => {
      const body = request.body;
      return mfa.challenge(body.mfaToken, 'code' in body ? { code: body.code } : { recoveryCode: body.recoveryCode });
    },
  );
}
