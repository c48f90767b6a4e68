import { z } from 'zod';
import { dateTimeQuery, optionalQuery, pageQueryFields, rangeIsOrdered, uuidSchema, type IsoDateTime } from '../admin/common.js';
import { TEAM_STATUSES, type TeamStatus } from '../enums.js';
import { AUDIT_REASON_MAX } from './audit.js';
import { CONTEST_MSG as M } from './messages.js';
import { AUDIT_OUTCOMES } from './status.js';
import type { PrelimDetail } from './prelim.js';
import type { StatusHistoryEntry, TeamDetail } from './team.js';
import type { BlindFinding } from '../review/blind.js';

/**
 * The console's contest calls (docs/api-contest.md): lists, details, audit queue, batch audits, reminders,
 * exports of sign-ups and preliminary materials, and the final-round list. docs/api-contest.md.
 */

const text50 = optionalQuery(z.string().max(50, M.orgNameTooLong));
const code = optionalQuery(z.string().max(40, M.statusFilterInvalid));
const order = optionalQuery(z.enum(['asc', 'desc'], { error: M.sortInvalid }));
const statusFilter = optionalQuery(z.enum(TEAM_STATUSES, { error: M.statusFilterInvalid }));

export const TEAM_SORT_KEYS = ['submittedAt', 'updatedAt', 'createdAt', 'orgName', 'teamName'] as const;
export type TeamSortKey = (typeof TEAM_SORT_KEYS)[number];

const teamFilterFields = {
  /** Organisation name, contains. */
  orgName: text50,
  /** Team name, contains. */
  teamName: text50,
  /** ORG_TYPE, TRACK, REGION codes. */
  orgType: code,
  track: code,
  region: code,
  status: statusFilter,
  /** Submit time range (YYYY-MM-DD or YYYY-MM-DD HH:mm:ss, Beijing), both inclusive. */
  submittedFrom: dateTimeQuery,
  submittedTo: dateTimeQuery,
  sort: optionalQuery(z.enum(TEAM_SORT_KEYS, { error: M.sortInvalid })),
  order,
};
const submittedOrdered = (v: { submittedFrom?: string; submittedTo?: string }) => rangeIsOrdered({ from: v.submittedFrom, to: v.submittedTo });

export const teamAdminFilterSchema = z.object(teamFilterFields).refine(submittedOrdered, { message: M.statusFilterInvalid, path: ['submittedFrom'] });
export type TeamAdminFilter = z.infer<typeof teamAdminFilterSchema>;
export const teamAdminListQuerySchema = z.object({ ...pageQueryFields, ...teamFilterFields }).refine(submittedOrdered, { message: M.statusFilterInvalid, path: ['submittedFrom'] });
export type TeamAdminListQuery = z.infer<typeof teamAdminListQuerySchema>;

/** A row of 资格管理 and 报名草稿. */
export interface TeamAdminRow {
  id: string;
  version: number;
  status: TeamStatus;
  teamName: string;
  orgName: string;
  orgType: string | null;
  region: string | null;
  city: string | null;
  track: string | null;
  leaderName: string | null;
  leaderPhone: string | null;
  memberCount: number;
  ownerUsername: string;
  auditReason: string | null;
  submittedAt: IsoDateTime | null;
  auditedAt: IsoDateTime | null;
  createdAt: IsoDateTime;
  updatedAt: IsoDateTime;
  /** Reminders (报名草稿): the last one sent, Beijing day `YYYY-MM-DD`, null when never. */
  lastRemindedOn: string | null;
}

export const PRELIM_SORT_KEYS = ['submittedAt', 'updatedAt', 'createdAt', 'projectName', 'applicationChars'] as const;
export type PrelimSortKey = (typeof PRELIM_SORT_KEYS)[number];

const prelimFilterFields = {
  /** In the final round now (true) or not (false): the final-round add dialog lists the latter. */
  inFinal: optionalQuery(z.enum(['true', 'false'], { error: M.statusFilterInvalid }).transform((v) => v === 'true')),
  projectName: text50,
  teamName: text50,
  orgName: text50,
  track: code,
  status: statusFilter,
  submittedFrom: dateTimeQuery,
  submittedTo: dateTimeQuery,
  sort: optionalQuery(z.enum(PRELIM_SORT_KEYS, { error: M.sortInvalid })),
  order,
};
export const prelimAdminFilterSchema = z.object(prelimFilterFields).refine(submittedOrdered, { message: M.statusFilterInvalid, path: ['submittedFrom'] });
export type PrelimAdminFilter = z.infer<typeof prelimAdminFilterSchema>;
export const prelimAdminListQuerySchema = z.object({ ...pageQueryFields, ...prelimFilterFields }).refine(submittedOrdered, { message: M.statusFilterInvalid, path: ['submittedFrom'] });
export type PrelimAdminListQuery = z.infer<typeof prelimAdminListQuerySchema>;

/** A row of 初赛项目管理, 初赛草稿 and 决赛项目管理. */
export interface PrelimAdminRow {
  id: string;
  version: number;
  status: TeamStatus;
  projectName: string;
  track: string | null;
  teamId: string;
  teamName: string;
  orgName: string;
  ownerUsername: string;
  applicationChars: number | null;
  auditReason: string | null;
  submittedAt: IsoDateTime | null;
  auditedAt: IsoDateTime | null;
  createdAt: IsoDateTime;
  updatedAt: IsoDateTime;
  lastRemindedOn: string | null;
  /** In the final round now. */
  inFinal: boolean;
  /** The character cap in force (大赛设置), null when there is none. */
  maxApplicationChars: number | null;
}

/** A row of 决赛项目管理: the materials plus how they entered the final round. */
export interface FinalAdminRow extends PrelimAdminRow {
  finalVersion: number;
  finalReason: string | null;
  finalAt: IsoDateTime;
}

/** Optimistic concurrency: the version the operator saw; a different one is refused (已被他人处理). */
export const versionField = z.number({ error: M.versionInvalid }).int(M.versionInvalid).min(1, M.versionInvalid).max(2_147_483_647, M.versionInvalid);

const reasonField = z.preprocess(
  (v) => (v === null || v === undefined ? '' : v),
  z.string({ error: M.reasonRequired }).trim().max(AUDIT_REASON_MAX, M.reasonTooLong),
);

/** POST /admin/team/{id}/audit, /admin/prelim-doc/{id}/audit (version optional for older clients). */
export const adminAuditSchema = z
  .object({
    outcome: z.enum(AUDIT_OUTCOMES, { error: M.outcomeInvalid }),
    reason: reasonField,
    version: versionField.optional(),
  })
  .superRefine((v, ctx) => {
    if (v.outcome !== 'APPROVED' && v.reason === '') ctx.addIssue({ code: 'custom', message: M.reasonRequired, path: ['reason'] });
  });
export type AdminAuditInput = z.infer<typeof adminAuditSchema>;

export const BATCH_MAX = 200;

/** POST /admin/team/audit/batch, /admin/prelim-doc/audit/batch: one outcome for the chosen records. */
export const batchAuditSchema = z
  .object({
    items: z
      .array(z.object({ id: uuidSchema, version: versionField }), { error: M.batchEmpty })
      .min(1, M.batchEmpty)
      .max(BATCH_MAX, M.batchTooLarge),
    outcome: z.enum(AUDIT_OUTCOMES, { error: M.outcomeInvalid }),
    reason: reasonField,
  })
  .superRefine((v, ctx) => {
    if (v.outcome !== 'APPROVED' && v.reason === '') ctx.addIssue({ code: 'custom', message: M.reasonRequired, path: ['reason'] });
  });
export type BatchAuditInput = z.infer<typeof batchAuditSchema>;

/**
 * Batch results are per row (docs/decisions.md): each record is decided in its own transaction,
 * and a record that changed meanwhile is reported, not forced.
 */
export interface BatchRowResult {
  id: string;
  ok: boolean;
  /** Stable reason key when not ok: STALE (changed since read), NOT_ALLOWED (state), NOT_FOUND. */
  reason?: 'STALE' | 'NOT_ALLOWED' | 'NOT_FOUND';
  message?: string;
  /** The record's status after the call. */
  status?: string;
  name?: string;
}
export interface BatchResult {
  results: BatchRowResult[];
  succeeded: number;
  failed: number;
}

export const REMIND_MAX = 5000;

/** POST /admin/team/draft/remind, /admin/prelim-doc/draft/remind: the chosen ids, or every draft. */
export const remindSchema = z
  .object({
    ids: z.array(uuidSchema, { error: M.remindEmpty }).max(REMIND_MAX, M.remindTooMany).optional(),
    all: z.boolean({ error: M.remindEmpty }).optional(),
  })
  .refine((v) => v.all === true || (v.ids !== undefined && v.ids.length > 0), { message: M.remindEmpty, path: ['ids'] });
export type RemindInput = z.infer<typeof remindSchema>;

/** How many were reminded; the rest had a reminder already today (one per team per Beijing day). */
export interface RemindResult {
  reminded: number;
  skipped: number;
  sms: boolean;
}

/** POST /admin/final/{id}/add and /remove: a reason is always required. */
export const finalChangeSchema = z.object({
  reason: z.preprocess(
    (v) => (v === null || v === undefined ? '' : v),
    z.string({ error: M.finalReasonRequired }).trim().min(1, M.finalReasonRequired).max(AUDIT_REASON_MAX, M.reasonTooLong),
  ),
  version: versionField.optional(),
});
export type FinalChangeInput = z.infer<typeof finalChangeSchema>;

export const excludeQuerySchema = z.object({
  /** Ids the operator skipped in this queue session. */
  exclude: optionalQuery(
    z
      .string()
      .max(20_000, M.batchTooLarge)
      .transform((v) => [...new Set(v.split(',').map((s) => s.trim()).filter(Boolean))])
      .pipe(z.array(uuidSchema).max(500, M.batchTooLarge)),
  ),
});

/** GET /admin/team/queue/next: the oldest SUBMITTED record not skipped, and how many wait. */
export interface QueueNext<T> {
  detail: T | null;
  remaining: number;
}

/** The admin's team detail: the participant's detail plus the version to send back. */
export type TeamAdminDetail = TeamDetail & { version: number; lastRemindedOn: string | null };
export type PrelimAdminDetail = PrelimDetail & {
  version: number;
  orgName: string;
  lastRemindedOn: string | null;
  final: { status: 'IN' | 'OUT'; version: number; reason: string | null; at: IsoDateTime } | null;
  finalHistory: StatusHistoryEntry[];
  /**
   * The formal check's blind-review warning (docs/security.md, "Blind review"): where the
   * application PDF's text or metadata names the team's organisation or team name. Empty when
   * none (or no readable application); a warning for the operator, never a block.
   */
  blindWarnings: BlindFinding[];
};

/** Export headers (Chinese, as operators read them). */
export const TEAM_EXPORT_MAX_ROWS = 50_000;
