import { z } from 'zod';
import { enabledQuery, keywordQuery, optionalQuery, pageQueryFields, type IsoDateTime } from '../admin/common.js';
import { ADMIN_MSG } from '../admin/messages.js';
import { BROADCAST_VARIABLES } from './broadcast.js';

/**
 * One template model for the three channels (docs/rules/content.md, "Message templates"): an event notice (`code` = the
 * event below, one template per event, defaults as written here) or a template of bulk sends
 * (no code). Bodies name variables in braces ({teamName}); a saved template may use only the
 * variables its event offers. Calls in docs/api-content.md ("Message templates").
 */

export const MESSAGE_CHANNELS = ['INSITE', 'SMS', 'EMAIL'] as const;
export type MessageChannel = (typeof MESSAGE_CHANNELS)[number];
export const MESSAGE_CHANNEL_LABELS: Record<MessageChannel, string> = { INSITE: '站内信', SMS: '短信', EMAIL: '邮件' };

/** Every variable a template may name, with what the editor shows and the preview fills in. */
export const TEMPLATE_VARIABLES = {
  name: { label: '收件人姓名', example: '张三' },
  teamName: { label: '团队名称', example: '智慧医保创新队' },
  orgName: { label: '单位名称', example: '示例大学附属医院' },
  projectName: { label: '项目名称', example: '医保基金智能监管平台' },
  status: { label: '审核结果', example: '退回修改' },
  reason: { label: '原因或审核意见', example: '请补充单位推荐函' },
  round: { label: '评审轮次', example: '初赛' },
  deadlineHint: { label: '截止提示', example: '请在 2025-09-30 18:00（北京时间）前' },
  submittedDate: { label: '提交日期', example: '2025-09-01' },
  // Results publication and appeals (docs/rules/results.md).
  result: { label: '公示结果', example: '晋级决赛' },
  periodEnd: { label: '公示截止时间', example: '2025-10-05 18:00' },
} as const satisfies Record<string, { label: string; example: string }>;
export type TemplateVariable = keyof typeof TEMPLATE_VARIABLES;

export interface TemplateEventDef {
  /** What the event is; also the template's default name. */
  name: string;
  /** Who receives it (STAFF: console accounts, e.g. the super admins). */
  audience: 'PARTICIPANT' | 'EXPERT' | 'STAFF';
  /** The variables the sender fills in: the only ones a saved template may use. */
  variables: readonly TemplateVariable[];
  /** `templateKey` of its SMS outbox rows (the gateway template it maps to). */
  smsKey: string;
  /** Gateway template parameters, in order (gateways that render the text themselves). */
  smsParams: readonly TemplateVariable[];
  defaults: { channels: readonly MessageChannel[]; subject: string; body: string; smsText: string };
}

const SIGN = '【智慧医保大赛】';
const AUDIT_SMS_VARS = ['teamName', 'status'] as const;
const PRELIM_SMS_VARS = ['projectName', 'status'] as const;

/**
 * The events that send notices today, with their texts as the services wrote them before
 * templates: an unedited template sends exactly what was sent before. In-site and
 * email use `subject` and `body`; SMS uses `smsText`. EMAIL goes out only when 邮件通知
 * (notify.email) is on and the recipient has an address; SMS only when 短信通知 is on.
 */
export const TEMPLATE_EVENTS = {
  TEAM_SUBMITTED: {
    name: '报名信息已提交',
    audience: 'PARTICIPANT',
    variables: ['teamName'],
    smsKey: 'TEAM_SUBMITTED',
    smsParams: ['teamName'],
    defaults: { channels: ['INSITE', 'EMAIL'], subject: '报名信息已提交', body: '您的团队「{teamName}」的报名信息已提交，请等待审核。', smsText: '' },
  },
  TEAM_APPROVED: {
    name: '报名审核通过',
    audience: 'PARTICIPANT',
    variables: ['teamName', 'status'],
    smsKey: 'TEAM_AUDIT',
    smsParams: AUDIT_SMS_VARS,
    defaults: {
      channels: ['INSITE', 'SMS', 'EMAIL'],
      subject: '报名审核通过',
      body: '您的团队「{teamName}」报名审核已通过，请在初赛材料提交时间内提交初赛材料。',
      smsText: `${SIGN}您的团队「{teamName}」报名审核结果：{status}。`,
    },
  },
  TEAM_REVISING: {
    name: '报名信息需修改',
    audience: 'PARTICIPANT',
    variables: ['teamName', 'status', 'reason'],
    smsKey: 'TEAM_AUDIT',
    smsParams: AUDIT_SMS_VARS,
    defaults: {
      channels: ['INSITE', 'SMS', 'EMAIL'],
      subject: '报名信息需修改',
      body: '您的团队「{teamName}」报名审核结果：{status}。审核意见：{reason}',
      smsText: `${SIGN}您的团队「{teamName}」报名审核结果：{status}，请登录大赛官网查看审核意见。`,
    },
  },
  TEAM_REJECTED: {
    name: '报名审核未通过',
    audience: 'PARTICIPANT',
    variables: ['teamName', 'status', 'reason'],
    smsKey: 'TEAM_AUDIT',
    smsParams: AUDIT_SMS_VARS,
    defaults: {
      channels: ['INSITE', 'SMS', 'EMAIL'],
      subject: '报名审核未通过',
      body: '您的团队「{teamName}」报名审核结果：{status}。审核意见：{reason}',
      smsText: `${SIGN}您的团队「{teamName}」报名审核结果：{status}，请登录大赛官网查看审核意见。`,
    },
  },
  TEAM_DRAFT_REMIND: {
    name: '提醒提交报名信息',
    audience: 'PARTICIPANT',
    variables: [],
    smsKey: 'TEAM_DRAFT_REMIND',
    smsParams: [],
    defaults: {
      channels: ['INSITE', 'SMS', 'EMAIL'],
      subject: '请尽快提交报名信息',
      body: '您的参赛报名信息尚未提交。请在报名截止前完善并提交报名信息，逾期将无法参赛。',
      smsText: `${SIGN}您的参赛报名信息尚未提交，请在报名截止前登录大赛官网完成提交。`,
    },
  },
  PRELIM_SUBMITTED: {
    name: '初赛材料已提交',
    audience: 'PARTICIPANT',
    variables: ['projectName'],
    smsKey: 'PRELIM_SUBMITTED',
    smsParams: ['projectName'],
    defaults: { channels: ['INSITE', 'EMAIL'], subject: '初赛材料已提交', body: '您的项目「{projectName}」的初赛材料已提交，请等待形式审查。', smsText: '' },
  },
  PRELIM_APPROVED: {
    name: '初赛材料形式审查通过',
    audience: 'PARTICIPANT',
    variables: ['projectName', 'status'],
    smsKey: 'PRELIM_AUDIT',
    smsParams: PRELIM_SMS_VARS,
    defaults: {
      channels: ['INSITE', 'SMS', 'EMAIL'],
      subject: '初赛材料形式审查通过',
      body: '您的项目「{projectName}」初赛材料已通过形式审查，将进入初赛评审。',
      smsText: `${SIGN}您的项目「{projectName}」初赛材料审查结果：{status}。`,
    },
  },
  PRELIM_REVISING: {
    name: '初赛材料需修改',
    audience: 'PARTICIPANT',
    variables: ['projectName', 'status', 'reason'],
    smsKey: 'PRELIM_AUDIT',
    smsParams: PRELIM_SMS_VARS,
    defaults: {
      channels: ['INSITE', 'SMS', 'EMAIL'],
      subject: '初赛材料需修改',
      body: '您的项目「{projectName}」初赛材料审查结果：{status}。审核意见：{reason}',
      smsText: `${SIGN}您的项目「{projectName}」初赛材料审查结果：{status}，请登录大赛官网查看审核意见。`,
    },
  },
  PRELIM_REJECTED: {
    name: '初赛材料形式审查未通过',
    audience: 'PARTICIPANT',
    variables: ['projectName', 'status', 'reason'],
    smsKey: 'PRELIM_AUDIT',
    smsParams: PRELIM_SMS_VARS,
    defaults: {
      channels: ['INSITE', 'SMS', 'EMAIL'],
      subject: '初赛材料形式审查未通过',
      body: '您的项目「{projectName}」初赛材料审查结果：{status}。审核意见：{reason}',
      smsText: `${SIGN}您的项目「{projectName}」初赛材料审查结果：{status}，请登录大赛官网查看审核意见。`,
    },
  },
  PRELIM_DRAFT_REMIND: {
    name: '提醒提交初赛材料',
    audience: 'PARTICIPANT',
    variables: [],
    smsKey: 'PRELIM_DRAFT_REMIND',
    smsParams: [],
    defaults: {
      channels: ['INSITE', 'SMS', 'EMAIL'],
      subject: '请尽快提交初赛材料',
      body: '您的初赛材料尚未提交。请在初赛材料提交截止前完善并提交，逾期将无法参加初赛评审。',
      smsText: `${SIGN}您的初赛材料尚未提交，请在截止前登录大赛官网完成提交。`,
    },
  },
  FINAL_PROMOTED: {
    name: '晋级决赛',
    audience: 'PARTICIPANT',
    variables: ['projectName'],
    smsKey: 'FINAL_PROMOTED',
    smsParams: ['projectName'],
    defaults: {
      channels: ['INSITE', 'SMS', 'EMAIL'],
      subject: '晋级决赛',
      body: '恭喜！您的项目「{projectName}」已晋级决赛，请留意决赛安排通知。',
      smsText: `${SIGN}恭喜！您的项目「{projectName}」已晋级决赛，请登录大赛官网查看。`,
    },
  },
  FEEDBACK_REPLIED: {
    name: '反馈已回复',
    audience: 'PARTICIPANT',
    variables: ['submittedDate'],
    smsKey: 'FEEDBACK_REPLIED',
    smsParams: ['submittedDate'],
    defaults: {
      channels: ['INSITE', 'EMAIL'],
      subject: '您的反馈已回复',
      body: '您于 {submittedDate} 提交的反馈已有回复，请在“我的反馈”中查看。',
      smsText: '',
    },
  },
  REVIEW_REMIND: {
    name: '专家评审提醒',
    audience: 'EXPERT',
    variables: ['round', 'deadlineHint'],
    smsKey: 'REVIEW_REMIND',
    smsParams: ['round'],
    defaults: {
      channels: ['INSITE', 'SMS', 'EMAIL'],
      subject: '{round}评审提醒',
      body: '您在{round}评审中还有项目未提交评分，{deadlineHint}登录专家评审系统完成评分。',
      smsText: `${SIGN}您在{round}评审中还有项目未提交评分，请尽快登录专家评审系统完成评分。`,
    },
  },
  SCORE_RETURNED: {
    name: '评分被退回',
    audience: 'EXPERT',
    variables: ['projectName', 'round', 'reason'],
    smsKey: 'SCORE_RETURNED',
    smsParams: ['projectName', 'round'],
    defaults: {
      channels: ['INSITE', 'EMAIL'],
      subject: '评分被退回',
      body: '您对项目「{projectName}」的{round}评分已被退回。退回原因：{reason}。请在评审时间内重新评分并提交。',
      smsText: '',
    },
  },
  REREVIEW_INVITED: {
    name: '复评邀请',
    audience: 'EXPERT',
    variables: ['projectName', 'round', 'reason'],
    smsKey: 'REREVIEW_INVITED',
    smsParams: ['projectName', 'round'],
    defaults: {
      channels: ['INSITE', 'EMAIL'],
      subject: '新的复评项目',
      body: '您被邀请参与项目「{projectName}」的{round}复评。复评原因：{reason}。请在评审时间内完成评分。',
      smsText: '',
    },
  },
  // A note from the organisers on an expert's scoring (docs/rules/judging-quality.md, "Calibration"): in-site only, private.
  REVIEW_CALIBRATION_NOTE: {
    name: '评分校准说明',
    audience: 'EXPERT',
    variables: ['round', 'reason'],
    smsKey: 'REVIEW_CALIBRATION_NOTE',
    smsParams: ['round'],
    defaults: {
      channels: ['INSITE'],
      subject: '{round}评分说明',
      body: '大赛组织方就您在{round}评审中的评分给您留言：{reason}',
      smsText: '',
    },
  },
  // Results publication (公示) and appeals (docs/rules/results.md): the team of each project of the round.
  RESULT_PUBLISHED: {
    name: '结果公示',
    audience: 'PARTICIPANT',
    variables: ['projectName', 'round', 'result', 'periodEnd', 'deadlineHint'],
    smsKey: 'RESULT_PUBLISHED',
    smsParams: ['round', 'projectName', 'result'],
    defaults: {
      channels: ['INSITE', 'SMS', 'EMAIL'],
      subject: '{round}结果公示',
      body: '{round}结果已发布并进入公示期，公示期至 {periodEnd}（北京时间）。您的项目「{projectName}」：{result}。如有异议，{deadlineHint}登录大赛官网提交申诉（每轮限一次）。',
      smsText: `${SIGN}{round}结果已公示，您的项目「{projectName}」：{result}，请登录大赛官网查看。`,
    },
  },
  APPEAL_RECEIVED: {
    name: '申诉已受理',
    audience: 'PARTICIPANT',
    variables: ['projectName', 'round', 'periodEnd'],
    smsKey: 'APPEAL_RECEIVED',
    smsParams: ['round'],
    defaults: {
      channels: ['INSITE', 'EMAIL'],
      subject: '申诉已受理',
      body: '您对{round}结果提交的申诉（项目「{projectName}」）已受理，大赛组委会将在 {periodEnd}（北京时间）前答复，请留意站内信。',
      smsText: '',
    },
  },
  APPEAL_REJECTED: {
    name: '申诉未予支持',
    audience: 'PARTICIPANT',
    variables: ['projectName', 'round', 'reason'],
    smsKey: 'APPEAL_DECIDED',
    smsParams: ['round'],
    defaults: {
      channels: ['INSITE', 'SMS', 'EMAIL'],
      subject: '申诉处理结果',
      body: '您对{round}结果的申诉（项目「{projectName}」）经审核未予支持。答复意见：{reason}',
      smsText: `${SIGN}您对{round}结果的申诉已处理，请登录大赛官网查看答复。`,
    },
  },
  APPEAL_ACCEPTED: {
    name: '申诉已受理复评',
    audience: 'PARTICIPANT',
    variables: ['projectName', 'round', 'reason'],
    smsKey: 'APPEAL_DECIDED',
    smsParams: ['round'],
    defaults: {
      channels: ['INSITE', 'SMS', 'EMAIL'],
      subject: '申诉处理结果',
      body: '您对{round}结果的申诉（项目「{projectName}」）已被受理，项目将进行复评，复评结束后将发布更正后的结果。答复意见：{reason}',
      smsText: `${SIGN}您对{round}结果的申诉已受理，项目将进行复评，请登录大赛官网查看。`,
    },
  },
  RESULT_REVISED: {
    name: '结果更正',
    audience: 'PARTICIPANT',
    variables: ['projectName', 'round', 'result', 'reason', 'periodEnd'],
    smsKey: 'RESULT_REVISED',
    smsParams: ['round', 'projectName', 'result'],
    defaults: {
      channels: ['INSITE', 'SMS', 'EMAIL'],
      subject: '{round}结果更正',
      body: '{round}结果经复评已发布更正版本，公示期至 {periodEnd}（北京时间）。您的项目「{projectName}」：{result}。更正原因：{reason}',
      smsText: `${SIGN}{round}结果已更正，您的项目「{projectName}」：{result}，请登录大赛官网查看。`,
    },
  },
  // An expert abstained from an assigned project (docs/rules/review.md, "Abstaining"): every super admin.
  SCORE_ABSTAINED: {
    name: '专家回避评审项目',
    audience: 'STAFF',
    variables: ['name', 'projectName', 'round', 'reason'],
    smsKey: 'SCORE_ABSTAINED',
    smsParams: [],
    defaults: {
      channels: ['INSITE'],
      subject: '专家回避评审项目',
      body: '专家{name}已回避项目「{projectName}」的{round}评审，原因：{reason}。该项目需另行安排评审专家，请在「评审监控」中查看建议人选。',
      smsText: '',
    },
  },
  // A round's certificates are ready (docs/certificates.md): the owners of the teams a run gave a new document.
  CERTIFICATES_READY: {
    name: '证书已颁发',
    audience: 'PARTICIPANT',
    variables: ['teamName', 'projectName', 'round'],
    smsKey: 'CERTIFICATES_READY',
    smsParams: ['round'],
    defaults: {
      channels: ['INSITE', 'EMAIL'],
      subject: '{round}证书已颁发',
      body: '您的团队「{teamName}」（项目「{projectName}」）的{round}证书已颁发，请登录大赛官网，在「我的证书」中查看和下载。证书上的编号和二维码可在官网验证真伪。',
      smsText: '',
    },
  },
  // The daily score-log verification found a difference (docs/security.md): every super admin.
  SCORE_LOG_MISMATCH: {
    name: '评分存证校验异常',
    audience: 'STAFF',
    variables: ['reason'],
    smsKey: 'SCORE_LOG_MISMATCH',
    smsParams: [],
    defaults: {
      channels: ['INSITE', 'EMAIL'],
      subject: '评分存证校验发现异常',
      body: '每日评分存证校验发现异常：{reason}。请登录管理后台，在「评分存证」页面重新校验并核查。',
      smsText: '',
    },
  },
  // Personal data requests (docs/retention.md): the participant's export is ready; their deletion request decided.
  DATA_EXPORT_READY: {
    name: '个人数据导出已生成',
    audience: 'PARTICIPANT',
    variables: [],
    smsKey: 'DATA_EXPORT_READY',
    smsParams: [],
    defaults: {
      channels: ['INSITE', 'EMAIL'],
      subject: '您的个人数据导出已生成',
      body: '您申请导出的个人数据已生成，请在 7 天内登录大赛官网，在“个人数据”页面下载。',
      smsText: '',
    },
  },
  DATA_DELETE_APPROVED: {
    name: '个人信息删除申请已批准',
    audience: 'PARTICIPANT',
    variables: ['reason'],
    smsKey: 'DATA_DELETE_APPROVED',
    smsParams: [],
    defaults: {
      channels: ['INSITE', 'SMS', 'EMAIL'],
      subject: '个人信息删除申请已批准',
      body: '您的个人信息删除申请已批准，您的账号及个人信息将被删除（匿名化），比赛结果保留。答复意见：{reason}',
      smsText: `${SIGN}您的个人信息删除申请已批准，账号及个人信息将被删除。`,
    },
  },
  DATA_DELETE_WAITING: {
    name: '个人信息删除待流程结束',
    audience: 'PARTICIPANT',
    variables: ['status', 'reason'],
    smsKey: 'DATA_DELETE_WAITING',
    smsParams: [],
    defaults: {
      channels: ['INSITE', 'EMAIL'],
      subject: '个人信息删除申请已批准，待流程结束后执行',
      body: '您的个人信息删除申请已批准。由于{status}，删除将在相关流程结束后自动执行。答复意见：{reason}',
      smsText: '',
    },
  },
  DATA_DELETE_REJECTED: {
    name: '个人信息删除申请被驳回',
    audience: 'PARTICIPANT',
    variables: ['reason'],
    smsKey: 'DATA_DELETE_REJECTED',
    smsParams: [],
    defaults: {
      channels: ['INSITE', 'EMAIL'],
      subject: '个人信息删除申请未获批准',
      body: '您的个人信息删除申请未获批准。答复意见：{reason}',
      smsText: '',
    },
  },
} as const satisfies Record<string, TemplateEventDef>;
export type TemplateEventCode = keyof typeof TEMPLATE_EVENTS;
export const TEMPLATE_EVENT_CODES = Object.keys(TEMPLATE_EVENTS) as TemplateEventCode[];
export const isTemplateEventCode = (value: string): value is TemplateEventCode => Object.hasOwn(TEMPLATE_EVENTS, value);

/** What a bulk-send template (no event) may name: the bulk send fills them per recipient. */
export const BULK_TEMPLATE_VARIABLES: readonly TemplateVariable[] = BROADCAST_VARIABLES;

/** The variables a template may use: its event's, or those of bulk sends. */
export const variablesOf = (code: string | null): readonly TemplateVariable[] =>
  code && isTemplateEventCode(code) ? TEMPLATE_EVENTS[code].variables : BULK_TEMPLATE_VARIABLES;

// `{name}`: a letter, then letters or digits. Other braces are text.
const VARIABLE = /\{([A-Za-z][A-Za-z0-9]*)\}/g;

/** The variables a text names, each once, in order of first use. */
export function templateVariablesIn(text: string): string[] {
  return [...new Set(Array.from(text.matchAll(VARIABLE), (m) => m[1]!))];
}

/** Names used in `texts` that are not in `allowed`, each once. */
export function unknownTemplateVariables(texts: readonly string[], allowed: readonly string[]): string[] {
  const known = new Set(allowed);
  return [...new Set(texts.flatMap(templateVariablesIn))].filter((v) => !known.has(v));
}

/**
 * Plain substitution (SMS, email, titles): `{name}` becomes its value; a variable without a
 * value becomes empty. HTML for the inbox is the server's job (it escapes the result).
 */
export function fillTemplate(text: string, vars: Readonly<Record<string, string | undefined>>): string {
  return text.replace(VARIABLE, (_whole, name: string) => vars[name] ?? '');
}

/** Example values of variables, for previews. */
export function exampleVariables(variables: readonly string[]): Record<string, string> {
  return Object.fromEntries(variables.map((v) => [v, (TEMPLATE_VARIABLES as Record<string, { example: string }>)[v]?.example ?? v]));
}

/** Texts of the template calls; joined to `isUserMessage` (shown as written). */
export const TEMPLATE_MSG = {
  templateNotFound: '模板不存在',
  templateKindInvalid: '模板类型不正确',
  templateNameRequired: '请输入模板名称',
  templateNameTooLong: '模板名称不能超过 50 个字符',
  templateChannelsRequired: '请至少选择一个发送渠道',
  templateChannelInvalid: '发送渠道不正确',
  templateSubjectRequired: '请输入标题',
  templateSubjectTooLong: '标题不能超过 100 个字符',
  templateBodyRequired: '请输入正文',
  templateBodyTooLong: '正文不能超过 2000 个字符',
  templateSmsTextRequired: '请输入短信内容',
  templateSmsTextTooLong: '短信内容不能超过 500 个字符',
  templateSubjectEnTooLong: '英文标题不能超过 100 个字符',
  templateBodyEnTooLong: '英文正文不能超过 2000 个字符',
  templateSmsTextEnTooLong: '英文短信内容不能超过 500 个字符',
  templateSmsIdInvalid: '短信平台模板 ID 只能包含字母、数字、下划线和短横线，最多 64 个字符',
  templateVersionInvalid: '版本号不正确',
  templateStale: '模板已被他人修改，请刷新后重试',
  templateCreated: '模板已创建',
  templateSaved: '模板已保存',
  templateEnabled: '模板已启用',
  templateDisabled: '模板已停用',
  templateReset: '已恢复默认模板',
  templateDeleted: '模板已删除',
} as const;

/** 400 naming the variables a template may not use (data.reason UNKNOWN_VARIABLE). */
export const unknownVariablesMessage = (names: readonly string[]) => `模板中有未知变量：${names.map((n) => `{${n}}`).join('、')}`;

const M = TEMPLATE_MSG;

export const TEMPLATE_KINDS = ['EVENT', 'BULK'] as const;
export type TemplateKind = (typeof TEMPLATE_KINDS)[number];

/** GET /admin/templates */
export const templateListQuerySchema = z.object({
  ...pageQueryFields,
  kind: optionalQuery(z.enum(TEMPLATE_KINDS, { error: M.templateKindInvalid })),
  channel: optionalQuery(z.enum(MESSAGE_CHANNELS, { error: M.templateChannelInvalid })),
  keyword: keywordQuery,
  enabled: enabledQuery,
});
export type TemplateListQuery = z.infer<typeof templateListQuerySchema>;

/** `{key}` of the template calls: an event code, or the id of a bulk template. */
export const templateKeyParamsSchema = z.object({ key: z.string().min(1).max(64) });

const versionField = z.number({ error: M.templateVersionInvalid }).int(M.templateVersionInvalid).min(0, M.templateVersionInvalid).optional();

/** POST /admin/templates, PUT /admin/templates/{key} */
export const templateBodySchema = z
  .object({
    name: z.string({ error: M.templateNameRequired }).trim().min(1, M.templateNameRequired).max(50, M.templateNameTooLong),
    channels: z
      .array(z.enum(MESSAGE_CHANNELS, { error: M.templateChannelInvalid }), { error: M.templateChannelsRequired })
      .min(1, M.templateChannelsRequired)
      .transform((list) => MESSAGE_CHANNELS.filter((c) => list.includes(c))),
    subject: z.string({ error: M.templateSubjectRequired }).trim().max(100, M.templateSubjectTooLong).default(''),
    body: z.string({ error: M.templateBodyRequired }).max(2000, M.templateBodyTooLong).default(''),
    smsText: z.string({ error: M.templateSmsTextRequired }).trim().max(500, M.templateSmsTextTooLong).default(''),
    /**
     * English texts (docs/decisions.md, "English"): sent to accounts whose language is English.
     * Empty: those accounts get the Chinese. Absent: the stored English (or the event's English
     * default) stays as it is.
     */
    subjectEn: z.string({ error: M.templateSubjectEnTooLong }).trim().max(100, M.templateSubjectEnTooLong).optional(),
    bodyEn: z.string({ error: M.templateBodyEnTooLong }).max(2000, M.templateBodyEnTooLong).optional(),
    smsTextEn: z.string({ error: M.templateSmsTextEnTooLong }).trim().max(500, M.templateSmsTextEnTooLong).optional(),
    smsTemplateId: z
      .string({ error: M.templateSmsIdInvalid })
      .trim()
      .regex(/^[A-Za-z0-9_-]{0,64}$/, M.templateSmsIdInvalid)
      .nullish()
      .transform((v) => (v ? v : null)),
    /** The version the editor loaded (0 for an event template never saved); another is STALE. */
    version: versionField,
  })
  .superRefine((v, ctx) => {
    const needsText = v.channels.includes('INSITE') || v.channels.includes('EMAIL');
    if (needsText && !v.subject) ctx.addIssue({ code: 'custom', path: ['subject'], message: M.templateSubjectRequired });
    if (needsText && !v.body.trim()) ctx.addIssue({ code: 'custom', path: ['body'], message: M.templateBodyRequired });
    if (v.channels.includes('SMS') && !v.smsText) ctx.addIssue({ code: 'custom', path: ['smsText'], message: M.templateSmsTextRequired });
  });
export type TemplateBody = z.infer<typeof templateBodySchema>;
export type TemplateBodyInput = z.input<typeof templateBodySchema>;

/** PUT /admin/templates/{key}/enabled */
export const templateEnabledBodySchema = z.object({
  enabled: z.boolean({ error: ADMIN_MSG.enabledInvalid }),
  version: versionField,
});
export type TemplateEnabledBody = z.infer<typeof templateEnabledBodySchema>;

export interface MessageTemplateItem {
  /** What the calls address it by: the event code, or the id of a bulk template. */
  key: string;
  /** The stored row; null for an event template never saved (its defaults apply). */
  id: string | null;
  code: TemplateEventCode | null;
  /** The event's name (catalogue); null for bulk templates. */
  eventName: string | null;
  audience: 'PARTICIPANT' | 'EXPERT' | 'STAFF' | null;
  /** The variables it may use. */
  variables: TemplateVariable[];
  name: string;
  channels: MessageChannel[];
  subject: string;
  body: string;
  smsText: string;
  /**
   * English texts (stored, or the event's English default while never set; '' = the Chinese is
   * sent to English readers). Bulk templates: '' unless written (bulk sends go out as typed).
   */
  subjectEn: string;
  bodyEn: string;
  smsTextEn: string;
  smsTemplateId: string | null;
  enabled: boolean;
  /** 0 for an event template never saved. */
  version: number;
  /** An event template that was saved (differs from, or was confirmed over, the defaults). */
  customized: boolean;
  updatedAt: IsoDateTime | null;
  /** Name of the administrator who saved it last. */
  updatedBy: string | null;
}
