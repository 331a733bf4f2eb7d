import { Type, type TUnsafe } from '@sinclair/typebox';

/** The §0 error shape, for OpenAPI. */
export const ErrorResponse = Type.Object({
  error: Type.Object({
    code: Type.String(),
    message: Type.String(),
    details: Type.Optional(Type.Array(Type.Object({ path: Type.String(), message: Type.String() }))),
  }),
  retryAfter: Type.Optional(Type.Integer()),
});

/** The error answers a route documents, by status: `errorResponses(400, 401, 404)` → `{400: ErrorResponse, 401: …, 404: …}`. */
export function errorResponses<S extends number>(...statuses: S[]): Record<S, typeof ErrorResponse> {
  return Object.fromEntries(statuses.map((s) => [s, ErrorResponse])) as Record<S, typeof ErrorResponse>;
}

/**
 * The body of a 204 answer: none. Typed `undefined`, not `null`, so a typed route's
 * `reply.code(204).send()` needs no payload (OpenAPI still reads `{"type": "null"}`).
 */
export const NoContent: TUnsafe<undefined> = Type.Unsafe<undefined>(Type.Null({ description: 'No content' }));
