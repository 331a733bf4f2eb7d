import type { FastifyInstance, FastifyReply, FastifyRequest, preParsingHookHandler } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Static } from '@sinclair/typebox';
import { principalOf, type Principal } from '../http/auth.ts';
import type { Operation } from '../rules/rules.ts';
import type { DocumentsService } from './service.ts';
import type { DocumentRules, Scopes } from './rule-access.ts';
import { checkCollection } from './names.ts';
import { knownListParams, methodGuidance } from './guidance.ts';
import {
  BulkBody,
  BulkResponse,
  CollectionParams,
  CollectionsResponse,
  DocumentBody,
  DocumentParams,
  DocumentSchema,
  GetQuery,
  ListResponse,
  listQuerySchema,
} from './schemas.ts';
import { errorResponses, NoContent } from '../http/error-schema.ts';

/** The service answers documents as ready JSON text (document-json.ts): sent as is, not serialised again. */
const json = (reply: FastifyReply, status: number, text: string) => reply.code(status).type('application/json; charset=utf-8').send(text);

type WithCollection = FastifyRequest<{ Params: Static<typeof CollectionParams> }>;

/** Collection names are checked before the body is validated, so a bad name wins over a bad body. */
const collectionName = (request: FastifyRequest, _reply: FastifyReply, done: (e?: Error) => void) => {
  try {
    checkCollection((request as WithCollection).params.collection);
    done();
  } catch (e) {
    done(e as Error);
  }
};

/** The first `X-Session-Token` of a request; an empty one counts as none. */
const sessionToken = (request: FastifyRequest): string | undefined => {
  const h = request.headers['x-session-token'];
  return (Array.isArray(h) ? h[0] : h) || undefined;
};

/**
 * §1 documents, and §10 rules for public keys. Handlers only parse, call the service and answer.
 *
 * Every route takes either key. A public-key request learns what the rules let it do in a
 * preParsing hook, before its body is read, so that a write the rules refuse whole answers 403
 * `read_only_key` (or 401 `invalid_session`) whatever its body, as before rules existed. A secret
 * key or an operator skips the hook without a query: rules never bind them.
 */
export function documentRoutes(app: FastifyInstance, deps: { documents: DocumentsService; rules: DocumentRules; maxPageSize: number }): void {
  // Request types come from the route schemas.
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const { documents } = deps;
  const tags = ['documents'];
  const access = { access: 'key' as const };
  const errors = errorResponses(400, 401, 403, 404);
  const granted = new WeakMap<FastifyRequest, Scopes>();
  /** What rules let this request do (undefined: a secret key or an operator, whom rules don't bind). */
  const scopes = (request: FastifyRequest) => granted.get(request);
  // A callback hook: a secret key or an operator (nearly every request) passes with no promise.
  const ruled =
    (operation: Operation): preParsingHookHandler =>
    (request, _reply, payload, done) => {
      let principal: Principal;
      try {
        principal = principalOf(request);
      } catch (e) {
        return done(e as Error);
      }
      if (principal.kind !== 'public') return done(null, payload);
      const { collection } = (request as WithCollection).params;
      deps.rules.scopes(principal.databaseId, collection, operation, sessionToken(request)).then((scopes) => {
        granted.set(request, scopes);
        done(null, payload);
      }, done);
    };

  api.post(
    '/v1/:collection/docs',
    {
      config: access,
      preParsing: ruled('create'),
      preValidation: collectionName,
      schema: {
        tags,
        summary: 'Insert a document',
        params: CollectionParams,
        body: DocumentBody,
        response: { 201: DocumentSchema, ...errors, ...errorResponses(409, 413) },
      },
    },
    async (request, reply) => {
      return json(reply, 201, await documents.create(principalOf(request).databaseId, request.params.collection, request.body, scopes(request)?.operation));
    },
  );

  api.get(
    '/v1/:collection/docs',
    {
      config: access,
      preParsing: ruled('read'),
      preValidation: [collectionName, knownListParams],
      schema: {
        tags,
        summary: 'List documents',
        params: CollectionParams,
        querystring: listQuerySchema(deps.maxPageSize),
        response: { 200: ListResponse, ...errors },
      },
    },
    async (request, reply) =>
      json(reply, 200, await documents.list(principalOf(request).databaseId, request.params.collection, request.query, scopes(request)?.operation)),
  );

  api.get(
    '/v1/:collection/docs/:id',
    {
      config: access,
      preParsing: ruled('read'),
      preValidation: collectionName,
      schema: { tags, summary: 'Get a document', params: DocumentParams, querystring: GetQuery, response: { 200: DocumentSchema, ...errors } },
    },
    async (request, reply) =>
      json(
        reply,
        200,
        await documents.get(principalOf(request).databaseId, request.params.collection, request.params.id, scopes(request)?.operation, request.query.fields),
      ),
  );

  api.patch(
    '/v1/:collection/docs/:id',
    {
      config: access,
      preParsing: ruled('update'),
      preValidation: collectionName,
      schema: {
        tags,
        summary: 'Update a document (JSON Merge Patch)',
        params: DocumentParams,
        body: DocumentBody,
        description: "204 with no body: the update was applied, but the collection's read rule hides the result from this public-key caller.",
        response: { 200: DocumentSchema, 204: NoContent, ...errors, ...errorResponses(413) },
      },
    },
    async (request, reply) => {
      const updated = await documents.patch(principalOf(request).databaseId, request.params.collection, request.params.id, request.body, scopes(request));
      return updated === undefined ? reply.code(204).send() : json(reply, 200, updated);
    },
  );

  api.delete(
    '/v1/:collection/docs/:id',
    {
      config: access,
      preParsing: ruled('delete'),
      preValidation: collectionName,
      schema: { tags, summary: 'Delete a document', params: DocumentParams, response: { 204: NoContent, ...errors } },
    },
    async (request, reply) => {
      await documents.delete(principalOf(request).databaseId, request.params.collection, request.params.id, scopes(request));
      return reply.code(204).send();
    },
  );

  api.post(
    '/v1/:collection/bulk',
    {
      config: access,
      preParsing: ruled('create'),
      preValidation: collectionName,
      schema: {
        tags,
        summary: 'Insert several documents, all or nothing',
        params: CollectionParams,
        body: BulkBody,
        response: { 201: BulkResponse, ...errors, ...errorResponses(409, 413) },
      },
    },
    async (request, reply) => {
      return json(
        reply,
        201,
        await documents.bulkCreate(principalOf(request).databaseId, request.params.collection, request.body.documents, scopes(request)?.operation),
      );
    },
  );

  methodGuidance(app);

  api.get(
    '/v1/collections',
    {
      config: access,
      schema: {
        tags,
        summary: 'Collections with their document counts',
        description: 'With a public key, only the collections whose read rule is true.',
        response: { 200: CollectionsResponse, ...errors },
      },
    },
    async (request) => {
      const { databaseId, kind } = principalOf(request);
      const shown = kind === 'public' ? await deps.rules.readableCollections(databaseId) : undefined;
      return { collections: await documents.collections(databaseId, shown) };
    },
  );
}
