import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import multipart from '@fastify/multipart';
import { errorResponses, NoContent } from '../http/error-schema.ts';
import { listQuerySchema } from '../documents/schemas.ts';
import { noneMatch } from './serve.ts';
import type { FilesApi } from './api.ts';
import { ReplayedUpload, type UploadKeys } from './idempotent.ts';
import {
  BucketParams,
  BucketsResponse,
  ContentQuery,
  FileListResponse,
  FileParams,
  FileSchema,
  LinkBody,
  LinkResponse,
  PatchBody,
  PreconditionFailedResponse,
  PublicParams,
  UploadQuery,
} from './schemas.ts';

const tags = ['files'];
const errors = errorResponses(400, 401, 403, 404);
/** How long a refused upload's connection keeps reading (and dropping) what the client still sends. */
const LINGER_MS = 5000;

/**
 * Refused before the whole body arrived (a limit passed): the answer goes now, and what the client
 * still sends is read and dropped until its body ends (a lingering close, as nginx does). Closing
 * the socket at once would make the client's next write reset the connection, and most clients
 * would lose the answer. A client still sending after LINGER_MS has its connection closed.
 */
function lingeringClose(request: FastifyRequest): void {
  const raw = request.raw;
  raw.resume();
  setTimeout(() => {
    if (!raw.readableEnded) raw.socket.destroy();
  }, LINGER_MS).unref();
}

/** §12's routes. Handlers parse and answer; the checks and their order live in api.ts. */
export function fileRoutes(app: FastifyInstance, api: FilesApi, uploadKeys: UploadKeys): void {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const withTag = (reply: FastifyReply, version: string) => reply.header('etag', `"${version}"`);

  // Uploads read their body themselves, as a stream of any type: their own parsers, in their own scope.
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    await scope.register(multipart, { preservePath: true, throwFileSizeLimit: false, limits: { fileSize: Number.MAX_SAFE_INTEGER } });
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    scope.withTypeProvider<TypeBoxTypeProvider>().post(
      '/v1/files/:bucket',
      {
        config: { access: 'key', streamedBody: true },
        schema: {
          tags,
          summary: 'Upload a file (multipart: a metadata part, then one file part; or the raw bytes)',
          params: BucketParams,
          querystring: UploadQuery,
          response: { 201: FileSchema, ...errors, ...errorResponses(413, 415) },
        },
      },
      async (request, reply) => {
        try {
          uploadKeys.check(request);
          const stored = await api.upload(request, request.params.bucket, request.query);
          return uploadKeys.reply(request, reply) ?? withTag(reply, stored.version).code(201).send(stored.file);
        } catch (e) {
          if (e instanceof ReplayedUpload) return uploadKeys.reply(request, reply);
          if (!request.raw.readableEnded) lingeringClose(request);
          throw e;
        }
      },
    );
  });

  typed.get(
    '/v1/files/:bucket',
    {
      config: { access: 'key' },
      schema: {
        tags,
        summary: 'List files',
        params: BucketParams,
        querystring: listQuerySchema(api.maxPageSize),
        response: { 200: FileListResponse, ...errors },
      },
    },
    async (request) => api.list(request, request.params.bucket, request.query),
  );

  typed.get(
    '/v1/files/:bucket/:id',
    { config: { access: 'key' }, schema: { tags, summary: 'Get a file record', params: FileParams, response: { 200: FileSchema, 304: NoContent, ...errors } } },
    async (request, reply) => {
      const stored = await api.get(request, request.params.bucket, request.params.id);
      withTag(reply, stored.version);
      if (noneMatch(request.headers['if-none-match'], `"${stored.version}"`)) return reply.code(304).send();
      return stored.file;
    },
  );

  // GET and HEAD in one route: Fastify's own HEAD route would send Content-Length: 0.
  typed.route({
    method: ['GET', 'HEAD'],
    url: '/v1/files/:bucket/:id/content',
    config: { access: 'download' },
    schema: {
      tags,
      summary: "A file's bytes (or a thumbnail)",
      params: FileParams,
      querystring: ContentQuery,
      response: { ...errors, ...errorResponses(416, 429) },
    },
    handler: async (request, reply) => api.content(request, reply, request.params.bucket, request.params.id, request.query),
  });

  typed.route({
    method: ['GET', 'HEAD'],
    url: '/v1/public/:databaseId/:bucket/:id',
    config: { access: 'download' },
    schema: {
      tags,
      summary: "A public bucket's file, for anyone",
      params: PublicParams,
      querystring: ContentQuery,
      response: { ...errors, ...errorResponses(416, 429) },
    },
    handler: async (request, reply) => api.publicContent(request, reply, request.params, request.query),
  });

  typed.patch(
    '/v1/files/:bucket/:id',
    {
      config: { access: 'key' },
      schema: {
        tags,
        summary: 'Rename a file or replace its metadata',
        params: FileParams,
        body: PatchBody,
        response: { 200: FileSchema, ...errors, ...errorResponses(413), 412: PreconditionFailedResponse },
      },
    },
    async (request, reply) => {
      const stored = await api.update(request, reply, request.params.bucket, request.params.id, request.body);
      return withTag(reply, stored.version).send(stored.file);
    },
  );

  typed.delete(
    '/v1/files/:bucket/:id',
    {
      config: { access: 'key' },
      schema: { tags, summary: 'Delete a file', params: FileParams, response: { 204: NoContent, ...errors, 412: PreconditionFailedResponse } },
    },
    async (request, reply) => {
      await api.remove(request, reply, request.params.bucket, request.params.id);
      return reply.code(204).send();
    },
  );

  typed.post(
    '/v1/files/:bucket/:id/url',
    {
      config: { access: 'key' },
      schema: { tags, summary: 'A signed link to the bytes', params: FileParams, body: LinkBody, response: { 200: LinkResponse, ...errors } },
    },
    async (request) => api.link(request, request.params.bucket, request.params.id, request.body ?? {}),
  );

  typed.get(
    '/v1/buckets',
    { config: { access: 'key' }, schema: { tags, summary: 'Buckets with their file counts and bytes', response: { 200: BucketsResponse, ...errors } } },
    async (request) => api.buckets(request),
  );

  typed.post(
    '/v1/admin/databases/:id/rotate-file-key',
    {
      config: { access: 'operator' },
      schema: { tags: ['admin'], summary: "A new key for a database's file links: every link made before stops working", response: { 204: NoContent } },
    },
    async (request: FastifyRequest, reply) => {
      const { id } = request.params as { id: string };
      await api.rotate(id);
      return reply.code(204).send();
    },
  );
}
