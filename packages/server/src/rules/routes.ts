import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { principalOf } from '../http/auth.ts';
import { ErrorResponse } from '../http/error-schema.ts';
import type { Rules } from './types.ts';

const RuleSchema = Type.Union([
  Type.Boolean(),
  Type.Literal('signedIn'),
  Type.Record(Type.String(), Type.Unknown(), {
    description: 'A §1 filter whose operands may be {"$auth": "id" | "email" | "emailVerified" | "appMetadata.<path>"}',
  }),
]);
const EntrySchema = Type.Object({
  read: Type.Optional(RuleSchema),
  create: Type.Optional(RuleSchema),
  update: Type.Optional(RuleSchema),
  delete: Type.Optional(RuleSchema),
  defaults: Type.Optional(
    Type.Record(Type.String(), Type.Unknown(), {
      description: 'Top-level fields a public-key create fills in when its body lacks them: a constant or {"$auth": …} (left out when the user has none)',
    }),
  ),
});
const RulesResponse = Type.Object({
  rules: Type.Record(Type.String({ description: 'A collection name, or "*" for every collection without an entry' }), EntrySchema),
});
// The body's rules are checked by validate.ts, not by the schema: a bad rule is 400 invalid_rules
// with the path of each problem, which a schema error (validation_failed) would not be.
const RulesBody = Type.Object(
  {
    rules: Type.Unknown({
      description:
        '{ "<collection>" | "*": { "read"?, "create"?, "update"?, "delete"?: true | false | "signedIn" | filter, "defaults"?: { "<field>": constant | {"$auth": …} } } }',
    }),
  },
  { additionalProperties: false },
);

/** §10 management: a database's access rules, with a secret key (or an operator token with X-Database-Id). */
export function rulesRoutes(
  app: FastifyInstance,
  deps: {
    read(databaseId: string): Promise<Rules>;
    save(databaseId: string, rules: unknown): Promise<Rules>;
  },
): void {
  // Request types come from the route schemas.
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['rules'];
  const config = { access: 'secret' as const };
  const errors = { 401: ErrorResponse, 403: ErrorResponse };

  api.get(
    '/v1/rules',
    {
      config,
      schema: {
        tags,
        summary: 'The access rules of public keys, as last written ({"*": {"read": true}} when none were set)',
        response: { 200: RulesResponse, ...errors },
      },
    },
    async (request) => ({ rules: await deps.read(principalOf(request).databaseId) }),
  );

  api.put(
    '/v1/rules',
    {
      // A change is announced to every instance's rules cache (migration 11); answer once they applied it.
      config: { ...config, invalidates: true },
      schema: {
        tags,
        summary: 'Replace the access rules whole; they apply at once',
        body: RulesBody,
        response: { 200: RulesResponse, 400: ErrorResponse, ...errors },
      },
    },
    async (request) => ({ rules: await deps.save(principalOf(request).databaseId, request.body.rules) }),
  );
}
