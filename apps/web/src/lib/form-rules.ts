/**
 * antd Form rules built from the zod schemas the server validates with (packages/shared
 * schemas/auth.ts), so the form and the server report the same first failure, in the order
 * docs/rules/identity.md, "Registration", lists the checks. Messages are the shared Chinese texts; in English they
 * are swapped for their translation by text, since the server sends the same Chinese texts.
 */
import { useCallback } from 'react';
import type { FormRule } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  AUTH_MSG,
  MSG,
  VALIDATION_MSG,
  emailSchema,
  loginUsernameSchema,
  passwordSchema,
  phoneSchema,
  smsCodeSchema,
  usernameSchema,
  changePasswordSchema,
} from '@contest/shared';
import { ApiError, type ClientErrorCode } from '../api';

/** The slice of a zod schema the rules need; avoids a direct dependency on zod here. */
export interface Parseable {
  safeParse(value: unknown): { success: true } | { success: false; error: { issues: { message: string }[] } };
}

export type TranslateMessage = (message: string) => string;

type ValidationKey = keyof typeof VALIDATION_MSG;
type AuthKey = keyof typeof AUTH_MSG;

const VALIDATION_KEY_OF = new Map<string, ValidationKey>(
  (Object.entries(VALIDATION_MSG) as [ValidationKey, string][]).map(([key, text]) => [text, key]),
);
const AUTH_KEY_OF = new Map<string, AuthKey>(
  (Object.entries(AUTH_MSG) as [AuthKey, string][]).map(([key, text]) => [text, key]),
);
/** The registration's success text (MSG, not AUTH_MSG), which the form echoes from the server. */
const SUCCESS_KEY_OF = new Map<string, 'registerSuccess'>([[MSG.registerSuccess, 'registerSuccess']]);

/** Translates a shared (Chinese) message; unknown texts, e.g. from the server, pass as they are. */
export function useTranslateMessage(): TranslateMessage {
  const { t } = useTranslation();
  return useCallback(
    (message: string) => {
      const validationKey = VALIDATION_KEY_OF.get(message);
      if (validationKey) return t(`validation.${validationKey}`);
      const authKey = AUTH_KEY_OF.get(message);
      if (authKey) return t(`authMsg.${authKey}`);
      const successKey = SUCCESS_KEY_OF.get(message);
      if (successKey) return t(`successMsg.${successKey}`);
      return message;
    },
    [t],
  );
}

function firstIssue(schema: Parseable, value: unknown): string | null {
  // antd reports a cleared field as undefined or ''; both mean "missing" to the schemas.
  const result = schema.safeParse(value ?? undefined);
  return result.success ? null : (result.error.issues[0]?.message ?? null);
}

/** One antd rule running a whole schema; only its first message shows, as the server does. */
export function schemaRule(schema: Parseable, translate: TranslateMessage): FormRule {
  return {
    validator: async (_rule, value: unknown) => {
      const message = firstIssue(schema, value);
      if (message) throw new Error(translate(message));
    },
  };
}

/** Confirm-password: required, the password rule, then equal to `otherField`. */
export function confirmPasswordRule(otherField: string, translate: TranslateMessage): FormRule {
  const schema = passwordSchema(VALIDATION_MSG.confirmPasswordRequired);
  return ({ getFieldValue }) => ({
    validator: async (_rule, value: unknown) => {
      const message = firstIssue(schema, value);
      if (message) throw new Error(translate(message));
      if (value !== getFieldValue(otherField)) throw new Error(translate(VALIDATION_MSG.passwordMismatch));
    },
  });
}

/** New password on the change-password page: the password rule, then different from the old one. */
export function newPasswordRule(oldField: string, translate: TranslateMessage): FormRule {
  return ({ getFieldValue }) => ({
    validator: async (_rule, value: unknown) => {
      const message = firstIssue(changePasswordSchema.shape.newPassword, value);
      if (message) throw new Error(translate(message));
      if (value === getFieldValue(oldField)) throw new Error(translate(VALIDATION_MSG.passwordSame));
    },
  });
}

/** Schemas per form field, in one place so every form uses the same ones. */
export const FIELD_SCHEMAS = {
  loginUsername: loginUsernameSchema,
  /** The login form gives the password the full 8-16 rule, unlike the server's presence check. */
  loginPassword: passwordSchema(VALIDATION_MSG.passwordRequired),
  registerUsername: usernameSchema,
  registerPassword: passwordSchema(VALIDATION_MSG.loginPasswordRequired),
  phone: phoneSchema,
  smsCode: smsCodeSchema,
  email: emailSchema,
  oldPassword: changePasswordSchema.shape.oldPassword,
} satisfies Record<string, Parseable>;

/**
 * The message to place under a form field for a failed identity call, or null when the
 * HTTP client has already told the user (network failures; staff 401/409/500, which it
 * toasts or turns into a redirect even for silent calls).
 */
export function fieldErrorOf(err: unknown, staff = false): string | null {
  if (!(err instanceof ApiError)) return null;
  const code: ClientErrorCode = err.code;
  if (code === 'HTTP_ERROR') return null;
  if (staff && (err.status === 401 || err.status === 409 || err.status >= 500)) return null;
  return err.message || null;
}

/** The server's hint on which field a 400 belongs to (register duplicates, wrong old password). */
export function errorFieldOf(err: unknown): string | null {
  if (!(err instanceof ApiError)) return null;
  const data: unknown = err.data;
  if (typeof data !== 'object' || data === null) return null;
  const field = (data as { field?: unknown }).field;
  return typeof field === 'string' ? field : null;
}

/** True when the server wants the slider shown and the call retried (spec: also on mobile). */
export function isCaptchaRequired(err: unknown): boolean {
  if (!(err instanceof ApiError)) return false;
  const data: unknown = err.data;
  return typeof data === 'object' && data !== null && (data as { captchaRequired?: unknown }).captchaRequired === true;
}
