import { Type, type TNull } from '@sinclair/typebox';

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

/** The body of a 204 answer: none. */
export const NoContent: TNull = Type.Null({ description: 'No content' });
