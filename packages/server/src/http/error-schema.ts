import { Type } from '@sinclair/typebox';

/** The §0 error shape, for OpenAPI. */
export const ErrorResponse = Type.Object({
  error: Type.Object({
    code: Type.String(),
    message: Type.String(),
    details: Type.Optional(Type.Array(Type.Object({ path: Type.String(), message: Type.String() }))),
  }),
  retryAfter: Type.Optional(Type.Integer()),
});
