export const ROLE = {
  SUPER_ADMIN: 'SUPER_ADMIN',
  SYSTEM: 'SYSTEM',
  USER: 'USER',
  EXPERT: 'EXPERT',
} as const;
export type RoleCode = (typeof ROLE)[keyof typeof ROLE];

/** The three session realms, each with its own token (docs/rules/identity.md, "Three realms"). */
export const REALMS = ['USER', 'ADMIN', 'EXPERT'] as const;
export type Realm = (typeof REALMS)[number];

export const TOKEN_KEYS = {
  USER: 'AccessToken',
  ADMIN: 'AdminToken',
  EXPERT: 'ExpertToken',
} as const satisfies Record<Realm, string>;

export const TEAM_STATUSES = ['DRAFT', 'SUBMITTED', 'APPROVED', 'REVISING', 'REJECTED'] as const;
export type TeamStatus = (typeof TEAM_STATUSES)[number];

export const PRELIM_DOC_STATUSES = [
  'NOT_FILLED',
  'DRAFT',
  'SUBMITTED',
  'APPROVED',
  'REVISING',
  'REJECTED',
] as const;
export type PrelimDocStatus = (typeof PRELIM_DOC_STATUSES)[number];

export const SMS_KEYS = ['LOGIN_VERIFY_KEY', 'REGISTER_VERIFY_KEY', 'FIND_PASSWORD_KEY'] as const;
export type SmsKey = (typeof SMS_KEYS)[number];

export const NEWS_CATEGORIES = ['MEDICAL_INSURANCE', 'CONTEST_DYNAMIC'] as const;
export type NewsCategory = (typeof NEWS_CATEGORIES)[number];

export const NEWS_STATUSES = ['DRAFT', 'PUBLISHED', 'OFFLINE'] as const;
export type NewsStatus = (typeof NEWS_STATUSES)[number];

export const ATTACHMENT_ORIGINS = ['TEAM', 'PRELIM', 'NEWS', 'DOC', 'FEEDBACK', 'OTHER', 'CERT'] as const;
export type AttachmentOrigin = (typeof ATTACHMENT_ORIGINS)[number];

export const LOCALES = ['zh-cn', 'en'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'zh-cn';
