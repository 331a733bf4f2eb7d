import type { FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import type { MultipartFile, MultipartValue } from '@fastify/multipart';
import { ApiError } from '../errors.ts';
import { checkFields } from '../documents/fields.ts';
import { isObject, type JsonObject } from '../json/merge-patch.ts';

/** §12: a file's metadata is a JSON object of at most 16 KiB. */
const MAX_METADATA_BYTES = 16 * 1024;

/** What an upload request holds: the file's bytes as a stream, and what the client said about them. */
export interface Incoming {
  stream: Readable;
  declaredType: string | undefined;
  /** The name from the query or the file part (not yet checked when from the part). */
  name: string | undefined;
  metadata: JsonObject;
  /** Multipart only: resolves when the request is read to its end, rejecting when more parts followed the file. */
  rest?: () => Promise<void>;
}

const invalid = (message: string, path = '/body') => new ApiError('validation_failed', message, [{ path, message }]);

/** Checks the `metadata` part's JSON: an object within 16 KiB whose keys obey §1's field rules. */
export function checkMetadata(value: unknown, path = '/metadata'): JsonObject {
  if (!isObject(value)) throw invalid('metadata must be a JSON object', path);
  if (Buffer.byteLength(JSON.stringify(value)) > MAX_METADATA_BYTES)
    throw new ApiError('payload_too_large', `metadata may have at most ${MAX_METADATA_BYTES} bytes of JSON`);
  checkFields(value);
  return value;
}

/** Maps @fastify/multipart's and busboy's refusals onto §12's 400. */
function multipartError(e: unknown): unknown {
  if (e instanceof ApiError) return e;
  const code = (e as { code?: string }).code;
  if (typeof code === 'string' && code.startsWith('FST_')) return invalid(`The multipart body is not as §12 asks: ${(e as Error).message}`);
  if (e instanceof Error && /multipart|boundary|part/i.test(e.message)) return invalid(`The multipart body is malformed: ${e.message}`);
  return e;
}

/**
 * Reads a multipart upload up to its `file` part: at most one `metadata` part (JSON) first, then
 * exactly one `file` part; anything else → 400. The file's bytes are not read here: the caller
 * streams them to the byte store, then calls `rest` to make sure nothing follows.
 */
export async function multipartIncoming(request: FastifyRequest, queryName: string | undefined): Promise<Incoming> {
  const extendedName = watchExtendedName(request);
  const parts = request.parts({ preservePath: true, limits: { fieldSize: 1024 * 1024, parts: 4, files: 2, fields: 2 } });
  // Iterated by hand: leaving a for-await loop at the file part would end the generator, and the
  // parts after the file must still be read (to refuse them).
  const iterator = parts[Symbol.asyncIterator]();
  let metadata: JsonObject = {};
  let sawMetadata = false;
  try {
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      const part = next.value;
      if (part.type === 'field') {
        const field = part as MultipartValue;
        if (field.fieldname !== 'metadata' || sawMetadata)
          throw invalid(`Unexpected part '${field.fieldname}': send at most one 'metadata' part, then one 'file' part`);
        sawMetadata = true;
        let value = field.value;
        if (typeof value === 'string') {
          if (Buffer.byteLength(value) > MAX_METADATA_BYTES)
            throw new ApiError('payload_too_large', `metadata may have at most ${MAX_METADATA_BYTES} bytes of JSON`);
          try {
            value = JSON.parse(value);
          } catch {
            throw new ApiError('invalid_json', 'The metadata part is not valid JSON');
          }
        }
        metadata = checkMetadata(value);
        continue;
      }
      const file = part as MultipartFile;
      if (file.fieldname !== 'file') throw invalid(`Unexpected file part '${file.fieldname}': the file goes in a part named 'file'`);
      const name = queryName ?? extendedName() ?? file.filename;
      return {
        stream: file.file,
        declaredType: file.mimetype,
        name,
        metadata,
        rest: async () => {
          try {
            const extra = await iterator.next();
            if (!extra.done) throw invalid(`Unexpected part '${extra.value.fieldname}' after the file: send exactly one 'file' part, last`);
          } catch (e) {
            throw multipartError(e);
          }
        },
      };
    }
  } catch (e) {
    throw multipartError(e);
  }
  throw invalid("No 'file' part: send the file in a part named 'file'");
}

/** How far into a multipart body the file part's headers may be looked for: a metadata part (16 KiB) and headers. */
const HEADER_WINDOW = 64 * 1024;

/**
 * §12 takes the name from the file part's `filename*` (RFC 8187) before its `filename`. busboy
 * folds both into one `filename`, the later one winning, and does not show the part's headers, so
 * the first bytes of the body are watched as they pass (a `data` listener beside busboy's pipe: it
 * reads nothing extra) for the `file` part's Content-Disposition, and its `filename*` is decoded
 * here. Hand-written: no maintained parser exposes it.
 */
function watchExtendedName(request: FastifyRequest): () => string | undefined {
  const seen: Buffer[] = [];
  let size = 0;
  const watch = (chunk: Buffer) => {
    seen.push(chunk);
    size += chunk.length;
    if (size >= HEADER_WINDOW) request.raw.off('data', watch);
  };
  request.raw.on('data', watch);
  return () => {
    request.raw.off('data', watch);
    const head = Buffer.concat(seen).subarray(0, HEADER_WINDOW).toString('latin1');
    for (const line of head.split('\r\n')) {
      if (!/^content-disposition\s*:/i.test(line) || !/;\s*name\s*=\s*"?file"?\s*(;|$)/i.test(line)) continue;
      const m = /;\s*filename\*\s*=\s*([^;]+)/i.exec(line);
      if (!m) return undefined;
      const ext = /^\s*(utf-8|iso-8859-1)'[^']*'(.*?)\s*$/i.exec(m[1]);
      if (!ext) return undefined;
      try {
        const bytes = Buffer.from(
          ext[2].replace(/%([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16))),
          'latin1',
        );
        return ext[1].toLowerCase() === 'utf-8' ? new TextDecoder('utf-8', { fatal: true }).decode(bytes) : bytes.toString('latin1');
      } catch {
        return undefined;
      }
    }
    return undefined;
  };
}
