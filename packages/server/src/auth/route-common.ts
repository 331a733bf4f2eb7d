import type { FastifyRequest } from 'fastify';
import { principalOf } from '../http/auth.ts';
import { ErrorResponse } from '../http/error-schema.ts';

/** What every §2 route file shares: its OpenAPI tag, access configs and error answers. */
export const tags = ['auth'];

/** Either key may call every route (a browser signs users up with its public key). */
export const key = { access: 'key' as const };

/** Routes that end sessions or change users answer once every instance's caches know (infra/invalidation). */
export const keyInvalidates = { ...key, invalidates: true };

export const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 429: ErrorResponse };

/** The database of the request's key. */
export const databaseOf = (request: FastifyRequest): string => principalOf(request).databaseId;
