import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { ApiError, rawErrorResponse, sendError, toApiError } from '../errors.ts';

/** What Node's HTTP parser reports on a request it cannot read (llhttp's code and reason). */
interface ParserError extends Error {
  code?: string;
  reason?: string;
}

/** The parser's refusals as catalogue errors: 431 for headers over the limit, 408 for a request too slow, else 400. */
function fromParser(err: ParserError): ApiError {
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    return new ApiError('headers_too_large', "The request line and headers are over the size limit (16 KiB by default: the server's LIMIT_HEADER_BYTES)");
  }
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return new ApiError('request_timeout', 'The request was not received in time');
  const why = err.reason ? `${err.reason} (${err.code})` : (err.code ?? 'unreadable');
  return new ApiError('bad_request', `The request is not valid HTTP/1.1: ${why}`);
}

/**
 * Answers what Node's HTTP parser refuses before any Fastify request exists (malformed framing,
 * headers too large, a request too slow) with a raw response in the §0 shape, then closes the
 * socket: its framing cannot be trusted any more. Replaces Fastify's default, whose body has
 * another shape.
 */
function onClientError(this: FastifyInstance, err: ParserError, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  this.log.debug({ err: { code: err.code, message: err.message } }, 'refused an unreadable request');
  if (socket.writable) socket.write(rawErrorResponse(fromParser(err)));
  socket.destroy();
}

/** Fastify's errors raised outside the request lifecycle (a URL that is not validly percent-encoded). */
function onFrameworkError(err: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  sendError(reply, toApiError(err, request));
}

/**
 * The Fastify construction options that keep the HTTP layer's own answers in the §0 shape: the
 * header size limit (API.md §8: 431 over it), the parser's and router's refusals, and no built-in
 * 503 while closing (the `unavailable` answer of installHttpLayerErrors replaces it). Node's own
 * empty 400 for a missing Host header is turned off; the hook below answers it in the shape.
 */
export function httpLayerOptions(limits: { headerBytes: number }): FastifyServerOptions & { http: { maxHeaderSize: number; requireHostHeader: boolean } } {
  return {
    http: { maxHeaderSize: limits.headerBytes, requireHostHeader: false },
    clientErrorHandler: onClientError as FastifyServerOptions['clientErrorHandler'],
    frameworkErrors: onFrameworkError as FastifyServerOptions['frameworkErrors'],
    return503OnClosing: false,
  };
}

/**
 * The request-time half: an HTTP/1.1 request without Host → 400 (RFC 9112 §3.2); a request that
 * arrives on a kept-alive connection while the server is shutting down → 503 `unavailable`; an
 * `Expect` other than 100-continue is ignored (RFC 9110 allows it) instead of Node's bodiless 417.
 */
export function installHttpLayerErrors(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onRequest', (request, reply, done) => {
    if (closing) {
      reply.header('Connection', 'close').header('Retry-After', 1);
      return done(new ApiError('unavailable', 'The server is shutting down; retry on another instance or in a moment'));
    }
    if (request.raw.httpVersion === '1.1' && !request.headers.host) return done(new ApiError('bad_request', 'An HTTP/1.1 request needs a Host header'));
    done();
  });
  app.server.on('checkExpectation', (req, res) => app.server.emit('request', req, res));
}
