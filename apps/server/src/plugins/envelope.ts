import type { ApiEnvelope, ErrorCode } from '@contest/shared';

export function ok<T>(data: T, message = 'success'): ApiEnvelope<T> {
  return { status: 200, code: 'OK', message, data };
}

export function failure(status: number, code: ErrorCode, message: string, data: unknown = null): ApiEnvelope {
  return { status, code, message, data };
}
