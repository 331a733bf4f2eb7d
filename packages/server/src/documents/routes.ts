import type { FastifyInstance, FastifyReply, FastifyRequest, preParsingHookHandler } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Static } from '@sinclair/typebox';
import { principalOf, type Principal } from '../http/auth.ts';
import { sessionTokenOf } from '../auth/request-session.ts';
import type { Operation } from '../rules/rules.ts';
import type { DocumentsService } from './service.ts';
import type { DocumentRules, Scopes } from './rule-access.ts';
import { checkCollection } from './names.ts';
import { knownListParams, methodGuidance } from './guidance.ts';
import {
  BulkBody,
  BulkResponse,
  PatchBody,
  PreconditionFailedResponse,
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
import { answerIdempotently, type Caller, type Recorder, scopeOf } from '../idempotency/http.ts';
import type { IdempotencyKeys } from '../idempotency/keys.ts';
import { etagOf, noneMatchHits, parseIfMatch } from './preconditions.ts';
import type { Written } from './versions.ts';
import { batchRoute } from './batch-route.ts';

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

/**
 * §1 documents, and §10 rules for public keys. Handlers only parse, call the service and answer.
 *
 * Every route takes either key. A public-key request learns what the rules let it do in a
 * preParsing hook, before its body is read, so that a write the rules refuse whole answers 403
 * `read_only_key` (or 401 `invalid_session`) whatever its body, as before rules existed. A secret
 * key or an operator skips the hook without a query: rules never bind them.
 */
interface DocumentRoutesDeps {
  documents: DocumentsService;
  rules: DocumentRules;
  maxPageSize: number;
  /** Idempotency keys of the writing routes (API.md §1.2). */
  idempotency: IdempotencyKeys;
  /** LIMIT_BATCH_OPERATIONS. */
  batchOperations: number;
  /** Tests only: config.testCrashAfterCommitKey. */
  crashAfterCommit?: string;
}

/** A single document's answer as an idempotency key records it: its JSON and `ETag`, or 204 with neither. */
const answerOf = (status: number, w: Written) =>
  w.json === undefined ? { status: 204, body: null, etag: null } : { status, body: w.json as string, etag: etagOf(w.version) };

/** The recorder of a route's answer, given the service's result. */
const recording = <T>(record: Recorder, answer: (result: T) => { status: number; body: string | null; etag: string | null }) =>
  record === undefined ? undefined : (tx: Parameters<NonNullable<Recorder>>[0], result: T) => record(tx, answer(result));

export function documentRoutes(app: FastifyInstance, deps: DocumentRoutesDeps): void {
  // Request types come from the route schemas.
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const { documents } = deps;
  const tags = ['documents'];
  const access = { access: 'key' as const };
  const errors = errorResponses(400, 401, 403, 404);
  const granted = new WeakMap<FastifyRequest, Scopes>();
  /** What rules let this request do (undefined: a secret key or an operator, whom rules don't bind). */
  const scopes = (request: FastifyRequest) => granted.get(request);
  /** Who an Idempotency-Key belongs to (§1.2): the operator, the database (secret key), the signed-in user, or the public key. */
  const callerOf = (request: FastifyRequest) => (): Caller | Promise<Caller> => {
    const p = principalOf(request);
    const token = p.kind === 'public' && !p.operatorId ? sessionTokenOf(request) : undefined;
    if (!token) return { scope: scopeOf(p, undefined), databaseId: p.databaseId };
    return (scopes(request)?.user() ?? deps.rules.sessionUser(p.databaseId, token)).then((user) => ({ scope: scopeOf(p, user?.id), databaseId: p.databaseId }));
  };
  /** Runs a write under the request's Idempotency-Key, if any. */
  const idempotently = (
    request: FastifyRequest,
    reply: FastifyReply,
    run: (record: Recorder) => Promise<{ status: number; body: string | null; etag: string | null }>,
  ) => answerIdempotently(deps.idempotency, request, reply, callerOf(request), run, deps.crashAfterCommit);
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
      deps.rules.scopes(principal.databaseId, collection, operation, sessionTokenOf(request)).then((scopes) => {
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
        response: { 201: DocumentSchema, ...errors, ...errorResponses(409, 413, 422) },
      },
    },
    async (request, reply) =>
      idempotently(request, reply, async (record) =>
        answerOf(
          201,
          await documents.create(principalOf(request).databaseId, request.params.collection, request.body, scopes(request)?.operation, {
            record: recording(record, (w: Written) => answerOf(201, w)),
          }),
        ),
      ),
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
    async (request, reply) => {
      const { databaseId, kind } = principalOf(request);
      const granted = scopes(request);
      return json(reply, 200, await documents.list(databaseId, request.params.collection, request.query, granted?.operation, { kind, user: granted?.userId }));
    },
  );

  api.get(
    '/v1/:collection/docs/:id',
    {
      config: access,
      preParsing: ruled('read'),
      preValidation: collectionName,
      schema: {
        tags,
        summary: 'Get a document',
        description: 'ETag: the version. If-None-Match naming it: 304 with no body.',
        params: DocumentParams,
        querystring: GetQuery,
        response: { 200: DocumentSchema, 304: NoContent, ...errors },
      },
    },
    async (request, reply) => {
      const found = await documents.get(
        principalOf(request).databaseId,
        request.params.collection,
        request.params.id,
        scopes(request)?.operation,
        request.query.fields,
      );
      reply.header('etag', etagOf(found.version));
      // After the rules' 404 (§1.2's order): a 304 tells only what the caller may read.
      if (noneMatchHits(request.headers['if-none-match'], found.version)) return reply.code(304).send();
      return json(reply, 200, found.json!);
    },
  );

  api.patch(
    '/v1/:collection/docs/:id',
    {
      config: access,
      preParsing: ruled('update'),
      preValidation: collectionName,
      schema: {
        tags,
        summary: 'Update a document (JSON Merge Patch, or an update document of operators such as $inc)',
        params: DocumentParams,
        body: PatchBody,
        description:
          "A merge patch, or an update document whose top-level keys are all operators ($set, $unset, $inc, $min, $max, $push, $addToSet, $pull, $currentDate). If-Match: 412 unless the current version is named. 204 with no body: the update was applied, but the collection's read rule hides the result from this public-key caller.",
        response: { 200: DocumentSchema, 204: NoContent, ...errors, ...errorResponses(409, 413, 422), 412: PreconditionFailedResponse },
      },
    },
    async (request, reply) => {
      const ifMatch = parseIfMatch(request.headers['if-match']);
      return idempotently(request, reply, async (record) =>
        answerOf(
          200,
          await documents.patch(principalOf(request).databaseId, request.params.collection, request.params.id, request.body, scopes(request), {
            ifMatch,
            record: recording(record, (w: Written) => answerOf(200, w)),
          }),
        ),
      );
    },
  );

  api.delete(
    '/v1/:collection/docs/:id',
    {
      config: access,
      preParsing: ruled('delete'),
      preValidation: collectionName,
      schema: {
        tags,
        summary: 'Delete a document',
        description: 'If-Match: 412 unless the current version is named.',
        params: DocumentParams,
        response: { 204: NoContent, ...errors, ...errorResponses(409, 422), 412: PreconditionFailedResponse },
      },
    },
    async (request, reply) => {
      const ifMatch = parseIfMatch(request.headers['if-match']);
      const gone = { status: 204, body: null, etag: null };
      return idempotently(request, reply, async (record) => {
        await documents.delete(principalOf(request).databaseId, request.params.collection, request.params.id, scopes(request), {
          ifMatch,
          record: recording(record, () => gone),
        });
        return gone;
      });
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
        response: { 201: BulkResponse, ...errors, ...errorResponses(409, 413, 422) },
      },
    },
    async (request, reply) =>
      idempotently(request, reply, async (record) => {
        const bulk = (body: string) => ({ status: 201, body, etag: null });
        return bulk(
          await documents.bulkCreate(principalOf(request).databaseId, request.params.collection, request.body.documents, scopes(request)?.operation, {
            record: recording(record, bulk),
          }),
        );
      }),
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

  batchRoute(api, { ...deps, callerOf, sessionToken: sessionTokenOf });
}
