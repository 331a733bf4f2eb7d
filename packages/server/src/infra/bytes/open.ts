import type { FilesConfig } from '../../config.ts';
import type { ByteStore } from './bytes.ts';
import { localByteStore } from './local.ts';
import { s3ByteStore } from './s3.ts';

/** The byte store STORAGE_URL names: `file:<dir>` or `s3://<bucket>` (with the S3_* settings). */
export function openByteStore(config: FilesConfig): ByteStore {
  const url = config.storageUrl;
  if (url.startsWith('s3://')) return s3ByteStore({ bucket: url.slice('s3://'.length).replace(/\/$/, ''), ...config.s3 });
  return localByteStore(url.slice('file:'.length));
}
