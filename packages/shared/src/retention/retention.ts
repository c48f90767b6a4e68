/**
 * Personal-data retention and personal data requests (docs/retention.md): the kinds of data with a
 * retention period after the contest's end (setting `retention.days` in 大赛设置), the console's
 * calls (数据保留, 个人数据申请) and the participant's (个人数据). Shared so the server and the web
 * say the same thing; the texts are joined to the catalogue of `isUserMessage`.
 */
import { z } from 'zod';
import { optionalQuery, pageQueryFields, type IsoDateTime } from '../admin/common.js';
import { RETENTION_MSG } from './messages.js';

export * from './messages.js';

/** What a retention run removes or anonymises, one period each (days after the contest's end). */
export const RETENTION_KINDS = ['MATERIAL_FILES', 'SIGNUP_FILES', 'PARTICIPANT_DATA', 'EXPERT_DATA', 'LOGIN_RECORDS', 'OPERATION_RECORDS'] as const;
export type RetentionKind = (typeof RETENTION_KINDS)[number];

export const RETENTION_KIND_LABELS: Record<RetentionKind, string> = {
  MATERIAL_FILES: '初赛材料文件',
  SIGNUP_FILES: '报名附件',
  PARTICIPANT_DATA: '参赛者个人信息',
  EXPERT_DATA: '专家个人信息',
  LOGIN_RECORDS: '登录记录',
  OPERATION_RECORDS: '操作记录',
};

/**
 * Defaults (docs/retention.md, "Periods"): files half a year (appeals, re-reviews and certificates
 * are long settled by then), people one year (next year's organisers may ask about a winner),
 * login records half a year (the Cybersecurity Law asks network logs be kept at least six months),
 * operation records three years (they are the organisers' accountability trail).
 */
export const RETENTION_DAYS_DEFAULT: Record<RetentionKind, number> = {
  MATERIAL_FILES: 180,
  SIGNUP_FILES: 180,
  PARTICIPANT_DATA: 365,
  EXPERT_DATA: 365,
  LOGIN_RECORDS: 180,
  OPERATION_RECORDS: 1095,
};
export const RETENTION_DAYS_MAX = 3650;
/** Login records are network logs: never kept less than six months (Cybersecurity Law, art. 21). */
export const RETENTION_LOG_DAYS_MIN = 180;


/**
 * Why an approved deletion waits (docs/retention.md, "Deletion requests"): a stable key, with both
 * languages so the participant's page, the console and the notice say the same.
 */
export const DATA_REQUEST_WAIT_REASONS = ['SIGN_UP_OPEN', 'REVIEW_OPEN', 'PUBLICITY_OPEN', 'APPEAL_OPEN'] as const;
export type DataRequestWaitReason = (typeof DATA_REQUEST_WAIT_REASONS)[number];
export const DATA_REQUEST_WAIT_TEXT: Record<DataRequestWaitReason, { zh: string; en: string }> = {
  SIGN_UP_OPEN: { zh: '您的报名或初赛材料仍在审核中', en: 'Your sign-up or preliminary materials are still being audited' },
  REVIEW_OPEN: { zh: '您的项目仍在评审中', en: 'Your project is still under review' },
  PUBLICITY_OPEN: { zh: '您的项目结果仍在公示期内', en: 'The result of your project is still in its public notice period' },
  APPEAL_OPEN: { zh: '您的申诉尚未处理完毕', en: 'Your appeal has not been settled yet' },
};

// ---- Runs (数据保留) ----------------------------------------------------------------------------

export const RETENTION_RUN_STATUSES = ['PLANNED', 'QUEUED', 'RUNNING', 'DONE', 'FAILED', 'DISCARDED'] as const;
export type RetentionRunStatus = (typeof RETENTION_RUN_STATUSES)[number];
/** A dry run's plan older than this must be planned again before it is executed. */
export const RETENTION_PLAN_TTL_MS = 24 * 3600_000;

export interface RetentionKindState {
  kind: RetentionKind;
  days: number;
  /** The contest's end + days; null while the contest has no end date. */
  dueAt: IsoDateTime | null;
  due: boolean;
}

export interface RetentionOverview {
  /** The end of the last scheduled phase (决赛评审); null when not set. */
  contestEndsAt: IsoDateTime | null;
  kinds: RetentionKindState[];
  /** A run being executed now (QUEUED or RUNNING), if any. */
  active: RetentionRunItem | null;
}

export interface RetentionSample {
  kind: RetentionKind;
  /** What the item is, as the console may show it (masked: never a full phone or name). */
  label: string;
  at: IsoDateTime | null;
}

export interface RetentionRunItem {
  id: string;
  /** RETENTION: the periods; REQUEST: one participant's approved deletion. */
  source: 'RETENTION' | 'REQUEST';
  status: RetentionRunStatus;
  dryRun: boolean;
  createdBy: string;
  createdAt: IsoDateTime;
  startedBy: string | null;
  startedAt: IsoDateTime | null;
  finishedAt: IsoDateTime | null;
  /** Items planned per kind. */
  counts: Partial<Record<RetentionKind, number>>;
  /** Items done per kind (skipped ones: already gone when their turn came). */
  done: Partial<Record<RetentionKind, number>>;
  skipped: number;
  samples: RetentionSample[];
  lastError: string | null;
}

export const retentionRunsQuerySchema = z.object({ ...pageQueryFields });
export type RetentionRunsQuery = z.infer<typeof retentionRunsQuerySchema>;

// ---- Personal data requests (个人数据申请) ---------------------------------------------------------

export const DATA_REQUEST_KINDS = ['EXPORT', 'DELETE'] as const;
export type DataRequestKind = (typeof DATA_REQUEST_KINDS)[number];
/**
 * EXPORT: QUEUED -> READY (-> EXPIRED) | FAILED.
 * DELETE: PENDING -> REJECTED | WAITING (approved, blocked) -> DONE; PENDING -> DONE when nothing blocks.
 */
export const DATA_REQUEST_STATUSES = ['QUEUED', 'READY', 'EXPIRED', 'FAILED', 'PENDING', 'REJECTED', 'WAITING', 'DONE'] as const;
export type DataRequestStatus = (typeof DATA_REQUEST_STATUSES)[number];
/** How long a finished export can be downloaded. */
export const DATA_EXPORT_TTL_MS = 7 * 24 * 3600_000;

export interface DataRequestItem {
  id: string;
  kind: DataRequestKind;
  status: DataRequestStatus;
  reason: string | null;
  reply: string | null;
  waitReason: DataRequestWaitReason | null;
  createdAt: IsoDateTime;
  decidedAt: IsoDateTime | null;
  doneAt: IsoDateTime | null;
  expiresAt: IsoDateTime | null;
  /** Size of the ready zip, bytes. */
  size: number | null;
  /** Version for the admin's decision (STALE on mismatch). */
  version: number;
}

export interface AdminDataRequestItem extends DataRequestItem {
  /** The participant as the console sees them (masked phone); an alias once anonymised. */
  account: { id: string; username: string; name: string | null; phone: string | null };
  decidedBy: string | null;
}

export const dataDeleteRequestSchema = z.object({
  reason: z.string({ error: RETENTION_MSG.requestReasonRequired }).trim().min(1, RETENTION_MSG.requestReasonRequired).max(500, RETENTION_MSG.requestReasonTooLong),
});
export type DataDeleteRequestInput = z.input<typeof dataDeleteRequestSchema>;

export const dataRequestDecisionSchema = z.object({
  decision: z.enum(['APPROVE', 'REJECT'], { error: RETENTION_MSG.decisionInvalid }),
  reply: z.string({ error: RETENTION_MSG.replyRequired }).trim().min(1, RETENTION_MSG.replyRequired).max(500, RETENTION_MSG.replyTooLong),
  version: z.number({ error: RETENTION_MSG.statusInvalid }).int(RETENTION_MSG.statusInvalid).min(1, RETENTION_MSG.statusInvalid),
});
export type DataRequestDecisionInput = z.input<typeof dataRequestDecisionSchema>;

export const adminDataRequestsQuerySchema = z.object({
  ...pageQueryFields,
  status: optionalQuery(z.enum(DATA_REQUEST_STATUSES, { error: RETENTION_MSG.statusInvalid })),
  kind: optionalQuery(z.enum(DATA_REQUEST_KINDS, { error: RETENTION_MSG.kindInvalid })),
});
export type AdminDataRequestsQuery = z.infer<typeof adminDataRequestsQuerySchema>;

/** The participant's page: their latest export and deletion request. */
export interface MyDataOverview {
  export: DataRequestItem | null;
  deletion: DataRequestItem | null;
}

// ---- Pseudonyms -----------------------------------------------------------------------------------

/**
 * The name an anonymised person keeps (docs/retention.md, "Pseudonyms"): a number drawn at
 * anonymisation, per realm, stored against the account, so it is stable and says nothing of the
 * phone or the name.
 */
export const pseudonymOf = (realm: 'USER' | 'EXPERT', no: number): string => (realm === 'USER' ? `参赛者#${no}` : `专家#${no}`);
export const isPseudonym = (name: string | null | undefined): boolean => !!name && /^(参赛者|专家)#\d+/.test(name);
