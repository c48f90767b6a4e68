import type { FastifySchemaCompiler, FastifyTypeProvider } from 'fastify';
import { z } from 'zod';

/**
 * Route schemas are zod schemas (the same ones the web app uses), so Fastify validates with
 * zod and handlers get the parsed, typed values. Responses are envelopes built in code.
 */
export interface ZodTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends z.ZodType ? z.output<this['schema']> : unknown;
  serializer: this['schema'] extends z.ZodType ? z.input<this['schema']> : unknown;
}

export class RequestValidationError extends Error {
  override name = 'RequestValidationError';
  constructor(
    readonly part: string,
    readonly issues: z.core.$ZodIssue[],
  ) {
    super(issues[0]?.message ?? 'invalid request');
  }
}

/**
 * Path of the first string holding a NUL character. PostgreSQL text cannot store NUL, so such
 * a value would fail deep in the driver as a 500; it is refused here as bad input instead.
 */
export function findNulString(value: unknown, path: PropertyKey[] = [], depth = 0): PropertyKey[] | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (depth > 32 || value === null || typeof value !== 'object') return null;
  for (const [key, child] of Object.entries(value)) {
    const found = findNulString(child, [...path, Array.isArray(value) ? Number(key) : key], depth + 1);
    if (found) return found;
  }
  return null;
}

export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    const nulAt = findNulString(data);
    if (nulAt) {
      const issue = { code: 'custom', message: 'NUL character', path: nulAt, input: undefined } as z.core.$ZodIssue;
      return { error: new RequestValidationError(httpPart ?? 'body', [issue]) };
    }
    const result = schema.safeParse(data);
    if (result.success) return { value: result.data };
    return { error: new RequestValidationError(httpPart ?? 'body', result.error.issues) };
  };
