import { formatFileSize } from '../file-size.js';
import { UPLOAD_RULES } from '../files/upload-rules.js';

/**
 * Texts and bounds of the contest settings (admin/settings.ts). Kept apart from the schemas so
 * the user-message catalogue (messages.ts) can join them without pulling zod into the web app's
 * first load.
 */
const MB = 1024 * 1024;
/** Smallest per-kind ceiling of a preliminary attachment. */
export const SETTINGS_FILE_MIN_BYTES = MB;
/**
 * Largest per-kind ceiling: the upload endpoint's own ceiling for PRELIM files (500 MB). A larger
 * setting could never be reached, since the upload itself would be refused first.
 */
export const SETTINGS_FILE_MAX_BYTES = UPLOAD_RULES.PRELIM.maxBytes;
export const SETTINGS_MAX_APPLICATION_CHARS = 1_000_000;
/**
 * Bounds of the per-address login ceiling (docs/rules/identity.md, "Login limits"): never below the old fixed limit of 30,
 * so a setting cannot shut a whole campus out, and high enough for a hospital full of teams.
 */
export const LOGIN_PER_IP_MIN = 30;
export const LOGIN_PER_IP_MAX = 100_000;

export const SETTINGS_MSG = {
  settingsInvalid: '大赛设置格式不正确',
  nameRequired: '请输入大赛名称',
  nameTooLong: '大赛名称不能超过 50 个字符',
  nameEnRequired: '请输入大赛英文名称',
  nameEnTooLong: '大赛英文名称不能超过 100 个字符',
  phaseInvalid: '阶段时间格式不正确',
  phaseTimeInvalid: '时间格式不正确，应为 YYYY-MM-DD HH:mm:ss（北京时间）或带时区的 ISO 8601 时间',
  phaseStartAfterEnd: '阶段开始时间必须早于结束时间',
  phaseOutOfOrder: '各阶段须按报名、初赛材料提交、初赛评审、决赛评审的顺序开始和结束',
  reviewOverlaps: '评审阶段须在之前各阶段结束之后开始',
  switchInvalid: '开关只能是开启或关闭',
  maxCharsInvalid: `申报书字数上限应为 1-${SETTINGS_MAX_APPLICATION_CHARS} 之间的整数，不限制请留空`,
  fileMaxBytesInvalid: `附件大小上限应在 ${formatFileSize(SETTINGS_FILE_MIN_BYTES)} 到 ${formatFileSize(SETTINGS_FILE_MAX_BYTES)} 之间`,
  dataDocMenuNameRequired: '请输入数据文档菜单名称',
  dataDocMenuNameTooLong: '数据文档菜单名称不能超过 20 个字符',
  aggregateInvalid: '排名依据不正确',
  minScoresInvalid: '去掉最高分和最低分所需的最少评分数应为 3-20 之间的整数',
  tieBreakInvalid: '并列时的比较顺序不正确',
  tieBreakDuplicate: '并列时的比较顺序不能重复',
  divergenceInvalid: '分歧阈值应为 0-100 之间的数',
  minExpertsInvalid: '每个项目的评审专家数应为 1-50 之间的整数',
  maxProjectsPerExpertInvalid: '每位专家的评审项目上限应为 1-10000 之间的整数，或留空表示不限',
  expertDownloadInvalid: '专家下载材料应为：不允许、仅 PDF 或全部',
  publicityDaysInvalid: '公示期应为 1-30 之间的整数（天）',
  appealDaysInvalid: '申诉期应为 1-30 之间的整数（天）',
  appealExceedsPublicity: '申诉期不能超过公示期',
  loginPerIpInvalid: `同一网络地址每分钟登录次数上限应为 ${LOGIN_PER_IP_MIN}-${LOGIN_PER_IP_MAX} 之间的整数`,
  // Retention periods (docs/retention.md).
  retentionDaysInvalid: '保留期限应为 0-3650 之间的整数（天）',
  retentionLogDaysTooShort: '登录记录与操作记录至少保留 180 天',
} as const;
