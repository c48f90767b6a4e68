import { z } from 'zod';
import { REALMS, type Realm } from '../enums.js';
import { dateTimeQuery, keywordQuery, optionalQuery, pageQueryFields, rangeIsOrdered, type IsoDateTime } from './common.js';
import { ADMIN_MSG as M } from './messages.js';

/** The behaviour-auditing page guarding each realm's records (holding the menu grants reading). */
export const AUDIT_MENU_OF_REALM: Record<Realm, string> = {
  USER: 'UserManage',
  ADMIN: 'AdminManage',
  EXPERT: 'ExpertManage',
};

export const LOGIN_RESULTS = [
  'SUCCESS',
  'BAD_CREDENTIALS',
  'LOCKED',
  'DISABLED',
  'CAPTCHA_REQUIRED',
  'CAPTCHA_FAILED',
  'BAD_SMS_CODE',
  'UNKNOWN_ACCOUNT',
] as const;
export type LoginResult = (typeof LOGIN_RESULTS)[number];
export const LOGIN_RESULT_LABELS: Record<LoginResult, string> = {
  SUCCESS: '成功',
  BAD_CREDENTIALS: '密码错误',
  LOCKED: '账号锁定',
  DISABLED: '账号禁用',
  CAPTCHA_REQUIRED: '需要滑块验证',
  CAPTCHA_FAILED: '滑块验证失败',
  BAD_SMS_CODE: '验证码错误',
  UNKNOWN_ACCOUNT: '账号不存在',
};
export const LOGIN_METHODS = ['PASSWORD', 'SMS'] as const;
export type LoginMethod = (typeof LOGIN_METHODS)[number];

export const OPERATION_RESULTS = ['SUCCESS', 'FAILURE'] as const;
export type OperationResult = (typeof OPERATION_RESULTS)[number];

const realmSchema = z.enum(REALMS, { error: M.realmInvalid });

const commonFilters = {
  ...pageQueryFields,
  realm: realmSchema,
  /** Account: username (or the identifier typed at login) contains. */
  username: keywordQuery,
  /** Time range, Beijing time: YYYY-MM-DD HH:mm:ss or YYYY-MM-DD (a bare `to` date covers that whole day). */
  from: dateTimeQuery,
  to: dateTimeQuery,
};

export const loginRecordQuerySchema = z
  .object({
    ...commonFilters,
    /** The "action" of a login record is its method. */
    method: optionalQuery(z.enum(LOGIN_METHODS, { error: M.resultInvalid })),
    result: optionalQuery(z.enum(LOGIN_RESULTS, { error: M.resultInvalid })),
  })
  .refine(rangeIsOrdered, { message: M.dateRangeInvalid, path: ['from'] });
export type LoginRecordQuery = z.infer<typeof loginRecordQuerySchema>;

export const operationRecordQuerySchema = z
  .object({
    ...commonFilters,
    /** Action code, exact (`account:disable`) or a prefix ending in ':' (`account:`). */
    action: keywordQuery,
    result: optionalQuery(z.enum(OPERATION_RESULTS, { error: M.resultInvalid })),
  })
  .refine(rangeIsOrdered, { message: M.dateRangeInvalid, path: ['from'] });
export type OperationRecordQuery = z.infer<typeof operationRecordQuerySchema>;

export interface LoginRecordView {
  id: string;
  realm: Realm;
  accountId: string | null;
  /** What was typed: username or phone. */
  identifier: string;
  /** The account's username when the attempt matched an account. */
  username: string | null;
  name: string | null;
  method: LoginMethod;
  result: LoginResult;
  ip: string | null;
  userAgent: string | null;
  createdAt: IsoDateTime;
}

export interface OperationRecordView {
  id: string;
  realm: Realm;
  accountId: string | null;
  username: string;
  action: string;
  targetType: string;
  targetId: string | null;
  summary: string;
  result: OperationResult;
  ip: string | null;
  userAgent: string | null;
  createdAt: IsoDateTime;
}
