import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { ApiError } from '../errors.ts';
import type { ByteRange } from '../infra/bytes/bytes.ts';

/** What one `/content` answer sends: the stored type, size and tag of the original or a thumbnail. */
export interface Served {
  contentType: string;
  size: number;
  etag: string;
  name: string;
  download: boolean;
  /** Public buckets: cached for a year (ids never change their bytes). */
  immutable: boolean;
  open: (range?: ByteRange) => Promise<Readable | undefined>;
}

/** Raster images, audio, video and plain text may render inline; everything else is an attachment. */
const INLINE = /^(image\/(png|jpeg|gif|webp|avif|bmp|x-icon|vnd\.microsoft\.icon)|audio\/[^/]+|video\/[^/]+|text\/plain)$/;

/** RFC 6266 / 8187: the name in `filename*` (UTF-8, percent-encoded), with an ASCII `filename` for old clients. */
function contentDisposition(type: string, name: string, download: boolean): string {
  const kind = !download && INLINE.test(type) ? 'inline' : 'attachment';
  const ascii = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * The one `Range` a request asks for, undefined for none (or several: §12 answers those with the
 * whole file), or 416 when it cannot be satisfied.
 */
function parseRange(header: string | undefined, size: number): ByteRange | undefined {
  if (!header) return undefined;
  const m = /^\s*bytes\s*=\s*(.*)$/i.exec(header);
  if (!m || m[1].includes(',')) return undefined;
  const r = /^\s*(\d*)\s*-\s*(\d*)\s*$/.exec(m[1]);
  if (!r || (r[1] === '' && r[2] === '')) return undefined;
  let start: number;
  let end: number;
  if (r[1] === '') {
    const suffix = Number(r[2]);
    if (suffix === 0) throw unsatisfiable(size);
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(r[1]);
    end = r[2] === '' ? size - 1 : Math.min(Number(r[2]), size - 1);
    if (r[2] !== '' && Number(r[2]) < start) return undefined;
  }
  if (start >= size || size === 0) throw unsatisfiable(size);
  return { start, end };
}

const unsatisfiable = (size: number) =>
  new ApiError('range_not_satisfiable', `The range asks for bytes the file does not have (it has ${size})`, undefined, undefined, 416);

/** Whether an If-None-Match names the tag (weak comparison, `*` included). */
export function noneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

/** Answers GET or HEAD of a file's bytes: headers that keep a browser from running it, 304, 206 or 200. */
export async function serve(request: FastifyRequest, reply: FastifyReply, served: Served): Promise<FastifyReply> {
  reply
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', 'sandbox')
    .header('etag', served.etag)
    .header('accept-ranges', 'bytes')
    .header('content-disposition', contentDisposition(served.contentType, served.name, served.download))
    .header('cache-control', served.immutable ? 'public, max-age=31536000, immutable' : 'private, no-cache');
  if (noneMatch(request.headers['if-none-match'], served.etag)) return reply.code(304).send();
  let range: ByteRange | undefined;
  try {
    range = parseRange(request.headers.range, served.size);
  } catch (e) {
    reply.header('content-range', `bytes */${served.size}`);
    throw e;
  }
  reply.type(served.contentType);
  const length = range ? range.end - range.start + 1 : served.size;
  reply.header('content-length', length);
  if (range) reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${served.size}`);
  if (request.method === 'HEAD') return reply.send();
  const body = await served.open(range);
  if (!body) throw new ApiError('not_found', 'The file is gone');
  return reply.send(body);
}
