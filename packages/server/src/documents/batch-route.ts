import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import { ApiError } from '../errors.ts';
import { principalOf } from '../http/auth.ts';
import { answerIdempotently, type Caller } from '../idempotency/http.ts';
import type { IdempotencyKeys } from '../idempotency/keys.ts';
import type { Operation } from '../rules/rules.ts';
import { checkCollection } from './names.ts';
import { ifMatchOf } from './preconditions.ts';
import type { DocumentRules, Scopes } from './rule-access.ts';
import { DocumentBody, PatchBody } from './schemas.ts';
import type { DocumentsService } from './service.ts';
import type { WriteStep, Written } from './versions.ts';

const Target = { collection: Type.String(), id: Type.String() };
const IfMatchField = Type.String({ minLength: 1, description: 'A bare version, or "*"' });
const BatchOperation = Type.Union([
  Type.Object({ op: Type.Literal('create'), collection: Type.String(), document: DocumentBody }, { additionalProperties: false }),
  Type.Object({ op: Type.Literal('update'), ...Target, patch: PatchBody, ifMatch: Type.Optional(IfMatchField) }, { additionalProperties: false }),
  Type.Object({ op: Type.Literal('delete'), ...Target, ifMatch: Type.Optional(IfMatchField) }, { additionalProperties: false }),
  Type.Object({ op: Type.Literal('check'), ...Target, ifMatch: IfMatchField }, { additionalProperties: false }),
]);
const BatchBody = Type.Object({ operations: Type.Array(BatchOperation, { minItems: 1 }) });
const BatchResult = Type.Object({
  status: Type.Integer(),
  document: Type.Optional(Type.Object({}, { additionalProperties: true })),
  version: Type.Optional(Type.String()),
});
const BatchResponse = Type.Object({ results: Type.Array(BatchResult) });
/** A failed batch: the §0 error, its one detail naming the operation (a 412's with the committed `version`). */
const BatchError = Type.Object({
  error: Type.Object({
    code: Type.String(),
    message: Type.String(),
    details: Type.Optional(Type.Array(Type.Object({ path: Type.String(), message: Type.String(), version: Type.Optional(Type.String()) }))),
  }),
  retryAfter: Type.Optional(Type.Integer()),
});
const batchErrors = Object.fromEntries([400, 401, 403, 404, 409, 412, 413, 422].map((s) => [s, BatchError]));

type Op = Static<typeof BatchOperation>;
/** The §10 operation each batch operation is judged as. */
const RULE_OF: Record<Op['op'], Operation> = { create: 'create', update: 'update', delete: 'delete', check: 'read' };

/** A failure of operation `index`: its status and code, `details` naming it (a 412 adds the committed version). */
function atOperation(e: unknown, index: number): unknown {
  if (!(e instanceof ApiError)) return e;
  const version = e.code === 'precondition_failed' ? (e.headers?.etag ?? '').replace(/"/g, '') : undefined;
  const { retryAfter } = e.extra ?? {};
  return new ApiError(
    e.code,
    `Operation ${index}: ${e.message}`,
    [{ path: `operations.${index}`, message: e.message, ...(version ? { version } : {}) }],
    retryAfter === undefined ? undefined : { retryAfter },
    e.status,
  );
}

/** The `results` entry of an operation. */
function resultOf(op: Op['op'], w: Written | undefined): string {
  if (op === 'delete' || !w) return '{"status":204}';
  if (op === 'check') return `{"status":200,"version":${JSON.stringify(w.version)}}`;
  if (w.json === undefined) return '{"status":204}';
  return `{"status":${op === 'create' ? 201 : 200},"document":${w.json},"version":${JSON.stringify(w.version)}}`;
}

interface BatchRouteDeps {
  documents: DocumentsService;
  rules: DocumentRules;
  idempotency: IdempotencyKeys;
  batchOperations: number;
  crashAfterCommit?: string;
  callerOf: (request: FastifyRequest) => () => Caller | Promise<Caller>;
  sessionToken: (request: FastifyRequest) => string | undefined;
}

/**
 * `POST /batch` (API.md §1.2): 1..LIMIT_BATCH_OPERATIONS operations in one transaction of the
 * database's commit group, in order, all or nothing, each judged by §10 as its single route would
 * be. Every operation is checked (its body, its collection, the rules that decide before a
 * document is read) before any runs; the first that fails fails the batch.
 */
export function batchRoute(app: FastifyInstance, deps: BatchRouteDeps): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  api.post(
    '/v1/batch',
    {
      config: { access: 'key' },
      schema: {
        tags: ['documents'],
        summary: 'Several writes and checks, all or nothing',
        body: BatchBody,
        response: { 200: BatchResponse, ...batchErrors },
      },
    },
    async (request, reply) => {
      const { databaseId, kind } = principalOf(request);
      const { operations } = request.body;
      if (operations.length > deps.batchOperations) {
        throw new ApiError('payload_too_large', `A batch takes at most ${deps.batchOperations} operations (the server's LIMIT_BATCH_OPERATIONS): split it`);
      }
      const token = deps.sessionToken(request);
      const steps: Array<WriteStep<Written | undefined>> = [];
      for (const [i, op] of operations.entries()) {
        try {
          checkCollection(op.collection);
          const scopes: Scopes | undefined = kind === 'public' ? await deps.rules.scopes(databaseId, op.collection, RULE_OF[op.op], token) : undefined;
          const step = stepOf(deps.documents, databaseId, op, scopes);
          steps.push(async (tx, stamp) => {
            try {
              return await step(tx, stamp);
            } catch (e) {
              throw atOperation(e, i);
            }
          });
        } catch (e) {
          throw atOperation(e, i);
        }
      }
      const body = (results: Array<Written | undefined>) => `{"results":[${results.map((w, i) => resultOf(operations[i].op, w)).join(',')}]}`;
      return answerIdempotently(
        deps.idempotency,
        request,
        reply,
        deps.callerOf(request),
        async (record) => ({
          status: 200,
          body: body(
            await deps.documents.writeAll(databaseId, steps, record && ((tx, results) => record(tx, { status: 200, body: body(results), etag: null }))),
          ),
          etag: null,
        }),
        deps.crashAfterCommit,
      );
    },
  );
}

/** The write step of one operation (its body checked now, before anything runs). */
function stepOf(documents: DocumentsService, databaseId: string, op: Op, scopes: Scopes | undefined): WriteStep<Written | undefined> {
  switch (op.op) {
    case 'create':
      // Inserted at once (not at the group's end): later operations of the batch must find it.
      return documents.createStep(databaseId, op.collection, op.document, scopes?.operation, false);
    case 'update':
      return documents.updateStep(databaseId, op.collection, op.id, op.patch, scopes, op.ifMatch === undefined ? undefined : ifMatchOf(op.ifMatch));
    case 'delete':
      return documents.deleteStep(databaseId, op.collection, op.id, scopes, op.ifMatch === undefined ? undefined : ifMatchOf(op.ifMatch));
    case 'check':
      return documents.checkStep(databaseId, op.collection, op.id, scopes?.operation, ifMatchOf(op.ifMatch));
  }
}
