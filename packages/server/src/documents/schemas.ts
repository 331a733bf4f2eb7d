import { Type } from '@sinclair/typebox';

/** Schemas of the §1 routes: they validate input and generate /v1/openapi.json (and the SDK's types). */
export const DocumentSchema = Type.Object(
  {
    id: Type.String({ description: 'Sortable by creation time unless chosen by the client' }),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: true, description: "The user's fields, flat beside the system fields" },
);

export const DocumentBody = Type.Object({}, { additionalProperties: true, description: 'A JSON object; an optional `id` of 1–128 [A-Za-z0-9_-]' });

export const CollectionParams = Type.Object({ collection: Type.String() });
export const DocumentParams = Type.Object({ collection: Type.String(), id: Type.String() });

export const BulkBody = Type.Object({ documents: Type.Array(Type.Object({}, { additionalProperties: true })) });
export const BulkResponse = Type.Object({ documents: Type.Array(DocumentSchema) });

/** The largest `offset` a list takes (API.md §1): past it, page with filters instead. */
const MAX_OFFSET = 10_000_000;

export function listQuerySchema(maxPageSize: number) {
  return Type.Object({
    limit: Type.Integer({ minimum: 0, maximum: maxPageSize, default: 20, description: '0: count only (no documents, just `total`)' }),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_OFFSET, description: 'Default 0, at most 10,000,000; not with `cursor`' })),
    cursor: Type.Optional(
      Type.String({ maxLength: 16384, description: 'The `nextCursor` of the previous page, with the same sortBy, sortOrder, filter and search' }),
    ),
    fields: Type.Optional(Type.String({ maxLength: 4096, description: 'Only these field paths (comma-separated), plus id, createdAt, updatedAt' })),
    sortBy: Type.Optional(
      Type.String({
        maxLength: 256,
        description: 'createdAt (default), updatedAt, id or a field path such as author.name; with search, the default is relevance',
      }),
    ),
    search: Type.Optional(
      Type.String({
        maxLength: 1000,
        description: "Full-text search of the collection's search fields: words ANDed, each by prefix, case-insensitive; empty: ignored",
      }),
    ),
    sortOrder: Type.Union([Type.Literal('asc'), Type.Literal('desc')], { default: 'asc' }),
    filter: Type.Optional(Type.String({ maxLength: 65536, description: 'URL-encoded JSON, MongoDB-style: {"status":"open","score":{"$gte":10}}' })),
  });
}

export const ListResponse = Type.Object({
  documents: Type.Array(DocumentSchema),
  total: Type.Integer(),
  limit: Type.Integer(),
  offset: Type.Integer(),
  nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as `cursor` for the next page; null on the last page' }),
});

export const GetQuery = Type.Object({
  fields: Type.Optional(Type.String({ maxLength: 4096, description: 'Only these field paths (comma-separated), plus id, createdAt, updatedAt' })),
});

export const CollectionsResponse = Type.Object({
  collections: Type.Array(Type.Object({ name: Type.String(), count: Type.Integer() })),
});

/** A field path (`stats.views`) → an operand, as an update operator takes them. */
const pathsOf = <T extends import('@sinclair/typebox').TSchema>(operand: T, description: string) =>
  Type.Optional(Type.Record(Type.String(), operand, { description }));
const AnyValue = Type.Unknown();
const Each = Type.Union([AnyValue, Type.Object({ $each: Type.Array(AnyValue) })]);

/** An update document (API.md §1.2): every top-level key an operator, each over field paths. */
export const UpdateDocument = Type.Object(
  {
    $set: pathsOf(AnyValue, 'Sets each path to the value'),
    $unset: pathsOf(Type.Literal(true), 'Removes each path'),
    $inc: pathsOf(Type.Number(), 'Adds the number (a missing field starts from 0)'),
    $min: pathsOf(Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]), 'Sets the value if lower, or missing'),
    $max: pathsOf(Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]), 'Sets the value if higher, or missing'),
    $push: pathsOf(Each, 'Appends to the array'),
    $addToSet: pathsOf(Each, 'Appends each value not already present'),
    $pull: pathsOf(AnyValue, 'Removes every element equal to the scalar or matching the condition'),
    $currentDate: pathsOf(Type.Literal(true), "Sets the write's time as an ISO string"),
  },
  { additionalProperties: false, minProperties: 1, description: 'An update document: operators over field paths' },
);

/** A PATCH body: a JSON Merge Patch or an update document. */
export const PatchBody = Type.Union([UpdateDocument, DocumentBody]);

/** A 412 (API.md §1.2): the error and the current document. */
export const PreconditionFailedResponse = Type.Object(
  {
    error: Type.Object({ code: Type.String(), message: Type.String() }),
    document: DocumentSchema,
  },
  { description: 'The current version is in the ETag header' },
);
