import type { CallOptions, Sender } from './http.js';

/** A stored file (API.md §12). */
export interface FileRecord {
  id: string;
  bucket: string;
  name: string;
  contentType: string;
  size: number;
  sha256: string;
  /** The id of the user who uploaded it, or null. */
  owner: string | null;
  metadata: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

/** A page of files. */
export interface FileList {
  files: FileRecord[];
  total: number;
  limit: number;
  offset: number;
  nextCursor: string | null;
}

/** What `upload` takes: a Blob or File (browsers), bytes, or a stream of bytes (Node: a Readable; a web ReadableStream). */
export type UploadBody = Blob | ArrayBuffer | Uint8Array | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

export interface UploadOptions extends CallOptions {
  /** The file's name (default: a File's own name). */
  name?: string;
  /** The declared type (default: a Blob's type); PNG, JPEG, PDF, … are stored as their bytes show. */
  contentType?: string;
  /** The app's own JSON object (at most 16 KiB). */
  metadata?: Record<string, unknown>;
  /** Browsers: called as the bytes go out. */
  onProgress?: (sent: number, total: number) => void;
}

export interface FileListParams extends CallOptions {
  limit?: number;
  offset?: number;
  cursor?: string;
  sortBy?: string;
  sortOrder?: 'asc' | 'desc';
  /** A §1 filter over the file's fields: `{ contentType: { $prefix: 'image/' } }`. */
  filter?: Record<string, unknown>;
}

export interface UrlOptions extends CallOptions {
  /** Seconds the link works (60..604800, default 3600). */
  expiresIn?: number;
  /** A thumbnail size: `100x100`, or one the bucket lists. */
  thumb?: string;
  /** Always as an attachment. */
  download?: boolean;
}

/** A stream of bytes as fetch sends it (a Node Readable is an async iterable). */
function toStream(body: AsyncIterable<Uint8Array>): ReadableStream<Uint8Array> {
  const it = body[Symbol.asyncIterator]();
  return new ReadableStream({
    async pull(controller) {
      const next = await it.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await it.return?.();
    },
  });
}

/**
 * The files of one bucket (API.md §12). With a public key and a signed-in user every call carries
 * the session, so the bucket's rules (`files/<bucket>`) decide; uploads are owned by that user.
 *
 * @example
 * const avatars = svc.files('avatars');
 * const file = await avatars.upload(input.files[0], { metadata: { profile: me.id } });
 * img.src = (await avatars.url(file.id, { thumb: '100x100' })).url;
 */
export class FilesService {
  private readonly base: string;

  constructor(
    private readonly http: Sender,
    readonly bucket: string,
  ) {
    this.base = `/files/${encodeURIComponent(bucket)}`;
  }

  /** Uploads a file (streamed; `metadata` sends it as multipart). */
  upload(body: UploadBody, opts: UploadOptions = {}): Promise<FileRecord> {
    const name = opts.name ?? (typeof File !== 'undefined' && body instanceof File ? body.name : undefined);
    const declared = opts.contentType ?? (body instanceof Blob && body.type ? body.type : undefined);
    if (opts.metadata !== undefined) {
      if (!(body instanceof Blob || body instanceof ArrayBuffer || body instanceof Uint8Array)) {
        throw new TypeError('upload with metadata takes a Blob, File, ArrayBuffer or Uint8Array');
      }
      const form = new FormData();
      form.append('metadata', JSON.stringify(opts.metadata));
      const blob = body instanceof Blob ? body : new Blob([body as BlobPart], { type: declared ?? 'application/octet-stream' });
      form.append('file', blob, name ?? 'file');
      // fetch sets the multipart boundary itself: no content type of ours.
      return this.http.send({ method: 'POST', path: this.base, raw: form, onUploadProgress: opts.onProgress, signal: opts.signal, query: { name } });
    }
    const raw: BodyInit =
      body instanceof Blob || body instanceof ArrayBuffer || body instanceof Uint8Array || body instanceof ReadableStream ? (body as BodyInit) : toStream(body);
    return this.http.send({
      method: 'POST',
      path: this.base,
      raw,
      contentType: declared ?? 'application/octet-stream',
      query: { name },
      onUploadProgress: opts.onProgress,
      signal: opts.signal,
    });
  }

  /** A page of files (§1 query language over the records). */
  list(params: FileListParams = {}): Promise<FileList> {
    const { signal, filter, ...query } = params;
    return this.http.send({ method: 'GET', path: this.base, signal, query: { ...query, filter: filter && JSON.stringify(filter) } });
  }

  /** One file's record. */
  get(id: string, opts?: CallOptions): Promise<FileRecord> {
    return this.http.send({ method: 'GET', path: `${this.base}/${encodeURIComponent(id)}`, signal: opts?.signal });
  }

  /** A signed link to the bytes (or a thumbnail) that works without a key, e.g. in an `<img>`. */
  url(id: string, opts: UrlOptions = {}): Promise<{ url: string; expiresAt: string }> {
    const { signal, ...body } = opts;
    return this.http.send({ method: 'POST', path: `${this.base}/${encodeURIComponent(id)}/url`, body, signal });
  }

  /** The bytes (or a thumbnail) as a Blob. */
  download(id: string, opts: CallOptions & { thumb?: string } = {}): Promise<Blob> {
    return this.http.send({
      method: 'GET',
      path: `${this.base}/${encodeURIComponent(id)}/content`,
      query: { thumb: opts.thumb },
      responseType: 'blob',
      signal: opts.signal,
    });
  }

  /** Renames a file or replaces its metadata. */
  update(id: string, change: { name?: string; metadata?: Record<string, unknown> }, opts?: CallOptions): Promise<FileRecord> {
    return this.http.send({ method: 'PATCH', path: `${this.base}/${encodeURIComponent(id)}`, body: change, signal: opts?.signal });
  }

  /** Deletes a file (its bytes and thumbnails go after). */
  async remove(id: string, opts?: CallOptions): Promise<void> {
    await this.http.send({ method: 'DELETE', path: `${this.base}/${encodeURIComponent(id)}`, signal: opts?.signal });
  }
}
