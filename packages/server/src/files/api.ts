import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.ts';
import { principalOf } from '../http/auth.ts';
import { sessionTokenOf } from '../auth/request-session.ts';
import type { Clock } from '../infra/clock.ts';
import type { InvalidatedCache } from '../infra/invalidation/cache.ts';
import type { ByteStore } from '../infra/bytes/bytes.ts';
import type { Limiter } from '../infra/limiter/limiter.ts';
import { rateLimitedError, rateLimitHeaders } from '../http/rate-limit.ts';
import type { CursorCodec } from '../documents/cursor.ts';
import { checkCollection } from '../documents/names.ts';
import { settingsAndSessionUser } from '../documents/rule-user.ts';
import type { JsonObject } from '../json/merge-patch.ts';
import { settingsText, type RuleUser } from '../rules/rules.ts';
import type { Store } from '../store/store.ts';
import { bucketReadable, fileScope, type FileScope } from './access.ts';
import { originalKey, thumbKey } from './keys.ts';
import type { Links } from './links.ts';
import { listFiles, type FileListQuery } from './list.ts';
import { checkFileName } from './names.ts';
import type { FileRecord, StoredFile } from './record.ts';
import { serve } from './serve.ts';
import { fileNotFound, type FilesService } from './service.ts';
import { bucketSettings } from './settings.ts';
import { parseThumb } from './thumb-spec.ts';
import type { Thumbnails } from './thumbs.ts';
import { checkMetadata } from './upload.ts';
import type { Uploads } from './uploader.ts';

interface FilesApiDeps {
  store: Store;
  clock: Clock;
  service: FilesService;
  uploads: Uploads;
  bytes: ByteStore;
  thumbs: Thumbnails;
  links: Links;
  limiter: Limiter;
  cursors: CursorCodec;
  publicUrl: string;
  maxPageSize: number;
  downloadsPerIp: number;
  /** Databases' settings (JSON text) under `database:<id>`, shared with the documents' rules: read for every request without a session. */
  settings?: InvalidatedCache<string>;
}

/** The caller of a file route: its database, settings, and (public keys) the signed-in user. */
interface Caller {
  databaseId: string;
  public: boolean;
  settings: string;
  user: RuleUser | undefined;
}

/** The tags an If-Match names; `*` as itself. Weak tags never match (§1.2). */
function ifMatch(header: string | undefined, version: string): boolean | undefined {
  if (header === undefined) return undefined;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim() === `"${version}"`);
}

/**
 * What every file route does, in §1.2's order of checks: 400 → 401 → 403 `read_only_key` → 404
 * (missing, or hidden by the rules) → 412 / 304 → 403 `forbidden` (the rule on the result) → 413.
 */
export class FilesApi {
  readonly maxPageSize: number;
  constructor(private readonly deps: FilesApiDeps) {
    this.maxPageSize = deps.maxPageSize;
  }

  private now(): string {
    return new Date(this.deps.clock.now()).toISOString();
  }

  private async caller(request: FastifyRequest): Promise<Caller> {
    const principal = principalOf(request);
    const isPublic = principal.kind === 'public';
    const token = isPublic ? sessionTokenOf(request) : undefined;
    // A session's user is read with the settings, in one query; without one, the settings may come from memory.
    const found =
      token === undefined
        ? await this.settingsOf(principal.databaseId).then((settings) => settings && { settings, user: undefined })
        : await settingsAndSessionUser(this.deps.store, this.deps.clock, principal.databaseId, token);
    if (!found) throw new ApiError('not_found', `Database '${principal.databaseId}' not found`);
    return { databaseId: principal.databaseId, public: isPublic, settings: found.settings, user: found.user };
  }

  /** A database's settings (JSON text), from memory when kept; undefined when there is no such database. */
  private async settingsOf(databaseId: string): Promise<string | undefined> {
    const { store, clock, settings: cache } = this.deps;
    if (!cache) return settingsText(store, databaseId);
    return cache.get(`database:${databaseId}`, clock.now(), async () => {
      const value = await settingsText(store, databaseId);
      return value === undefined ? undefined : { value };
    });
  }

  private scope(caller: Caller, bucket: string, operation: 'read' | 'create' | 'update' | 'delete'): FileScope | undefined {
    return caller.public ? fileScope(caller.settings, caller.user, bucket, operation) : undefined;
  }

  /** A file the caller may see (404 when missing or hidden). */
  private async visible(caller: Caller, bucket: string, id: string, scopes: Array<FileScope | undefined>): Promise<StoredFile> {
    const stored = await this.deps.service.find(caller.databaseId, bucket, id);
    if (!stored || scopes.some((s) => s && !s.matches(stored.file))) throw fileNotFound(bucket, id);
    return stored;
  }

  async upload(request: FastifyRequest, bucket: string, query: { name?: string; owner?: string }): Promise<StoredFile> {
    checkCollection(bucket);
    const caller = await this.caller(request);
    const scope = this.scope(caller, bucket, 'create');
    const owner = caller.public ? (caller.user?.id ?? null) : (query.owner ?? null);
    return this.deps.uploads.upload(request, { databaseId: caller.databaseId, settings: caller.settings, owner, scope }, bucket, query);
  }

  async list(request: FastifyRequest, bucket: string, query: FileListQuery) {
    checkCollection(bucket);
    const caller = await this.caller(request);
    const scope = this.scope(caller, bucket, 'read');
    // A cursor belongs to its caller (API.md §1.1, third version): the key's kind and its user.
    const who = caller.public ? `public:${caller.user?.id ?? ''}` : 'secret';
    return listFiles(this.deps.store, this.deps.cursors, caller.databaseId, bucket, query, scope?.filter, who);
  }

  async get(request: FastifyRequest, bucket: string, id: string): Promise<StoredFile> {
    checkCollection(bucket);
    const caller = await this.caller(request);
    return this.visible(caller, bucket, id, [this.scope(caller, bucket, 'read')]);
  }

  async update(
    request: FastifyRequest,
    reply: FastifyReply,
    bucket: string,
    id: string,
    body: { name?: string; metadata?: Record<string, unknown> },
  ): Promise<StoredFile> {
    checkCollection(bucket);
    const change: { name?: string; metadata?: JsonObject } = {};
    if (body.name !== undefined) change.name = checkFileName(body.name);
    if (body.metadata !== undefined) change.metadata = checkMetadata(body.metadata);
    const caller = await this.caller(request);
    const update = this.scope(caller, bucket, 'update');
    const read = update && this.scope(caller, bucket, 'read');
    return this.deps.service.update(
      caller.databaseId,
      bucket,
      id,
      change,
      this.now(),
      (current) => {
        if ((update && !update.matches(current.file)) || (read && !read.matches(current.file))) throw fileNotFound(bucket, id);
        this.precondition(request, reply, current);
      },
      (file) => {
        if (update && !update.matches(file)) throw new ApiError('forbidden', `The rules of the bucket '${bucket}' do not allow this change`);
      },
    );
  }

  async remove(request: FastifyRequest, reply: FastifyReply, bucket: string, id: string): Promise<void> {
    checkCollection(bucket);
    const caller = await this.caller(request);
    const del = this.scope(caller, bucket, 'delete');
    const read = del && this.scope(caller, bucket, 'read');
    await this.deps.service.remove(caller.databaseId, bucket, id, this.now(), (current) => {
      if ((del && !del.matches(current.file)) || (read && !read.matches(current.file))) throw fileNotFound(bucket, id);
      this.precondition(request, reply, current);
    });
  }

  /** 412 with the current version and record when If-Match names another version. */
  private precondition(request: FastifyRequest, reply: FastifyReply, current: StoredFile): void {
    const h = request.headers['if-match'];
    if (ifMatch(Array.isArray(h) ? h.join(',') : h, current.version) === false) {
      reply.header('etag', `"${current.version}"`);
      throw new ApiError('precondition_failed', `The file is at version ${current.version}`, undefined, { file: current.file });
    }
  }

  async link(request: FastifyRequest, bucket: string, id: string, body: { expiresIn?: number; thumb?: string; download?: boolean }) {
    checkCollection(bucket);
    const caller = await this.caller(request);
    const stored = await this.visible(caller, bucket, id, [this.scope(caller, bucket, 'read')]);
    const thumb = body.thumb ?? null;
    if (thumb !== null) this.thumbSpec(caller.settings, bucket, thumb, stored.file);
    const expires = Math.floor(this.deps.clock.now() / 1000) + (body.expiresIn ?? 3600);
    const token = await this.deps.links.sign({ databaseId: caller.databaseId, bucket, fileId: id, thumb, download: body.download === true, expires });
    const query = new URLSearchParams({ token });
    if (thumb !== null) query.set('thumb', thumb);
    if (body.download) query.set('download', '1');
    return {
      url: `${this.deps.publicUrl}/v1/files/${encodeURIComponent(bucket)}/${encodeURIComponent(id)}/content?${query}`,
      expiresAt: new Date(expires * 1000).toISOString(),
    };
  }

  async buckets(request: FastifyRequest) {
    const caller = await this.caller(request);
    const all = await this.deps.service.buckets(caller.databaseId);
    if (!caller.public) return { buckets: all };
    return { buckets: all.filter((b) => bucketReadable(caller.settings, b.name)).map(({ name, count }) => ({ name, count })) };
  }

  async rotate(databaseId: string): Promise<void> {
    const exists = await this.deps.store.get('SELECT 1 AS x FROM databases WHERE id = ?', [databaseId]);
    if (!exists) throw new ApiError('not_found', `Database '${databaseId}' not found`);
    await this.deps.links.rotate(databaseId);
  }

  /** GET/HEAD …/content: with a key (rules for public keys), or with a signed link's token and no key. */
  async content(request: FastifyRequest, reply: FastifyReply, bucket: string, id: string, query: { thumb?: string; download?: string; token?: string }) {
    checkCollection(bucket);
    if (!request.principal) {
      if (query.token === undefined) throw new ApiError('missing_api_key', 'Send your API key as Authorization: Bearer <key>, or use a signed link');
      await this.countDownload(request, reply);
      const claims = await this.deps.links.verify(query.token, Math.floor(this.deps.clock.now() / 1000));
      if (claims.bucket !== bucket || claims.fileId !== id || claims.thumb !== (query.thumb ?? null) || claims.download !== (query.download === '1')) {
        throw new ApiError('invalid_token', 'The link was made for another file, thumbnail or download flag');
      }
      const found = await this.deps.service.find(claims.databaseId, bucket, id);
      if (!found) throw fileNotFound(bucket, id);
      const settings = await this.settingsOf(claims.databaseId);
      return this.send(request, reply, claims.databaseId, settings ?? '{}', found.file, query, false);
    }
    const caller = await this.caller(request);
    const stored = await this.visible(caller, bucket, id, [this.scope(caller, bucket, 'read')]);
    return this.send(request, reply, caller.databaseId, caller.settings, stored.file, query, false);
  }

  /** GET /v1/public/:databaseId/:bucket/:id: a public bucket's files for anyone; any other → 404. */
  async publicContent(
    request: FastifyRequest,
    reply: FastifyReply,
    params: { databaseId: string; bucket: string; id: string },
    query: { thumb?: string; download?: string },
  ) {
    if (!request.principal) await this.countDownload(request, reply);
    const settings = await this.settingsOf(params.databaseId);
    const found =
      settings !== undefined && bucketSettings(settings, params.bucket).public === true
        ? await this.deps.service.find(params.databaseId, params.bucket, params.id)
        : undefined;
    if (!found) throw fileNotFound(params.bucket, params.id);
    return this.send(request, reply, params.databaseId, settings!, found.file, query, true);
  }

  /** Downloads without a key count against RATE_LIMIT_FILES_PER_IP (§12), not §5's per-IP limit. */
  private async countDownload(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const r = await this.deps.limiter.consume(`files-ip:${request.ip}`, this.deps.downloadsPerIp);
    reply.headers(rateLimitHeaders(r));
    if (!r.allowed) throw rateLimitedError(r);
  }

  /** The size a `thumb` names, if the bucket makes it and the file is an image that can have one; else 400. */
  private thumbSpec(settings: string, bucket: string, thumb: string, file: FileRecord) {
    const spec = parseThumb(thumb);
    const allowed = thumb === '100x100' || (bucketSettings(settings, bucket).thumbs ?? []).includes(thumb);
    if (!spec || !allowed) {
      const message = `thumb must be 100x100 or a size the bucket's thumbs setting lists`;
      throw new ApiError('validation_failed', message, [{ path: '/thumb', message }]);
    }
    this.deps.thumbs.typeOf(file);
    return spec;
  }

  private async send(
    request: FastifyRequest,
    reply: FastifyReply,
    databaseId: string,
    settings: string,
    file: FileRecord,
    query: { thumb?: string; download?: string },
    immutable: boolean,
  ) {
    const download = query.download === '1';
    const { bytes } = this.deps;
    if (query.thumb === undefined) {
      return serve(request, reply, {
        contentType: file.contentType,
        size: file.size,
        etag: `"${file.sha256}"`,
        name: file.name,
        download,
        immutable,
        open: (range) => bytes.get(originalKey(databaseId, file.id), range),
      });
    }
    const spec = this.thumbSpec(settings, file.bucket, query.thumb, file);
    const size = await this.deps.thumbs.ensure(databaseId, file, spec);
    return serve(request, reply, {
      contentType: this.deps.thumbs.typeOf(file),
      size,
      etag: `"${file.sha256}-${spec.text}"`,
      name: file.name,
      download,
      immutable,
      open: (range) => bytes.get(thumbKey(databaseId, file.id, spec.text), range),
    });
  }
}
