import { createHash, type Hash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { ApiError } from '../errors.ts';

/** Bytes file-type needs to see to recognise every type §12 names. */
const HEAD_BYTES = 4100;
/**
 * How much the meter lets through before it pushes back on the request. Node's default (16 KiB)
 * is below one socket read (64 KiB), so every chunk paused the request and resumed it on the next
 * tick; the byte store buffers as much (infra/bytes/local.ts), so this holds no more memory.
 */
const PASS_BYTES = 512 * 1024;

/**
 * The bytes of an upload on their way to the byte store: counted, hashed and their head kept
 * for sniffing, in one pass with nothing else held in memory. Past `limit` bytes it fails the
 * stream with 413 at once, so the store drops what it got and the client hears it before it sent
 * everything.
 */
export class Meter extends Transform {
  size = 0;
  private readonly hash: Hash = createHash('sha256');
  private readonly head: Buffer[] = [];
  private headBytes = 0;

  constructor(private readonly limit: number) {
    super({ highWaterMark: PASS_BYTES });
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.limit) {
      done(tooLarge(this.limit));
      return;
    }
    this.hash.update(chunk);
    if (this.headBytes < HEAD_BYTES) {
      // A copy: a view would keep the whole socket read (64 KiB) alive until the upload ends.
      this.head.push(Buffer.from(chunk.subarray(0, HEAD_BYTES - this.headBytes)));
      this.headBytes += Math.min(chunk.length, HEAD_BYTES - this.headBytes);
    }
    done(null, chunk);
  }

  /** The file's first bytes (up to HEAD_BYTES). */
  headBuffer(): Buffer {
    return Buffer.concat(this.head);
  }

  /** Lowercase hex SHA-256 of every byte; call once, after the stream ended. */
  sha256(): string {
    return this.hash.digest('hex');
  }
}

export const tooLarge = (limit: number) =>
  new ApiError('payload_too_large', `A file may have at most ${limit} bytes (LIMIT_FILE_BYTES or the bucket's maxSize)`);
