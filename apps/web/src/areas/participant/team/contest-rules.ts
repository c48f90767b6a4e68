/**
 * antd rules for the sign-up and materials forms, run by the very zod schemas the server
 * validates with (packages/shared/src/contest), so a field shows the message the server
 * would answer. Each rule parses the whole form and keeps the first issue at its own path:
 * the schemas normalise and cross-check fields (empty advisor, uploads as uniqueNo), which a
 * per-field schema could not.
 */
import { useCallback } from 'react';
import type { FormInstance, FormRule } from 'antd';
import { useTranslation } from 'react-i18next';
import { CONTEST_MSG } from '@contest/shared';
import { ApiError } from '../../../api';
import { useTranslateMessage, type Parseable } from '../../../lib/form-rules';

type FieldPath = readonly (string | number)[];

interface Issue {
  path: readonly PropertyKey[];
  message: string;
}

interface IssueSchema {
  safeParse(value: unknown): { success: true } | { success: false; error: { issues: readonly Issue[] } };
}

type ContestKey = keyof typeof CONTEST_MSG;
const CONTEST_KEY_OF = new Map<string, ContestKey>(
  (Object.entries(CONTEST_MSG) as [ContestKey, string][]).map(([key, text]) => [text, key]),
);

/** Translates a shared (Chinese) message of the contest or identity catalogue; others pass through. */
export function useContestMessage(): (message: string) => string {
  const { t } = useTranslation('signup');
  const translateCommon = useTranslateMessage();
  return useCallback(
    (message: string) => {
      const key = CONTEST_KEY_OF.get(message);
      return key ? t(`msg.${key}`) : translateCommon(message);
    },
    [t, translateCommon],
  );
}

const samePath = (a: readonly PropertyKey[], b: FieldPath) =>
  a.length === b.length && a.every((part, i) => String(part) === String(b[i]));

/** First message of `schema` for `path` when parsing `payload`; null when that field is fine. */
export function issueAt(schema: IssueSchema | Parseable, payload: unknown, path: FieldPath): string | null {
  const result = (schema as IssueSchema).safeParse(payload);
  if (result.success) return null;
  return result.error.issues.find((issue) => samePath(issue.path, path))?.message ?? null;
}

/** Every field path with its first message, in the schema's order. */
export function issuesOf(schema: IssueSchema, payload: unknown): { path: (string | number)[]; message: string }[] {
  const result = schema.safeParse(payload);
  if (result.success) return [];
  const seen = new Set<string>();
  const out: { path: (string | number)[]; message: string }[] = [];
  for (const issue of result.error.issues) {
    const path = issue.path.map((p) => (typeof p === 'number' ? p : String(p)));
    const key = path.join('.');
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ path, message: issue.message });
  }
  return out;
}

export interface SchemaRuleOptions<V> {
  /** The schema in force (submit or draft), read when the rule runs. */
  schema(): IssueSchema;
  /** The form's values as the call would send them. */
  payload(values: V): unknown;
  translate(message: string): string;
  /** A check the schema makes only once everything else is valid (e.g. a cross-field rule). */
  extra?(values: V): string | null;
}

/** A validator rule (so Form.List takes it too) for the field at `path`. */
export function schemaRule<V>(
  form: FormInstance<V>,
  path: FieldPath,
  options: SchemaRuleOptions<V>,
): FormRule & { validator(rule: unknown, value: unknown): Promise<void> } {
  return {
    validator: async () => {
      const values = form.getFieldsValue(true) as V;
      const message = issueAt(options.schema(), options.payload(values), path) ?? options.extra?.(values) ?? null;
      if (message) throw new Error(options.translate(message));
    },
  };
}

/** The server's 400: its message, and the form path it names (`data.field` like "members.0.phone"). */
export function refusalOf(err: unknown): { message: string; path: (string | number)[] | null } | null {
  if (!(err instanceof ApiError) || err.code === 'HTTP_ERROR' || err.status === 401) return null;
  const data: unknown = err.data;
  const field = typeof data === 'object' && data !== null ? (data as { field?: unknown }).field : undefined;
  const path =
    typeof field === 'string' && field !== ''
      ? field.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part))
      : null;
  return { message: err.message, path };
}
