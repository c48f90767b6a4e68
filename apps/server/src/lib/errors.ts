import { MSG, STATUS_OF_CODE, type ErrorCode } from '@contest/shared';

/**
 * The one error type services throw. It knows nothing of HTTP transport; the error handler
 * turns it into the `{status, code, message, data}` envelope with the matching HTTP status.
 */
export class AppError extends Error {
  override name = 'AppError';
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly data: unknown = null,
  ) {
    super(message);
    this.status = STATUS_OF_CODE[code];
  }
}

export const badRequest = (message: string, data: unknown = null) =>
  new AppError('BAD_REQUEST', message, data);
export const unauthorized = (message: string = MSG.unauthorized) => new AppError('UNAUTHORIZED', message);
export const forbidden = (message: string = MSG.forbidden, data: unknown = null) => new AppError('FORBIDDEN', message, data);
export const notFound = (message: string = MSG.notFound) => new AppError('NOT_FOUND', message);
export const sessionReplaced = (message: string = MSG.sessionReplaced) =>
  new AppError('SESSION_REPLACED', message);
export const tooManyRequests = (message: string = MSG.tooManyRequests) =>
  new AppError('RATE_LIMITED', message);
export const payloadTooLarge = (message: string = MSG.payloadTooLarge) =>
  new AppError('PAYLOAD_TOO_LARGE', message);
