import { availableParallelism } from 'node:os';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { ApiError } from '../errors.ts';
import type { ByteStore } from '../infra/bytes/bytes.ts';
import type { FileRecord } from './record.ts';
import { originalKey, thumbKey } from './keys.ts';
import type { ThumbSpec } from './thumb-spec.ts';

/** §12: only images whose header declares at most this many pixels are decoded. */
const MAX_PIXELS = 40_000_000;
/** Formats a thumbnail is made of; the decoder is picked by the sniffed type, so SVG (external references) never is. */
const SOURCES = new Map<string, 'png' | 'jpeg' | 'webp' | 'avif'>([
  ['image/png', 'png'],
  ['image/jpeg', 'jpeg'],
  ['image/webp', 'webp'],
  ['image/avif', 'avif'],
  ['image/gif', 'png'], // a GIF's thumbnail is a PNG of its first frame
]);

const refuse = (message: string) => new ApiError('validation_failed', message, [{ path: '/thumb', message }]);

/**
 * Thumbnails with sharp: made once and kept in the byte store beside the original (deleted with
 * it, by the same prefix). Concurrent requests for one thumbnail on this instance share one
 * making; at most `workers` are made at a time (each libvips job single-threaded), so a burst of
 * thumbnails cannot take every core. Two instances may each make the same one once: same bytes.
 */
export class Thumbnails {
  private readonly making = new Map<string, Promise<number>>();
  private readonly waiting: Array<() => void> = [];
  private running = 0;
  private readonly workers = Math.max(1, Math.floor(availableParallelism() / 2));

  constructor(private readonly bytes: ByteStore) {
    sharp.concurrency(1);
    sharp.cache(false);
  }

  /** The thumbnail's type, or a 400 when the file cannot have one. */
  typeOf(file: FileRecord): string {
    const format = SOURCES.get(file.contentType);
    if (!format) throw refuse('Thumbnails are made of JPEG, PNG, WebP, GIF and AVIF images only');
    return `image/${format}`;
  }

  /** The size of the kept thumbnail, made first if needed. */
  async ensure(databaseId: string, file: FileRecord, spec: ThumbSpec): Promise<number> {
    const key = thumbKey(databaseId, file.id, spec.text);
    const kept = await this.bytes.size(key);
    if (kept !== undefined) return kept;
    let pending = this.making.get(key);
    if (!pending) {
      pending = this.pooled(() => this.make(databaseId, file, spec, key)).finally(() => this.making.delete(key));
      this.making.set(key, pending);
    }
    return pending;
  }

  private async pooled<T>(fn: () => Promise<T>): Promise<T> {
    if (this.running >= this.workers) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running++;
    try {
      return await fn();
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }

  /**
   * Reading the original may fail on the way (an S3 connection reset mid-body, which the SDK does
   * not retry once the answer began): such a failure is tried once more; a refusal of the image is not.
   */
  private async make(databaseId: string, file: FileRecord, spec: ThumbSpec, key: string): Promise<number> {
    try {
      return await this.makeOnce(databaseId, file, spec, key);
    } catch (e) {
      if (e instanceof ApiError) throw e;
      return this.makeOnce(databaseId, file, spec, key);
    }
  }

  private async makeOnce(databaseId: string, file: FileRecord, spec: ThumbSpec, key: string): Promise<number> {
    const format = SOURCES.get(file.contentType)!;
    const source = await this.bytes.get(originalKey(databaseId, file.id));
    if (!source) throw new ApiError('not_found', 'The file is gone');
    let readFailure: unknown;
    const pipeline = sharp({ limitInputPixels: MAX_PIXELS, pages: 1, failOn: 'error' })
      .rotate()
      .resize({ width: spec.width || undefined, height: spec.height || undefined, fit: spec.fit, withoutEnlargement: false })
      .toFormat(format);
    source.pipe(pipeline);
    source.once('error', (e) => {
      readFailure = e;
      pipeline.destroy(e);
    });
    let out: Buffer;
    try {
      out = await pipeline.toBuffer();
    } catch {
      source.destroy();
      if (readFailure) throw readFailure;
      throw refuse(`The image cannot be made into a thumbnail (over ${MAX_PIXELS / 1e6} megapixels, or not a valid image)`);
    }
    await this.bytes.put(key, Readable.from([out]));
    return out.length;
  }
}
