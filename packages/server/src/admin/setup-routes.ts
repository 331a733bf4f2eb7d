import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { errorResponses } from '../http/error-schema.ts';
import { SignInResponse } from './schemas.ts';
import type { FirstRunSetup } from './setup.ts';

const SetupBody = Type.Object({
  setupToken: Type.String({ maxLength: 200 }),
  email: Type.String({ maxLength: 320 }),
  password: Type.String({ maxLength: 256 }),
});

/** First-run routes: open (rate-limited by IP), useful only until the first operator exists. */
export function setupRoutes(app: FastifyInstance, deps: { setup: FirstRunSetup }): void {
  // Request types come from the route schemas.
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['admin'];
  api.get(
    '/v1/admin/setup',
    {
      config: { access: 'open' },
      schema: { tags, summary: 'Whether the instance still needs its first operator', response: { 200: Type.Object({ needsSetup: Type.Boolean() }) } },
    },
    async () => ({ needsSetup: await deps.setup.needsSetup() }),
  );

  api.post(
    '/v1/admin/setup',
    {
      config: { access: 'open' },
      schema: {
        tags,
        summary: 'Create the first operator with the setup token printed in the server log',
        body: SetupBody,
        response: { 201: SignInResponse, ...errorResponses(400, 401, 409) },
      },
    },
    async (request, reply) => {
      const { setupToken, email, password } = request.body;
      return reply.code(201).send(await deps.setup.complete(setupToken, email, password));
    },
  );
}
