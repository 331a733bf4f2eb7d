import type { ErrorDetail } from '../errors.ts';
import { isObject } from '../json/merge-patch.ts';
import { collectionNameProblem } from '../documents/names.ts';
import { parseThumb } from './thumb-spec.ts';

/** One bucket's settings (API.md §12: `settings.files.<bucket>`). */
export interface BucketSettings {
  /** Bytes; at most LIMIT_FILE_BYTES counts. */
  maxSize?: number;
  /** Accepted types: `image/*` or exact types; absent: any. */
  contentTypes?: string[];
  /** Thumbnail sizes made besides 100x100. */
  thumbs?: string[];
  /** Served to anyone at /v1/public/… */
  public?: boolean;
}

export type FilesSettings = Record<string, BucketSettings>;

const KEYS = new Set(['maxSize', 'contentTypes', 'thumbs', 'public']);
const TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/([a-z0-9][a-z0-9!#$&^_.+-]*|\*)$/;

/** Checks `settings.files`, adding a detail per problem; returns it when valid (undefined: absent). */
export function checkFilesSettings(value: unknown, details: ErrorDetail[]): FilesSettings | undefined {
  if (value === undefined || value === null) return undefined;
  const at = '/settings/files';
  if (!isObject(value)) {
    details.push({ path: at, message: 'must be an object keyed by bucket name' });
    return undefined;
  }
  for (const [bucket, conf] of Object.entries(value)) {
    const path = `${at}/${bucket}`;
    const problem = collectionNameProblem(bucket);
    if (problem) details.push({ path, message: `is not a bucket name: ${problem}` });
    else if (!isObject(conf)) details.push({ path, message: 'must be {maxSize, contentTypes, thumbs, public}' });
    else
      for (const [k, v] of Object.entries(conf)) {
        if (!KEYS.has(k)) details.push({ path: `${path}/${k}`, message: 'is not a setting' });
        else if (k === 'maxSize' && !(Number.isInteger(v) && (v as number) >= 1)) details.push({ path: `${path}/${k}`, message: 'must be an integer ≥ 1' });
        else if (k === 'public' && typeof v !== 'boolean') details.push({ path: `${path}/${k}`, message: 'must be true or false' });
        else if (k === 'contentTypes' && !(Array.isArray(v) && v.every((t) => typeof t === 'string' && TYPE.test(t.toLowerCase()))))
          details.push({ path: `${path}/${k}`, message: 'must be a list of types such as "image/*" or "application/pdf"' });
        else if (k === 'thumbs' && !(Array.isArray(v) && v.length <= 32 && v.every((t) => typeof t === 'string' && parseThumb(t))))
          details.push({ path: `${path}/${k}`, message: 'must be a list of sizes such as "400x300", "200x0" or "400x300f" (sides 0..2048)' });
      }
  }
  return value as FilesSettings;
}

/**
 * The `files` of the settings text parsed last: every upload and download reads its bucket's
 * settings, and a database's settings text rarely changes, so it is parsed once per text, not per
 * request. One entry: a change of text (another database, new settings) replaces it.
 */
let lastParsed: { text: string; files: unknown } | undefined;

function filesOf(settingsText: string): unknown {
  if (lastParsed?.text !== settingsText) {
    let files: unknown;
    try {
      files = (JSON.parse(settingsText) as { files?: unknown }).files;
    } catch {
      // Settings are validated when written.
    }
    lastParsed = { text: settingsText, files };
  }
  return lastParsed.files;
}

/** A bucket's settings from the database's settings (JSON text). Read only: shared between requests. */
export function bucketSettings(settingsText: string | undefined, bucket: string): Readonly<BucketSettings> {
  if (!settingsText) return {};
  const files = filesOf(settingsText);
  if (isObject(files) && Object.hasOwn(files, bucket) && isObject(files[bucket])) return files[bucket] as BucketSettings;
  return {};
}

/** Whether a bucket's `contentTypes` allows a type. */
export function typeAllowed(settings: BucketSettings, type: string): boolean {
  if (!settings.contentTypes) return true;
  return settings.contentTypes.some((t) => {
    const allowed = t.toLowerCase();
    return allowed.endsWith('/*') ? type.startsWith(allowed.slice(0, -1)) : type === allowed;
  });
}
