import { availableParallelism } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { ApiError } from '../errors.ts';
import type { ByteStore } from '../infra/bytes/bytes.ts';
import type { Clock } from '../infra/clock.ts';
import type { Store } from '../store/store.ts';
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

/** How long a claim holds before another instance may take it over (a making takes well under a second; 40 megapixels, a few). */
const CLAIM_MS = 30_000;
/** How often an instance that did not get the claim looks whether the thumbnail is there yet. */
const POLL_MS = 50;

const refuse = (message: string) => new ApiError('validation_failed', message, [{ path: '/thumb', message }]);

/**
 * Thumbnails with sharp: made once and kept in the byte store beside the original (deleted with
 * it, by the same prefix). At most `workers` are made at a time (each libvips job single-threaded),
 * so a burst of thumbnails cannot take every core.
 *
 * Made once, across instances too (§12): concurrent requests on one instance share one making
 * (`making`); between instances, the one that inserts the thumbnail's row in `file_thumb_claims`
 * makes it, and the others wait until it is in the byte store. A row claim rather than the other
 * ways to agree: a PostgreSQL advisory lock would hold a transaction (and, on SQLite, the one
 * write lock) open for the whole making, and only on one dialect; a conditional create in the
 * byte store (S3's If-None-Match) is not offered by every S3-compatible server. The row has a
 * lease, as file jobs and webhook deliveries do, so an instance that dies mid-making delays the
 * thumbnail by at most CLAIM_MS, never forever.
 */
export class Thumbnails {
  private readonly making = new Map<string, Promise<number>>();
  private readonly waiting: Array<() => void> = [];
  private running = 0;
  private readonly workers = Math.max(1, Math.floor(availableParallelism() / 2));

  constructor(
    private readonly bytes: ByteStore,
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
  ) {
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
      pending = this.once(databaseId, file, spec, key).finally(() => this.making.delete(key));
      this.making.set(key, pending);
    }
    return pending;
  }

  /** Makes the thumbnail if this instance gets its claim, else waits for the instance that got it. */
  private async once(databaseId: string, file: FileRecord, spec: ThumbSpec, key: string): Promise<number> {
    for (;;) {
      if (await this.claim(databaseId, file.id, spec.text)) {
        try {
          // Made by another instance between the first look and the claim?
          const kept = await this.bytes.size(key);
          if (kept !== undefined) return kept;
          const size = await this.pooled(() => this.make(databaseId, file, spec, key));
          this.log.info({ databaseId, file: file.id, thumb: spec.text }, 'thumbnail made');
          return size;
        } finally {
          await this.release(databaseId, file.id, spec.text);
        }
      }
      // Another instance holds the claim until its thumbnail is stored whole (a store may show an
      // object while it is being written: s3rver does), so the byte store is asked only once the
      // claim is gone; no thumbnail then (that making failed, or its lease expired): claim again.
      while (await this.claimed(databaseId, file.id, spec.text)) await sleep(POLL_MS);
      const kept = await this.bytes.size(key);
      if (kept !== undefined) return kept;
    }
  }

  /** Inserts the claim row (an expired one is taken over); true when this instance holds it now. */
  private async claim(databaseId: string, fileId: string, thumb: string): Promise<boolean> {
    const now = new Date(this.clock.now()).toISOString();
    await this.store.run('DELETE FROM file_thumb_claims WHERE database_id = ? AND file_id = ? AND thumb = ? AND lease_until <= ?', [
      databaseId,
      fileId,
      thumb,
      now,
    ]);
    const inserted = await this.store.run(
      'INSERT INTO file_thumb_claims (database_id, file_id, thumb, lease_until) VALUES (?, ?, ?, ?) ON CONFLICT (database_id, file_id, thumb) DO NOTHING',
      [databaseId, fileId, thumb, new Date(this.clock.now() + CLAIM_MS).toISOString()],
    );
    return inserted === 1;
  }

  /** Whether a live claim on the thumbnail is held (by another instance: this one's are awaited in `making`). */
  private async claimed(databaseId: string, fileId: string, thumb: string): Promise<boolean> {
    const row = await this.store.get('SELECT 1 AS x FROM file_thumb_claims WHERE database_id = ? AND file_id = ? AND thumb = ? AND lease_until > ?', [
      databaseId,
      fileId,
      thumb,
      new Date(this.clock.now()).toISOString(),
    ]);
    return row !== undefined;
  }

  private async release(databaseId: string, fileId: string, thumb: string): Promise<void> {
    try {
      await this.store.run('DELETE FROM file_thumb_claims WHERE database_id = ? AND file_id = ? AND thumb = ?', [databaseId, fileId, thumb]);
    } catch (err) {
      // The lease ends it.
      this.log.warn({ err, databaseId, file: fileId, thumb }, 'thumbnail claim not released; it expires');
    }
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
