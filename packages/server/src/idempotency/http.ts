import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.ts';
import { rawJsonBody } from '../http/body.ts';
import type { Queryable } from '../store/store.ts';
import type { IdempotencyKeys, KeyedRequest, RecordedAnswer } from './keys.ts';

/** Who a key belongs to (§1.2): the database, a user, a public key or an operator, and the database its row dies with. */
export interface Caller {
  scope: string;
  databaseId: string;
}

/** Records a route's answer in its write's transaction; undefined when the request carries no key. */
export type Recorder = ((tx: Queryable, answer: RecordedAnswer) => Promise<void>) | undefined;

/** 1..255 printable ASCII characters (§1.2). */
const KEY = /^[\x20-\x7e]{1,255}$/;

/** The Idempotency-Key of a request; undefined when absent, 400 when malformed or repeated. */
function keyOf(request: FastifyRequest): string | undefined {
  const h = request.headers['idempotency-key'];
  if (h === undefined) return undefined;
  if (Array.isArray(h) || !KEY.test(h)) {
    throw new ApiError('validation_failed', 'Idempotency-Key must be 1 to 255 printable ASCII characters', [
      { path: '/headers/idempotency-key', message: 'must be 1 to 255 printable ASCII characters' },
    ]);
  }
  return h;
}

/** What makes two requests the same request: method, path, query, If-Match and the body's bytes. */
function fingerprint(request: FastifyRequest): string {
  const h = createHash('sha256');
  const ifMatch = request.headers['if-match'];
  for (const part of [request.method, request.url, Array.isArray(ifMatch) ? ifMatch.join(',') : (ifMatch ?? ''), rawJsonBody(request)]) {
    h.update(part);
    h.update('\0');
  }
  return h.digest('base64url');
}

/** Sends a recorded (or fresh) answer. */
function send(reply: FastifyReply, answer: RecordedAnswer): FastifyReply {
  if (answer.etag) reply.header('etag', answer.etag);
  if (answer.body === null) return reply.code(answer.status).send();
  return reply.code(answer.status).type('application/json; charset=utf-8').send(answer.body);
}

/**
 * Answers a writing request under its Idempotency-Key, if it has one (§1.2): replays the answer a
 * committed request with the key recorded (`Idempotent-Replayed: true`), or runs the write with a
 * recorder that stores its answer in the write's own transaction (idempotency/keys.ts), and sends
 * that answer. `crashAfterCommit`: tests only (config.testCrashAfterCommitKey).
 */
export async function answerIdempotently(
  keys: IdempotencyKeys,
  request: FastifyRequest,
  reply: FastifyReply,
  caller: () => Promise<Caller>,
  run: (record: Recorder) => Promise<RecordedAnswer>,
  crashAfterCommit?: string,
): Promise<FastifyReply> {
  const key = keyOf(request);
  if (key === undefined) return send(reply, await run(undefined));
  const keyed: KeyedRequest = { ...(await caller()), key, fingerprint: fingerprint(request) };
  const recorded = await keys.answerOf(keyed);
  if (recorded) return send(reply.header('idempotent-replayed', 'true'), recorded);
  const answer = await run((tx, a) => keys.record(tx, keyed, a));
  // Committed with its answer: a crash now must leave the retry a replay (test/multi-instance/safe-writes.test.ts).
  if (crashAfterCommit !== undefined && key === crashAfterCommit) process.kill(process.pid, 'SIGKILL');
  return send(reply, answer);
}
