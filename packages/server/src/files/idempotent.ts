import type { FastifyReply, FastifyRequest } from 'fastify';
import { principalOf } from '../http/auth.ts';
import { claimed, fingerprint, keyOf, type Recorder, scopeOf, send, sendReplay } from '../idempotency/http.ts';
import type { IdempotencyKeys, RecordedAnswer } from '../idempotency/keys.ts';
import type { Transaction } from '../store/store.ts';
import type { FileRecord, StoredFile } from './record.ts';

/** Records a file's creation inside its transaction (FilesService.create). */
export type FileRecorder = (tx: Transaction, stored: StoredFile) => Promise<void>;

/**
 * `Idempotency-Key` on `POST /files/:bucket` (§1.2). The body is streamed to the byte store, so
 * what it was is known only once its bytes are stored: the key is looked up (its answer found)
 * at that point, between the bytes and the record's transaction, which records it. A
 * replay, a 409 or a 422 throws from `create`, and the uploader removes the bytes it just stored.
 *
 * The body's part of the fingerprint is the file's SHA-256 (the meter hashed the bytes on the
 * way), its name, metadata and stored type: the file and what came with it, not the multipart
 * framing, whose boundary a client picks anew for each request it builds (a retry with another
 * boundary is the same upload).
 */
export class UploadKeys {
  /** The answer each keyed request is to send: the one recorded (fresh or replayed). */
  private readonly answers = new WeakMap<FastifyRequest, { answer: RecordedAnswer; replayed: boolean }>();

  constructor(private readonly keys: IdempotencyKeys) {}

  /** 400 for a malformed key, before any byte is read. */
  check(request: FastifyRequest): void {
    keyOf(request);
  }

  /**
   * Creates the record with `create`, under the request's key if it has one; `owner`: the
   * signed-in user of a public key (the key's caller, §1.2). On a replay it writes nothing and
   * returns the recorded file (the route sends the recorded bytes: `reply`).
   */
  async create(request: FastifyRequest, owner: string | null, file: FileRecord, create: (record?: FileRecorder) => Promise<StoredFile>): Promise<StoredFile> {
    const key = keyOf(request);
    if (key === undefined) return create();
    const p = principalOf(request);
    const body = `file\0${file.sha256}\0${file.contentType}\0${file.name}\0${JSON.stringify(file.metadata)}`;
    const keyed = {
      scope: scopeOf(p, p.kind === 'public' ? (owner ?? undefined) : undefined),
      databaseId: p.databaseId,
      key,
      fingerprint: fingerprint(request, body),
    };
    let answer: RecordedAnswer | undefined;
    const done = await claimed(this.keys, keyed, (record: NonNullable<Recorder>) =>
      create((tx, stored) => {
        answer = { status: 201, body: JSON.stringify(stored.file), etag: `"${stored.version}"` };
        return record(tx, answer);
      }),
    );
    if ('replay' in done) {
      this.answers.set(request, { answer: done.replay, replayed: true });
      // Thrown so that the uploader removes the bytes this request stored: the record is the first one's.
      throw new ReplayedUpload();
    }
    this.answers.set(request, { answer: answer!, replayed: false });
    return done.result;
  }

  /** Sends a keyed request's answer (the bytes recorded); undefined for a request without a key. */
  reply(request: FastifyRequest, reply: FastifyReply): FastifyReply | undefined {
    const found = this.answers.get(request);
    if (!found) return undefined;
    return found.replayed ? sendReplay(reply, found.answer) : send(reply, found.answer);
  }
}

/** A keyed upload whose answer is a replay: not an error, the route sends the recorded answer (UploadKeys.reply). */
export class ReplayedUpload extends Error {
  constructor() {
    super('replayed');
  }
}
