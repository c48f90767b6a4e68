import { z } from 'zod';
import { PASSWORD_MAX, PASSWORD_MIN, PHONE_LENGTH, SMS } from '../constants.js';
import { SMS_KEYS } from '../enums.js';
import { VALIDATION_MSG as V } from '../messages.js';

/**
 * The form rules (docs/rules/identity.md, "Registration"), shared by the web forms and the server. Checks run in the
 * order the spec lists them, and the server reports the first failure, so both show the same text.
 */
export const PASSWORD_PATTERN = /^(?=.*[A-Za-z])(?=.*\d)(?=.*[@$!%*?&])[A-Za-z\d@$!%*?&]+$/;
export const PHONE_PATTERN = /^1[3-9]\d{9}$/;
export const USERNAME_PATTERN = /^[a-z0-9]+$/;
// Practical e-mail shape: local@domain.tld, no spaces; the real check is the mail itself.
export const EMAIL_PATTERN = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$/;

/** Missing -> the "required" text; present but not a string -> `typeMessage` (default the same). */
const requiredString = (message: string, typeMessage: string = message) =>
  z.string({ error: (issue) => (issue.input === undefined || issue.input === null ? message : typeMessage) }).min(1, message);

export const loginUsernameSchema = requiredString(V.usernameRequired).max(64, V.loginNameLength);

export const passwordSchema = (requiredMessage: string = V.passwordRequired) =>
  requiredString(requiredMessage)
    .min(PASSWORD_MIN, V.passwordRule)
    .max(PASSWORD_MAX, V.passwordRule)
    .regex(PASSWORD_PATTERN, V.passwordRule);

/** Login only checks presence: an old password that predates the rule still signs in. */
export const loginPasswordSchema = requiredString(V.passwordRequired).max(128, V.passwordRule);

export const phoneSchema = requiredString(V.phoneRequired, V.phoneFormat)
  .length(PHONE_LENGTH, V.phoneLength)
  .regex(PHONE_PATTERN, V.phoneFormat);

export const smsCodeSchema = requiredString(V.codeRequired, V.codeFormat)
  .length(SMS.codeLength, V.codeFormat)
  .regex(/^\d+$/, V.codeFormat);

export const usernameSchema = requiredString(V.usernameRequired)
  .regex(USERNAME_PATTERN, V.usernameFormat)
  .min(4, V.usernameLength)
  .max(20, V.usernameLength);

export const emailSchema = requiredString(V.emailRequired).max(100, V.emailLength).regex(EMAIL_PATTERN, V.emailFormat);

export const smsKeySchema = z.enum(SMS_KEYS);

/**
 * An account's language (docs/decisions.md, "English"): the language notices reach it in. Set from
 * the web's language at sign-in, registration and on a switch while signed in (PUT /user/locale).
 */
export const ACCOUNT_LOCALES = ['zh-CN', 'en'] as const;
export type AccountLocale = (typeof ACCOUNT_LOCALES)[number];
export const DEFAULT_ACCOUNT_LOCALE: AccountLocale = 'zh-CN';
export const accountLocaleSchema = z.enum(ACCOUNT_LOCALES, { error: V.localeInvalid });
/** PUT /user/locale */
export const localeBodySchema = z.object({ locale: accountLocaleSchema });
export type LocaleBody = z.infer<typeof localeBodySchema>;
/** The account locale of a web language ('zh-cn' | 'en'). */
export const accountLocaleOf = (webLocale: string): AccountLocale => (webLocale.toLowerCase().startsWith('en') ? 'en' : 'zh-CN');

/** Optional on sign-in and registration: the page's language, stored on the account. */
const localeField = { locale: accountLocaleSchema.optional() };

export const registerSchema = z.object({
  username: usernameSchema,
  password: passwordSchema(V.loginPasswordRequired),
  email: emailSchema,
  phone: phoneSchema,
  smsCode: smsCodeSchema,
  ...localeField,
});
export type RegisterInput = z.infer<typeof registerSchema>;

const captchaFields = {
  imageKey: z.string().max(128).optional(),
  slidingDistance: z.coerce.number().optional(),
  ...localeField,
};

/** POST /login: username + password, or phone + SMS code when isPhoneLogin. */
export const loginSchema = z.preprocess(
  // Forms may send the flag as a string; absent means password login.
  (raw) =>
    raw && typeof raw === 'object'
      ? { ...raw, isPhoneLogin: (raw as { isPhoneLogin?: unknown }).isPhoneLogin === true || (raw as { isPhoneLogin?: unknown }).isPhoneLogin === 'true' }
      : raw,
  z.discriminatedUnion('isPhoneLogin', [
    z.object({ isPhoneLogin: z.literal(true), phone: phoneSchema, smsCode: smsCodeSchema, ...captchaFields }),
    z.object({ isPhoneLogin: z.literal(false), username: loginUsernameSchema, password: loginPasswordSchema, ...captchaFields }),
  ]),
);
export type LoginInput = z.infer<typeof loginSchema>;

/** Admin and expert consoles sign in with username + password only. */
export const staffLoginSchema = z.object({
  username: loginUsernameSchema,
  password: loginPasswordSchema,
  ...captchaFields,
});
export type StaffLoginInput = z.infer<typeof staffLoginSchema>;

export const findPasswordSchema = z.object({
  phone: phoneSchema,
  smsCode: smsCodeSchema,
  password: passwordSchema(V.loginPasswordRequired),
});
export type FindPasswordInput = z.infer<typeof findPasswordSchema>;

export const changePasswordSchema = z
  .object({
    oldPassword: requiredString(V.oldPasswordRequired).max(128, V.passwordRule),
    newPassword: passwordSchema(V.loginPasswordRequired),
  })
  .refine((v) => v.oldPassword !== v.newPassword, { message: V.passwordSame, path: ['newPassword'] });
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;
