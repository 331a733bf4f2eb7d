import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { ApiError } from '../errors.ts';
import { newId } from '../ids/ids.ts';
import type { ByteStore } from '../infra/bytes/bytes.ts';
import type { FileScope } from './access.ts';
import type { UploadKeys } from './idempotent.ts';
import { filePrefix, originalKey } from './keys.ts';
import { Meter, tooLarge } from './meter.ts';
import { checkFileName } from './names.ts';
import type { FileRecord, StoredFile } from './record.ts';
import type { FilesService } from './service.ts';
import { bucketSettings, typeAllowed } from './settings.ts';
import { cannotPass } from './early-refusal.ts';
import { declaredType, SNIFFED_TYPES, storedType } from './sniff.ts';
import { multipartIncoming, type Incoming } from './upload.ts';

/** Who uploads, as the routes resolved it. */
interface Uploader {
  databaseId: string;
  settings: string;
  owner: string | null;
  /** Public keys: the create rule; undefined for a secret key or an operator. */
  scope: FileScope | undefined;
}

/**
 * One upload, in §12's order: checks that need no body (encoding, a Content-Length over the
 * limit, a create rule no upload of this size could pass), then the bytes streamed to the byte
 * store (counted, hashed, sniffed on the way: nothing grows with the file), then the checks on
 * the final record (bucket types, the create rule), then the record and its event in one
 * transaction with the quota. Any refusal after the bytes were stored removes them; if even that
 * fails (the byte store went away), the sweep removes them later.
 */
export class Uploads {
  constructor(
    private readonly deps: { bytes: ByteStore; service: FilesService; keys: UploadKeys; maxFileBytes: number; log: FastifyBaseLogger; now: () => string },
  ) {}

  async upload(request: FastifyRequest, who: Uploader, bucket: string, query: { name?: string }): Promise<StoredFile> {
    const encoding = request.headers['content-encoding'];
    if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') {
      throw new ApiError('unsupported_media_type', 'Send the file as it is: a Content-Encoding other than identity is not accepted');
    }
    const conf = bucketSettings(who.settings, bucket);
    const limit = Math.min(this.deps.maxFileBytes, conf.maxSize ?? Number.POSITIVE_INFINITY);
    const multipart = request.isMultipart();
    const length = request.headers['content-length'] === undefined ? undefined : Number(request.headers['content-length']);
    if (!multipart && length !== undefined && length > limit) throw tooLarge(limit);
    if (query.name !== undefined) checkFileName(query.name);
    const now = this.deps.now();
    const draft = (contentType: string, size: number, name: string, metadata: FileRecord['metadata']): FileRecord => ({
      id: '',
      bucket,
      name,
      contentType,
      size,
      sha256: '',
      owner: who.owner,
      metadata,
      createdAt: now,
      updatedAt: now,
    });
    if (!multipart) {
      checkFileName(query.name);
      // Refused before the body when no upload of this size and owner could pass the create rule, whatever its bytes show.
      const declared = declaredType(request.headers['content-type']);
      if (who.scope && length !== undefined && ![declared, ...SNIFFED_TYPES].some((t) => who.scope!.matches(draft(t, length, query.name!, {})))) {
        throw forbidden(bucket);
      }
    }
    if (multipart && who.scope?.filter && cannotPass(who.scope.filter, { owner: who.owner, name: query.name, maxSize: Math.min(limit, length ?? limit) })) {
      // Likewise for multipart, from what its headers show (early-refusal.ts).
      throw forbidden(bucket);
    }
    const incoming: Incoming = multipart
      ? await multipartIncoming(request, query.name)
      : { stream: request.body as Readable, declaredType: request.headers['content-type'], name: query.name, metadata: {} };
    const name = checkFileName(incoming.name);
    const id = newId();
    const meter = new Meter(limit);
    await this.store(originalKey(who.databaseId, id), incoming.stream, meter);
    const remove = () => this.removeBytes(filePrefix(who.databaseId, id));
    try {
      await incoming.rest?.();
      const contentType = await storedType(meter.headBuffer(), incoming.declaredType);
      if (!typeAllowed(conf, contentType)) {
        throw new ApiError('unsupported_media_type', `The bucket '${bucket}' does not accept ${contentType} (its contentTypes setting)`);
      }
      const file: FileRecord = { ...draft(contentType, meter.size, name, incoming.metadata), id, sha256: meter.sha256() };
      if (who.scope && !who.scope.matches(file)) throw forbidden(bucket);
      return await this.deps.keys.create(request, who.owner, file, (record) => this.deps.service.create(who.databaseId, file, record));
    } catch (e) {
      await remove();
      throw e;
    }
  }

  /** Streams the body through the meter into the store; the meter's 413 wins over the store's own failure. */
  private async store(key: string, source: Readable, meter: Meter): Promise<void> {
    let failure: unknown;
    const fail = (e: unknown) => {
      failure ??= e;
      meter.destroy(e as Error);
    };
    meter.once('error', (e) => {
      failure ??= e;
    });
    // The client's stream failing (a reset connection) is the client's end of the upload, not a server error.
    source.once('error', () => fail(new ApiError('bad_request', 'The upload ended before its last byte')));
    // A client gone mid-upload: its stream closes without ending, and the store must not wait on.
    source.once('close', () => {
      if (!source.readableEnded) fail(new ApiError('bad_request', 'The upload ended before its last byte'));
    });
    source.pipe(meter);
    try {
      await this.deps.bytes.put(key, meter);
    } catch (e) {
      source.unpipe(meter);
      throw failure instanceof ApiError ? failure : e;
    }
    if (failure) throw failure;
  }

  private async removeBytes(prefix: string): Promise<void> {
    try {
      await this.deps.bytes.removePrefix(prefix);
    } catch (err) {
      this.deps.log.warn({ err, prefix }, 'bytes of a refused upload not removed; the sweep will');
    }
  }
}

const forbidden = (bucket: string) => new ApiError('forbidden', `The rules of the bucket '${bucket}' do not allow this upload`);
