import type { FastifySchemaCompiler, FastifyTypeProvider } from 'fastify';
import { type z } from 'zod';
import { FORBIDDEN_TEXT, VALIDATION_MSG } from '@contest/shared';

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

// Which characters no request text may hold is one rule in packages/shared (text-rules.ts):
// refused before the schema, on the raw input of every part, whatever the field's own rules say.

/** Path of the first string (key or value) holding a forbidden character, else null. */
export function findForbiddenText(value: unknown, path: PropertyKey[] = [], depth = 0): PropertyKey[] | null {
  if (typeof value === 'string') return FORBIDDEN_TEXT.test(value) ? path : null;
  if (depth > 32 || value === null || typeof value !== 'object') return null;
  for (const [key, child] of Object.entries(value)) {
    const at = [...path, Array.isArray(value) ? Number(key) : key];
    if (FORBIDDEN_TEXT.test(key)) return at;
    const found = findForbiddenText(child, at, depth + 1);
    if (found) return found;
  }
  return null;
}

export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    // Before the schema, on the raw input: refused whatever the field's own rules say.
    const badAt = findForbiddenText(data);
    if (badAt) {
      const issue = { code: 'custom', message: VALIDATION_MSG.controlCharacters, path: badAt, input: undefined } as z.core.$ZodIssue;
      return { error: new RequestValidationError(httpPart ?? 'body', [issue]) };
    }
    const result = schema.safeParse(data);
    if (result.success) return { value: result.data };
    return { error: new RequestValidationError(httpPart ?? 'body', result.error.issues) };
  };
