/**
 * The one response envelope (docs/rules/screens.md, "Calls and answers"): the HTTP status always equals `status`.
 * `code` is machine-readable so the web client never matches on message text.
 */
export interface ApiEnvelope<T = unknown> {
  status: number;
  code: ErrorCode | 'OK';
  message: string;
  data: T;
}

export const ERROR_CODES = [
  'BAD_REQUEST',
  'VALIDATION_FAILED',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'SESSION_REPLACED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMITED',
  'SERVICE_UNAVAILABLE',
  'INTERNAL',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const STATUS_OF_CODE: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  VALIDATION_FAILED: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  SESSION_REPLACED: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  SERVICE_UNAVAILABLE: 503,
  INTERNAL: 500,
};

export interface Page<T> {
  list: T[];
  page: number;
  size: number;
  total: number;
}

/** Query arrays travel comma-separated (docs/rules/screens.md, "Calls and answers"): `?ids=1,2,3`. */
export function splitQueryArray(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  const parts = Array.isArray(value) ? value : [value];
  return parts
    .flatMap((part) => part.split(','))
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}

export function joinQueryArray(values: readonly (string | number)[]): string {
  return values.join(',');
}
