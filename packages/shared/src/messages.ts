import { ADMIN_MSG } from './admin/messages.js';
import { REVIEW_MSG } from './review/messages.js';
import { CONTEST_MSG } from './contest/messages.js';
import { CONTENT_MSG } from './content/messages.js';
import { TEMPLATE_MSG } from './content/templates.js';
import { BROADCAST_MSG } from './content/broadcast-messages.js';
import { SETTINGS_MSG } from './admin/settings-messages.js';
import { LIST_QUERY_MSG } from './admin/list-query-messages.js';
import { DOCUMENT_MSG } from './content/document-messages.js';
import { DICT_MSG } from './admin/dictionary-messages.js';
import { FEEDBACK_MSG } from './content/feedback-messages.js';
import { NEWS_MSG } from './content/news-messages.js';
import { SCORE_LOG_MSG } from './results/score-log-messages.js';
import { RESULTS_MSG } from './results/messages.js';
import { LIVE_MSG } from './live-final/messages.js';
import { CERTIFICATE_MSG } from './certificates/messages.js';
import { RETENTION_MSG } from './retention/messages.js';

/** User-visible texts that the spec fixes word for word. Shared so server and web never drift. */
export const MSG = {
  requestFailed: '请求异常，请稍后再试',
  previous409: 'Previous 409 error encountered',
  noPermissionAssigned: '暂无分配权限',
  registerSuccess: '注册成功',
  confirmTitle: '提示',
  confirmOk: '确定',
  confirmCancel: '取消',
  dialogOk: '确认',
  dialogCancel: '取消',
  loading: '加载中...',
  requestLoading: '请求加载中....',
  emptyTable: '暂无相关信息',
  emptyData: '暂无数据',
  emptyCell: '--',
  sessionReplaced: '您的账号已在其他地方登录，请重新登录',
  unauthorized: '登录已失效，请重新登录',
  forbidden: '没有权限执行此操作',
  notFound: '请求的资源不存在',
  tooManyRequests: '操作过于频繁，请稍后再试',
  /** 503 with data.reason 'BUSY' (sign-in bursts, docs/performance.md): the web client waits and retries by itself. */
  busy: '当前使用人数较多，请稍后重试',
  payloadTooLarge: '提交的内容过大',
  internal: '服务器开小差了，请稍后再试',
  invalidField: (field: string) => `参数 ${field} 不合法`,
  missingField: (field: string) => `缺少参数 ${field}`,
} as const;

/**
 * Answers to requests Node refuses before routing (plugins/error-handler.ts onClientError). Apart
 * from MSG so the web app's first load, which never shows them, does not carry them.
 */
export const CONNECTION_MSG = {
  /** 431: the request line and headers together exceed the server's limit (a very long address). */
  requestHeadTooLarge: '请求地址或请求头过长，请缩短后重试',
  /** 408: the request did not arrive in time. */
  requestTimeout: '请求超时，请稍后重试',
} as const;

/** Outcomes of identity calls: shown under the password or code field on the login dialog. */
export const AUTH_MSG = {
  badCredentials: '用户名或密码错误',
  locked: '密码错误次数过多，账号已锁定，请15分钟后再试',
  disabled: '账号已被禁用，请联系管理员',
  noAccountForPhone: '该手机号尚未注册',
  phoneTaken: '该手机号已被注册',
  usernameTaken: '该用户名已被注册',
  emailTaken: '该邮箱已被注册',
  captchaFailed: '滑块验证已失效，请重新验证',
  oldPasswordWrong: '原密码错误',
  passwordReset: '密码重置成功，请使用新密码登录',
  passwordChanged: '密码修改成功',
  loggedOut: '已退出登录',
  loginSuccess: '登录成功',
  passwordChangeRequired: '密码由管理员设置，请先修改密码',
} as const;

/** Validation messages (docs/rules/identity.md, "Registration", and later features). Shown under form fields as is. */
export const VALIDATION_MSG = {
  usernameRequired: '请输入用户名',
  usernameFormat: '只能输入小写字母或数字',
  passwordRequired: '请输入密码',
  loginPasswordRequired: '请输入登录密码',
  passwordRule: '密码必须是8 - 16位，且包含数字、字母和特殊字符',
  confirmPasswordRequired: '请输入确认密码',
  passwordMismatch: '两次输入密码不同，请核查',
  phoneRequired: '请输入手机号',
  phoneLength: '手机号长度应为 11 位',
  phoneFormat: '请输入正确的手机号格式',
  codeRequired: '请输入验证码',
  emailRequired: '请输入邮箱地址',
  emailFormat: '请输入正确的邮箱格式',
  agreementRequired: '请先阅读并勾选协议',
  usernameLength: '用户名长度应为 4-20 位',
  /** Sign-in names (usernames, phones, emails, codes) are at most 64 characters; nothing longer can be an account. */
  loginNameLength: '用户名不能超过 64 个字符',
  emailLength: '邮箱地址过长',
  codeFormat: '验证码应为 6 位数字',
  passwordSame: '新密码不能与原密码相同',
  oldPasswordRequired: '请输入原密码',
  captchaRequired: '请先完成滑块验证',
  /** PUT /user/locale with a language the portal does not speak. */
  localeInvalid: '语言不正确',
  malformedBody: '请求内容格式不正确',
  unsupportedMediaType: '不支持的请求内容类型',
  /** Any request text with a character of FORBIDDEN_TEXT (text-rules.ts): controls, bidi overrides, zero-width and other invisible characters. */
  controlCharacters: '内容包含不允许的控制字符，请删除后重试',
} as const;

// Module catalogues (admin, ...) join here so the one error handler shows them all as written.
// Built on first use rather than at import: a top-level Set would keep every catalogue in the
// web app's first load, which only needs MSG.
let userMessages: ReadonlySet<string> | null = null;

/**
 * True for messages written for people (the catalogue above). The server shows those as
 * they are and replaces library defaults with a message naming the field.
 */
export function isUserMessage(message: string): boolean {
  userMessages ??= new Set([
    ...Object.values(VALIDATION_MSG),
    ...Object.values(ADMIN_MSG),
    ...Object.values(CONTENT_MSG),
    ...Object.values(TEMPLATE_MSG),
    ...Object.values(BROADCAST_MSG),
    ...Object.values(CONTEST_MSG),
    ...Object.values(SETTINGS_MSG),
    ...Object.values(LIST_QUERY_MSG),
    ...Object.values(REVIEW_MSG),
    ...Object.values(DOCUMENT_MSG),
    ...Object.values(DICT_MSG),
    ...Object.values(FEEDBACK_MSG),
    ...Object.values(NEWS_MSG),
    ...Object.values(SCORE_LOG_MSG),
    ...Object.values(RESULTS_MSG),
    ...Object.values(LIVE_MSG),
    ...Object.values(CERTIFICATE_MSG),
    ...Object.values(RETENTION_MSG),
  ]);
  return userMessages.has(message);
}
