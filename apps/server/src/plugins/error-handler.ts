import type { FastifyError, FastifyInstance } from 'fastify';
import { MSG, VALIDATION_MSG, isUserMessage, type ErrorCode } from '@contest/shared';
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

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    let mapped: Mapped | null = null;
    if (error instanceof AppError) {
      mapped = { status: error.status, code: error.code, message: error.message, data: error.data };
    } else if (error instanceof RequestValidationError) {
      mapped = fromValidation(error);
    } else if (error && typeof error === 'object' && 'validation' in error && (error as FastifyError).validation) {
      mapped = { status: 400, code: 'VALIDATION_FAILED', message: MSG.invalidField((error as FastifyError).validationContext ?? 'body'), data: null };
    } else {
      mapped = fromFastify(error as FastifyError);
    }
    if (!mapped) {
      request.log.error({ err: error }, 'unhandled error');
      mapped = { status: 500, code: 'INTERNAL', message: MSG.internal, data: null };
    } else if (mapped.status >= 500) {
      request.log.error({ err: error }, 'server error');
    }
    if (mapped.status === 429 && !reply.hasHeader('retry-after')) reply.header('retry-after', '60');
    return reply.status(mapped.status).send(failure(mapped.status, mapped.code, mapped.message, mapped.data));
  });
}
