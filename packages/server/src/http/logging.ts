import type { FastifyServerOptions } from 'fastify';
import type { DestinationStream } from 'pino';

/** Query parameters that carry secrets (OAuth codes and state, realtime tokens, link tokens, keys). */
const SECRET_PARAMS = /([?&](?:token|key|code|state|password|secret)=)[^&#]*/gi;

/** Redacts secrets from a URL for logging. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1[redacted]');
}

/**
 * pino options for Fastify: request logs carry method, route, redacted URL and status — never
 * headers (Authorization, X-Session-Token) or bodies (passwords).
 */
export function loggerOptions(level: string, stream?: DestinationStream, pretty = false): FastifyServerOptions['logger'] {
  return {
    level,
    ...(stream ? { stream } : pretty ? { transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname' } } } : {}),
    serializers: {
      req: (req: { method: string; url: string; ip?: string }) => ({ method: req.method, url: redactUrl(req.url), ip: req.ip }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  };
}
