import type { Readable } from 'node:stream';
import { DeleteObjectsCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, NoSuchKey, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { ByteStore, StoredObject } from './bytes.ts';

interface S3Options {
  bucket: string;
  endpoint?: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
}

/**
 * Bytes in an S3-compatible store (AWS S3, MinIO, Garage, Ceph, R2), through the maintained AWS
 * SDK: `Upload` streams a body of unknown length in parts (a few MiB in memory at a time).
 * Checksums only WHEN_REQUIRED: the SDK's default aws-chunked framing with trailing checksums is
 * not understood by every S3-compatible server (s3rver stores the framing as the bytes).
 */
export function s3ByteStore(options: S3Options): ByteStore {
  const client = new S3Client({
    endpoint: options.endpoint,
    region: options.region,
    forcePathStyle: options.forcePathStyle,
    credentials: options.accessKeyId ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey ?? '' } : undefined,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // A store that is down must fail a request, not hold it: the deletion job retries later.
    maxAttempts: 2,
  });
  const Bucket = options.bucket;
  return {
    kind: 's3',
    async put(key, body) {
      const upload = new Upload({ client, params: { Bucket, Key: key, Body: body }, queueSize: 2, partSize: 5 * 1024 * 1024, leavePartsOnError: false });
      // A failing body must fail the upload (lib-storage otherwise waits for data that never comes).
      const failed = new Promise<never>((_, reject) => body.once('error', reject));
      try {
        await Promise.race([upload.done(), failed]);
      } catch (e) {
        await upload.abort().catch(() => undefined);
        throw e;
      }
    },
    async get(key, range) {
      try {
        const out = await client.send(new GetObjectCommand({ Bucket, Key: key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }));
        return out.Body as Readable;
      } catch (e) {
        if (e instanceof NoSuchKey || (e as { name?: string }).name === 'NoSuchKey') return undefined;
        throw e;
      }
    },
    async size(key) {
      try {
        return (await client.send(new HeadObjectCommand({ Bucket, Key: key }))).ContentLength;
      } catch (e) {
        if ((e as { name?: string }).name === 'NotFound' || (e as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404)
          return undefined;
        throw e;
      }
    },
    async removePrefix(prefix) {
      for await (const keys of pages(prefix)) {
        if (keys.length) await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: keys.map((o) => ({ Key: o.key })), Quiet: true } }));
      }
    },
    async *list(): AsyncIterable<StoredObject> {
      for await (const keys of pages('')) yield* keys;
    },
    async close() {
      client.destroy();
    },
  };

  async function* pages(prefix: string): AsyncIterable<StoredObject[]> {
    let token: string | undefined;
    do {
      const out = await client.send(new ListObjectsV2Command({ Bucket, Prefix: prefix || undefined, ContinuationToken: token }));
      yield (out.Contents ?? []).map((o) => ({ key: o.Key ?? '', modifiedAt: o.LastModified?.getTime() ?? Date.now() }));
      token = out.IsTruncated ? out.NextContinuationToken : undefined;
    } while (token);
  }
}
