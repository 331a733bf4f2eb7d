import { after, before, describe } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import S3rver from 's3rver';
import { forEachStore, type StoreKind } from '../helpers/stores.ts';

export const BYTE_STORES = ['local', 's3'] as const;
export type ByteStoreKind = (typeof BYTE_STORES)[number];

export const sha256 = (b: Buffer | Uint8Array) => createHash('sha256').update(b).digest('hex');

/** A real S3-protocol server (s3rver) on 127.0.0.1, with its data in a temp folder. */
export interface S3Server {
  endpoint: string;
  bucket: string;
  stop(): Promise<void>;
  /** Starts it again on the same port and folder (after stop: the byte store was down). */
  restart(): Promise<void>;
  /** Stops it and removes its folder. */
  dispose(): Promise<void>;
}

export async function startS3(bucket = 'svc-test', port = 0): Promise<S3Server> {
  const directory = mkdtempSync(join(tmpdir(), 'svc-s3-'));
  let server = new S3rver({ port, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  const address = (await server.run()) as { port: number };
  const used = address.port;
  return {
    endpoint: `http://127.0.0.1:${used}`,
    bucket,
    async stop() {
      await close(server);
    },
    async dispose() {
      await close(server).catch(() => undefined);
      rmSync(directory, { recursive: true, force: true });
    },
    async restart() {
      server = new S3rver({ port: used, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
      await server.run();
    },
  };
}

/** Stops an s3rver now: its keep-alive connections (the SDK's) would hold `close` open. */
function close(server: S3rver): Promise<void> {
  const done = server.close();
  server.httpServer?.closeAllConnections();
  return done;
}

/** The environment that points a server at a byte store: a fresh local folder, or the given s3rver. */
export function bytesEnv(kind: ByteStoreKind, s3?: S3Server): Record<string, string> {
  if (kind === 'local') return { STORAGE_URL: `file:${mkdtempSync(join(tmpdir(), 'svc-files-'))}` };
  if (!s3) throw new Error('an s3rver is needed');
  return {
    STORAGE_URL: `s3://${s3.bucket}`,
    S3_ENDPOINT: s3.endpoint,
    S3_REGION: 'us-east-1',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_FORCE_PATH_STYLE: 'true',
  };
}

/**
 * Runs a suite on every database kind and every byte store: `files [sqlite, local]`, … The s3rver
 * is started before the suite and stopped after it.
 */
export function forEachStoreAndBytes(name: string, suite: (kind: StoreKind, env: () => Record<string, string>, bytes: ByteStoreKind) => void): void {
  for (const bytes of BYTE_STORES) {
    forEachStore(`${name} (${bytes} bytes)`, (kind) => {
      describe(`bytes: ${bytes}`, () => {
        let s3: S3Server | undefined;
        let env: Record<string, string> = {};
        before(async () => {
          if (bytes === 's3') s3 = await startS3();
          env = bytesEnv(bytes, s3);
        });
        after(async () => {
          await s3?.dispose();
          if (env.STORAGE_URL?.startsWith('file:')) rmSync(env.STORAGE_URL.slice(5), { recursive: true, force: true });
        });
        suite(kind, () => env, bytes);
      });
    });
  }
}

/** An answer with its bytes. */
export interface ByteResponse {
  status: number;
  headers: Headers;
  bytes: Buffer;
  json: any;
}

/** One request with a byte (or FormData) body, or none; `path` relative to /v1. */
export async function send(
  server: { base: string },
  method: string,
  path: string,
  opts: { key?: string; body?: Buffer | Uint8Array | FormData | string; headers?: Record<string, string>; query?: Record<string, string> } = {},
): Promise<ByteResponse> {
  const u = new URL(server.base + path);
  for (const [k, v] of Object.entries(opts.query ?? {})) u.searchParams.set(k, v);
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  const res = await fetch(u, { method, headers, body: opts.body as BodyInit | undefined });
  const bytes = Buffer.from(await res.arrayBuffer());
  let json: unknown;
  try {
    json = bytes.length ? JSON.parse(bytes.toString('utf8')) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, bytes, json };
}

/** A raw upload: the bytes as the body, the name in the query. */
export function uploadRaw(
  server: { base: string },
  key: string,
  bucket: string,
  bytes: Buffer,
  name: string,
  type = 'application/octet-stream',
  extra: Record<string, string> = {},
) {
  return send(server, 'POST', `/files/${bucket}`, { key, body: bytes, headers: { 'content-type': type, ...extra }, query: { name } });
}
