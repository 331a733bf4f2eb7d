import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Static } from '@sinclair/typebox';
import { principalOf } from '../http/auth.ts';
import type { DocumentsService } from './service.ts';
import { checkCollection } from './names.ts';
import {
  BulkBody, BulkResponse, CollectionParams, CollectionsResponse, DocumentBody, DocumentParams, DocumentSchema, ListResponse, listQuerySchema,
  type ListQueryString,
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

/** §1 documents. Handlers only parse, call the service and answer. */
export function documentRoutes(app: FastifyInstance, deps: { documents: DocumentsService; maxPageSize: number }): void {
  const { documents } = deps;
  const tags = ['documents'];
  const read = { access: 'key' as const };
  const write = { access: 'secret' as const };
  const errors = errorResponses(400, 401, 403, 404);

  app.post<{ Params: Static<typeof CollectionParams> }>('/v1/:collection/docs', {
    config: write, preValidation: collectionName,
    schema: { tags, summary: 'Insert a document', params: CollectionParams, body: DocumentBody, response: { 201: DocumentSchema, ...errors, ...errorResponses(409, 413) } },
  }, async (request, reply) => {
    return json(reply, 201, await documents.create(principalOf(request).databaseId, request.params.collection, request.body));
  });

  app.get<{ Params: Static<typeof CollectionParams>; Querystring: ListQueryString }>('/v1/:collection/docs', {
    config: read, preValidation: collectionName,
    schema: { tags, summary: 'List documents', params: CollectionParams, querystring: listQuerySchema(deps.maxPageSize), response: { 200: ListResponse, ...errors } },
  }, async (request, reply) => json(reply, 200, await documents.list(principalOf(request).databaseId, request.params.collection, request.query)));

  app.get<{ Params: Static<typeof DocumentParams> }>('/v1/:collection/docs/:id', {
    config: read, preValidation: collectionName,
    schema: { tags, summary: 'Get a document', params: DocumentParams, response: { 200: DocumentSchema, ...errors } },
  }, async (request, reply) => json(reply, 200, await documents.get(principalOf(request).databaseId, request.params.collection, request.params.id)));

  app.patch<{ Params: Static<typeof DocumentParams> }>('/v1/:collection/docs/:id', {
    config: write, preValidation: collectionName,
    schema: { tags, summary: 'Update a document (JSON Merge Patch)', params: DocumentParams, body: DocumentBody, response: { 200: DocumentSchema, ...errors, ...errorResponses(413) } },
  }, async (request, reply) => json(reply, 200, await documents.patch(principalOf(request).databaseId, request.params.collection, request.params.id, request.body)));

  app.delete<{ Params: Static<typeof DocumentParams> }>('/v1/:collection/docs/:id', {
    config: write, preValidation: collectionName,
    schema: { tags, summary: 'Delete a document', params: DocumentParams, response: { 204: NoContent, ...errors } },
  }, async (request, reply) => {
    await documents.delete(principalOf(request).databaseId, request.params.collection, request.params.id);
    return reply.code(204).send();
  });

  app.post<{ Params: Static<typeof CollectionParams>; Body: Static<typeof BulkBody> }>('/v1/:collection/bulk', {
    config: write, preValidation: collectionName,
    schema: { tags, summary: 'Insert several documents, all or nothing', params: CollectionParams, body: BulkBody, response: { 201: BulkResponse, ...errors, ...errorResponses(409, 413) } },
  }, async (request, reply) => {
    return json(reply, 201, await documents.bulkCreate(principalOf(request).databaseId, request.params.collection, request.body.documents));
  });

  app.get('/v1/collections', {
    config: read,
    schema: { tags, summary: 'Collections with their document counts', response: { 200: CollectionsResponse, ...errors } },
  }, async (request) => ({ collections: await documents.collections(principalOf(request).databaseId) }));
}
