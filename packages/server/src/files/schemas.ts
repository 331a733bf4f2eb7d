import { Type } from '@sinclair/typebox';
import { ErrorResponse } from '../http/error-schema.ts';

export const BucketParams = Type.Object({ bucket: Type.String({ maxLength: 256 }) });
export const FileParams = Type.Object({ bucket: Type.String({ maxLength: 256 }), id: Type.String({ maxLength: 128 }) });
export const PublicParams = Type.Object({
  databaseId: Type.String({ maxLength: 128 }),
  bucket: Type.String({ maxLength: 256 }),
  id: Type.String({ maxLength: 128 }),
});

export const UploadQuery = Type.Object({
  name: Type.Optional(Type.String({ description: "The file's name; else the file part's filename" })),
  owner: Type.Optional(Type.String({ maxLength: 128, description: 'Secret keys only: the id of the user the file belongs to' })),
});

export const ContentQuery = Type.Object({
  thumb: Type.Optional(Type.String({ maxLength: 16, description: 'WxH (crop to fill), WxHf (fit inside), Wx0 or 0xH: 100x100 or a size the bucket lists' })),
  download: Type.Optional(Type.String({ maxLength: 8, description: '1: always as an attachment' })),
  token: Type.Optional(Type.String({ maxLength: 2048, description: 'A signed link token (POST …/url)' })),
});

export const FileSchema = Type.Object({
  id: Type.String(),
  bucket: Type.String(),
  name: Type.String(),
  contentType: Type.String(),
  size: Type.Integer(),
  sha256: Type.String(),
  owner: Type.Union([Type.String(), Type.Null()]),
  metadata: Type.Object({}, { additionalProperties: true }),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

export const PatchBody = Type.Object(
  {
    name: Type.Optional(Type.String()),
    metadata: Type.Optional(Type.Object({}, { additionalProperties: true })),
  },
  { additionalProperties: false },
);

export const LinkBody = Type.Object(
  {
    expiresIn: Type.Optional(Type.Integer({ minimum: 60, maximum: 604800, default: 3600 })),
    thumb: Type.Optional(Type.String({ maxLength: 16 })),
    download: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const LinkResponse = Type.Object({ url: Type.String(), expiresAt: Type.String() });

export const FileListResponse = Type.Object({
  files: Type.Array(FileSchema),
  total: Type.Integer(),
  limit: Type.Integer(),
  offset: Type.Integer(),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
});

export const BucketsResponse = Type.Object({
  buckets: Type.Array(Type.Object({ name: Type.String(), count: Type.Integer(), bytes: Type.Optional(Type.Integer()) })),
});

/** 412: the error with the current record (its version is in the ETag header). */
export const PreconditionFailedResponse = Type.Composite([ErrorResponse, Type.Object({ file: Type.Optional(FileSchema) })]);
