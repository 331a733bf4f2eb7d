import { hash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.ts';
import { rawJsonBody } from '../http/body.ts';
import type { Transaction } from '../store/store.ts';
import type { Principal } from '../http/auth.ts';
import type { IdempotencyKeys, KeyedRequest, RecordedAnswer } from './keys.ts';

/** Who a key belongs to (§1.2): the database, a user, a public key or an operator, and the database its row dies with. */
export interface Caller {
  scope: string;
  databaseId: string;
}

/** Records a route's answer in its write's transaction; undefined when the request carries no key. */
export type Recorder = ((tx: Transaction, answer: RecordedAnswer) => Promise<void>) | undefined;

/** 1..255 printable ASCII characters (§1.2). */
const KEY = /^[\x20-\x7e]{1,255}$/;

/** The Idempotency-Key of a request; undefined when absent, 400 when malformed or repeated. */
export function keyOf(request: FastifyRequest): string | undefined {
  const h = request.headers['idempotency-key'];
  if (h === undefined) return undefined;
  if (Array.isArray(h) || !KEY.test(h)) {
    throw new ApiError('validation_failed', 'Idempotency-Key must be 1 to 255 printable ASCII characters', [
      { path: '/headers/idempotency-key', message: 'must be 1 to 255 printable ASCII characters' },
    ]);
  }
  return h;
}

/**
 * Who a key belongs to (§1.2): the operator (per database), the database (a secret key), the
 * signed-in user (a public key with a live session: `userId`), or the public key.
 */
export function scopeOf(p: Principal, userId: string | undefined): string {
  if (p.operatorId) return `operator:${p.operatorId}:${p.databaseId}`;
  if (p.kind === 'secret') return `database:${p.databaseId}`;
  return userId ? `user:${p.databaseId}:${userId}` : `key:${p.keyId}`;
}

/**
 * What makes two requests the same request: method, path, query, If-Match and the body's bytes
 * (`body`: the JSON body's text, or what stands for a streamed body's bytes: files/idempotent.ts).
 */
export function fingerprint(request: FastifyRequest, body = rawJsonBody(request)): string {
  const ifMatch = request.headers['if-match'];
  const m = Array.isArray(ifMatch) ? ifMatch.join(',') : (ifMatch ?? '');
  // One call over the parts, each followed by a NUL: the digest of the same bytes as hashing them one by one.
  return hash('sha256', `${request.method}\0${request.url}\0${m}\0${body}\0`, 'base64url');
}

/** Sends a recorded (or fresh) answer. */
export function send(reply: FastifyReply, answer: RecordedAnswer): FastifyReply {
  if (answer.etag) reply.header('etag', answer.etag);
  if (answer.body === null) return reply.code(answer.status).send();
  return reply.code(answer.status).type('application/json; charset=utf-8').send(answer.body);
}

/**
 * Answers a writing request under its Idempotency-Key, if it has one (§1.2): runs the write with
 * a recorder of the caller's key for its transaction, and sends its answer; replays a
 * recorded answer with `Idempotent-Replayed: true`.
 * `crashAfterCommit`: tests only (config.testCrashAfterCommitKey).
 */
export async function answerIdempotently(
  keys: IdempotencyKeys,
  request: FastifyRequest,
  reply: FastifyReply,
  caller: () => Caller | Promise<Caller>,
  run: (record: Recorder) => Promise<RecordedAnswer>,
  crashAfterCommit?: string,
): Promise<FastifyReply> {
  const key = keyOf(request);
  if (key === undefined) return send(reply, await run(undefined));
  // A promise only where the caller is a signed-in user, whose session is looked up.
  const found = caller();
  const { scope, databaseId } = found instanceof Promise ? await found : found;
  const done = await claimed(keys, { scope, databaseId, key, fingerprint: fingerprint(request) }, run);
  if ('replay' in done) return sendReplay(reply, done.replay);
  // Committed with its answer: a crash now must leave the retry a replay (test/multi-instance/safe-writes.test.ts).
  if (crashAfterCommit !== undefined && key === crashAfterCommit) process.kill(process.pid, 'SIGKILL');
  return send(reply, done.result);
}

/** Sends a recorded answer again, saying so. */
export const sendReplay = (reply: FastifyReply, answer: RecordedAnswer): FastifyReply => send(reply.header('idempotent-replayed', 'true'), answer);

/**
 * Runs the write with the recorder of its transaction, which records the key with its answer; if
 * it fails, what an earlier request with the key left decides (IdempotencyKeys.afterFailure): its
 * answer to replay (nothing was written), 422 for another fingerprint, 409 while it runs, or the
 * write's own error.
 */
export async function claimed<T>(
  keys: IdempotencyKeys,
  r: KeyedRequest,
  run: (record: NonNullable<Recorder>) => Promise<T>,
): Promise<{ replay: RecordedAnswer } | { result: T }> {
  try {
    return { result: await run((tx, a) => keys.record(r, tx, a)) };
  } catch (e) {
    return { replay: await keys.afterFailure(r, e) };
  }
}
