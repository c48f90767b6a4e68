import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CONNECTION_MSG, MSG, VALIDATION_MSG, isUserMessage, type ErrorCode } from '@contest/shared';
import { AppError } from '../lib/errors.js';
import { failure } from './envelope.js';
import { RequestValidationError } from './zod.js';

interface Mapped {
  status: number;
  code: ErrorCode;
  message: string;
  data: unknown;
}

function fromValidation(err: RequestValidationError): Mapped {
  const issue = err.issues[0];
  const field = issue?.path.length ? issue.path.join('.') : err.part;
  const missing = issue?.code === 'invalid_type' && /received undefined/.test(issue.message);
  const message = issue && isUserMessage(issue.message)
    ? issue.message
    : missing
      ? MSG.missingField(field)
      : MSG.invalidField(field);
  return { status: 400, code: 'VALIDATION_FAILED', message, data: { field } };
}

/** Fastify's own errors carry a statusCode; everything else is an unexpected 500. */
function fromFastify(err: FastifyError): Mapped | null {
  const status = err.statusCode ?? 0;
  if (status === 413) return { status, code: 'PAYLOAD_TOO_LARGE', message: MSG.payloadTooLarge, data: null };
  if (status === 415)
    return { status, code: 'UNSUPPORTED_MEDIA_TYPE', message: VALIDATION_MSG.unsupportedMediaType, data: null };
  if (status === 429) return { status, code: 'RATE_LIMITED', message: MSG.tooManyRequests, data: null };
  if (status === 404) return { status, code: 'NOT_FOUND', message: MSG.notFound, data: null };
  if (status >= 400 && status < 500)
    return { status: 400, code: 'BAD_REQUEST', message: VALIDATION_MSG.malformedBody, data: null };
  return null;
}

/**
 * A multipart body its parser could not read (no boundary, cut short): busboy raises plain
 * Errors without a status for these, which would otherwise end as 500s (test/bad-input.test.ts).
 */
const MALFORMED_MULTIPART = /^(Multipart: Boundary not found|Unexpected end of multipart data|\w+ terminated early due to unexpected end of multipart data|Unsupported Content-Type\.)$/;

function fromMultipart(err: unknown): Mapped | null {
  if (!(err instanceof Error) || 'statusCode' in err || !MALFORMED_MULTIPART.test(err.message)) return null;
  return { status: 400, code: 'BAD_REQUEST', message: VALIDATION_MSG.malformedBody, data: null };
}

/**
 * Fastify's `frameworkErrors`: failures before any route runs — a URL that is not valid
 * percent-encoded UTF-8, a path parameter over maxParamLength. Without it Fastify answers in
 * its own shape ({statusCode, error, code, message}, echoing the path); this keeps the envelope.
 */
export function onFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  if (error.code === 'FST_ERR_BAD_URL' || error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    reply.code(400).send(failure(400, 'VALIDATION_FAILED', MSG.invalidField('path'), { field: 'path' }));
    return;
  }
  request.log.error({ err: error }, 'framework error');
  reply.code(500).send(failure(500, 'INTERNAL', MSG.internal, null));
}

/**
 * Fastify's `clientErrorHandler`: Node's HTTP parser refuses a request before Fastify sees it
 * (its 'clientError' event) when the request line and headers exceed the header limit (a URL of
 * tens of kilobytes), the head does not arrive in time, or the bytes are not HTTP. Fastify's
 * default writes its own `{error, message, statusCode}`; this writes the envelope instead. An
 * over-long URL answers 431 rather than 414: the parser only knows the head as a whole
 * overflowed, and a huge cookie is the same case (docs/security.md, "Input hygiene").
 */
export function onClientError(this: FastifyInstance, err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, text, body] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', failure(431, 'PAYLOAD_TOO_LARGE', CONNECTION_MSG.requestHeadTooLarge, null)]
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', failure(408, 'BAD_REQUEST', CONNECTION_MSG.requestTimeout, null)]
        : [400, 'Bad Request', failure(400, 'BAD_REQUEST', VALIDATION_MSG.malformedBody, null)];
  this.log.debug({ err: err.message, code: err.code }, 'client error');
  if (socket.writable) {
    const json = Buffer.from(JSON.stringify(body));
    socket.write(
      `HTTP/1.1 ${status} ${text}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${json.length}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n`,
    );
    socket.write(json);
  }
  socket.destroy(err);
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    let mapped: Mapped | null;
    if (error instanceof AppError) {
      mapped = { status: error.status, code: error.code, message: error.message, data: error.data };
    } else if (error instanceof RequestValidationError) {
      mapped = fromValidation(error);
    } else if (error && typeof error === 'object' && 'validation' in error && (error as FastifyError).validation) {
      mapped = { status: 400, code: 'VALIDATION_FAILED', message: MSG.invalidField((error as FastifyError).validationContext ?? 'body'), data: null };
    } else {
      mapped = fromMultipart(error) ?? fromFastify(error as FastifyError);
    }
    if (!mapped) {
      request.log.error({ err: error }, 'unhandled error');
      mapped = { status: 500, code: 'INTERNAL', message: MSG.internal, data: null };
    } else if (mapped.status >= 500) {
      request.log.error({ err: error }, 'server error');
    }
    if (mapped.status === 429 && !reply.hasHeader('retry-after')) reply.header('retry-after', '60');
    // A busy refusal says when to come back (lib/password.ts); the web client waits it out.
    const retryAfter = (mapped.data as { retryAfterSeconds?: unknown } | null)?.retryAfterSeconds;
    if (mapped.status === 503 && typeof retryAfter === 'number' && !reply.hasHeader('retry-after')) reply.header('retry-after', String(retryAfter));
    return reply.status(mapped.status).send(failure(mapped.status, mapped.code, mapped.message, mapped.data));
  });
}
