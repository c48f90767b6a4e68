/**
 * The expert-review calls (docs/api-review.md): request schemas and response shapes shared by the server
 * and the web. Paths are in docs/api-review.md. `:r` is a round slug (prelim | final, access.ts);
 * a "project" id is the preliminary-materials id (prelim_docs.id) in both rounds.
 */
import { z } from 'zod';
import { PHONE_PATTERN } from '../schemas/auth.js';
import { enabledQuery, keywordQuery, optionalQuery, pageQueryFields, uuidSchema, type IsoDateTime } from '../admin/common.js';
import { sortQueryFields } from '../admin/list-query.js';
import { orMasked } from '../admin/pii.js';
import type { ExpertDownloadMode, ReviewRound, ScoringRule, TieBreak } from '../admin/settings.js';
import { scoringRuleSchema } from '../admin/settings.js';
import type { ContestAttachment, StatusHistoryEntry, TeamAdvisor, TeamLeader, TeamMember } from '../contest/team.js';
import type { PhaseWindow } from '../contest/phases.js';
import type { ProjectAggregate } from './aggregate.js';
import type { AssignProblem, Placement } from './assign.js';
import { REVIEW_MSG as M } from './messages.js';
import type { ConflictCause } from './organisation.js';
import { rubricBodySchema, type Criterion } from './rubric.js';

const reason200 = z.string({ error: M.returnReasonRequired }).trim().min(1, M.returnReasonRequired).max(200, M.reasonTooLong);
const code40 = optionalQuery(z.string().max(40, M.expertTrackInvalid));
const boolQuery = optionalQuery(z.enum(['true', 'false'], { error: M.roundInvalid }).transform((v) => v === 'true'));

// ------------------------------------------------------------------ experts (专家库)
// GET /admin/expert/list, GET /admin/expert/:id, POST /admin/expert, PUT /admin/expert/:id,
// PUT /admin/expert/:id/enabled, POST /admin/expert/:id/reset-password,
// GET /admin/expert/import-template, POST /admin/expert/import (multipart, field `file`),
// GET /admin/expert/export

export const EXPERT_CODE_PATTERN = /^E\d{4,8}$/;

export const EXPERT_DECLARED_MAX = 20;
export const EXPERT_IMPORT_MAX_ROWS = 2000;

export const declaredOrgSchema = z.object({
  name: z.string({ error: M.expertOrgRequired }).trim().min(1, M.expertOrgRequired).max(100, M.expertOrgTooLong),
  creditCode: z.string().trim().max(18).nullish(),
});

/** POST /expert/organisations: one organisation the expert declares for conflicts. */
export type DeclaredOrgBody = z.infer<typeof declaredOrgSchema>;

export const expertBodySchema = z.object({
  /** Omitted on create: the next free E0001-style code. */
  code: z.string().trim().regex(EXPERT_CODE_PATTERN, M.expertCodeInvalid).optional(),
  name: z.string({ error: M.expertNameRequired }).trim().min(1, M.expertNameRequired).max(50, M.expertNameTooLong),
  /** The console shows it masked: sent back unchanged it keeps the stored phone (orMasked). */
  phone: orMasked(z.string({ error: M.expertPhoneRequired }).trim().min(1, M.expertPhoneRequired).regex(PHONE_PATTERN, M.expertPhoneInvalid)),
  organization: z.string({ error: M.expertOrgRequired }).trim().min(1, M.expertOrgRequired).max(100, M.expertOrgTooLong),
  /** Unified social credit code of the organisation, when known (validated like the sign-up's). */
  orgCreditCode: z.string().trim().max(18).nullish(),
  title: z.string().trim().max(50, M.expertTitleTooLong).nullish(),
  /** TRACK dictionary codes. */
  tracks: z.array(z.string().max(40, M.expertTrackInvalid), { error: M.expertTracksRequired }).min(1, M.expertTracksRequired).max(20, M.expertTrackInvalid),
  declaredOrgs: z.array(declaredOrgSchema).max(EXPERT_DECLARED_MAX, M.expertDeclaredTooMany).default([]),
});
export type ExpertBody = z.infer<typeof expertBodySchema>;

export const expertListQuerySchema = z.object({
  ...pageQueryFields,
  ...sortQueryFields(['code', 'name', 'createdAt', 'lastLoginAt']),
  /** Code, name, phone or organisation, contains. */
  keyword: keywordQuery,
  track: code40,
  enabled: enabledQuery,
});
export type ExpertListQuery = z.infer<typeof expertListQuerySchema>;

export interface DeclaredOrgView {
  name: string;
  creditCode: string | null;
}

/**
 * The expert's own organisations (GET/POST /expert/organisations; docs/api-review.md, "Declared
 * organisations"): the one they work for and those declared for conflicts, by the admins or by
 * themselves. An expert adds, never removes: withdrawing a declaration goes through the admins.
 */
export interface ExpertOrganisations {
  organization: string;
  orgCreditCode: string | null;
  declaredOrgs: DeclaredOrgView[];
}

export interface ExpertRow {
  id: string;
  code: string;
  username: string;
  name: string;
  phone: string | null;
  organization: string;
  orgCreditCode: string | null;
  title: string | null;
  tracks: string[];
  declaredOrgs: DeclaredOrgView[];
  enabled: boolean;
  agreed: boolean;
  /** Group name per round, null when in none. */
  groups: Record<ReviewRound, string | null>;
  lastLoginAt: IsoDateTime | null;
  createdAt: IsoDateTime;
}

/** POST /admin/expert and reset-password: the password is shown once and never stored in clear. */
export interface ExpertCredentials {
  id: string;
  code: string;
  name: string;
  username: string;
  password: string;
}

/** POST /admin/expert/import: everything or nothing. A bad sheet is a 400 importHasErrors with `data.rows`. */
export interface ExpertImportResult {
  imported: number;
  credentials: ExpertCredentials[];
}
export interface ImportRowError {
  /** Row number as Excel shows it (the header is row 1). */
  row: number;
  /** Column header as in the template, e.g. 手机号. */
  column: string;
  reason: string;
}
/** The template's columns, in order (required ones marked * in the sheet). 擅长方向 and 回避单位: several values separated by ；or ; */
export const EXPERT_IMPORT_COLUMNS = ['专家编号', '姓名*', '手机号*', '所在单位*', '单位统一社会信用代码', '职称', '擅长方向*', '回避单位'] as const;

// ------------------------------------------------------------------ rubric (评分细则)
// GET /admin/review/:r/rubric (groups menu), PUT /admin/review/:r/rubric (group edit button)

export const rubricPutSchema = rubricBodySchema.and(z.object({ rule: scoringRuleSchema.optional() }));
export type RubricPut = z.infer<typeof rubricPutSchema>;

export interface RubricView {
  round: ReviewRound;
  criteria: Criterion[];
  rule: ScoringRule;
  /** True once any sheet of the round has been saved: then PUT answers 400 rubricLocked. */
  locked: boolean;
  version: number;
}

// ------------------------------------------------------------------ groups and assignment
// GET /admin/review/:r/groups; POST /admin/review/:r/groups; PUT/DELETE /admin/review/:r/groups/:id
// GET /admin/review/:r/projects; POST /admin/review/:r/projects/:id/move
// POST /admin/review/:r/assign/preview; POST /admin/review/:r/assign/apply

export const groupBodySchema = z.object({
  name: z.string({ error: M.groupNameRequired }).trim().min(1, M.groupNameRequired).max(30, M.groupNameTooLong),
  expertIds: z.array(uuidSchema).max(50, M.groupExpertsTooMany).default([]),
  /** Required on PUT (optimistic concurrency). */
  version: z.number().int().optional(),
});
export type GroupBody = z.infer<typeof groupBodySchema>;

export interface GroupExpert {
  id: string;
  code: string;
  name: string;
  organization: string;
  tracks: string[];
  enabled: boolean;
}

export interface GroupView {
  id: string;
  name: string;
  version: number;
  experts: GroupExpert[];
  projectCount: number;
  /** Track codes some expert of the group covers. */
  tracks: string[];
  /** Sheets saved in this group (then experts with sheets cannot leave and it cannot be deleted). */
  sheetCount: number;
}

export interface GroupsOverview {
  round: ReviewRound;
  groups: GroupView[];
  /** Projects of the round (approved materials; final: entries IN). */
  eligible: number;
  unassigned: number;
  minExperts: number;
}

export const roundProjectQuerySchema = z.object({
  ...pageQueryFields,
  /** A group id, or `none` for projects in no group. */
  groupId: optionalQuery(z.union([uuidSchema, z.literal('none')])),
  track: code40,
  /** Project, team or organisation name, contains. */
  keyword: keywordQuery,
});
export type RoundProjectQuery = z.infer<typeof roundProjectQuerySchema>;

export interface ConflictView {
  expertId: string;
  expertCode: string;
  expertName: string;
  cause: ConflictCause;
}

export interface RoundProjectRow {
  id: string;
  projectName: string;
  teamName: string;
  orgName: string;
  track: string | null;
  groupId: string | null;
  groupName: string | null;
  source: 'AUTO' | 'MANUAL' | null;
  reason: string | null;
  /** Experts who will score it: group experts not in conflict, plus re-review experts. */
  expected: number;
  scoresIn: number;
  /** Any sheet saved (draft or submitted): then it cannot move. */
  hasSheets: boolean;
  conflicts: ConflictView[];
}

export const moveBodySchema = z.object({
  /** null takes the project out of every group. */
  groupId: uuidSchema.nullable(),
  reason: z.string().trim().max(200, M.reasonTooLong).optional(),
});
export type MoveBody = z.infer<typeof moveBodySchema>;

export interface AssignPreview {
  /** Hash of what the preview was computed from; apply refuses a changed state (400 assignStale). */
  token: string;
  placements: (Placement & { projectName: string; track: string | null; groupName: string })[];
  problems: (AssignProblem & { projectName: string; track: string | null })[];
  loads: { groupId: string; name: string; before: number; after: number }[];
  /** The setting every placement needs (大赛设置: experts per project), named where a group has too few. */
  minExperts: number;
}
export const assignApplySchema = z.object({ token: z.string().min(1).max(128) });

// ------------------------------------------------------------------ expert area (/api/expert/review)
// GET /expert/review/overview
// GET /expert/review/:r/list; GET /expert/review/:r/:id
// PUT /expert/review/:r/:id/sheet (draft); POST /expert/review/:r/:id/sheet/submit
// Every call but overview answers 403 agreementRequired until the agreement is accepted; a
// project not assigned to the expert, or in conflict, is a 404 (as are its files).

export const SHEET_VIEW_STATUSES = ['NONE', 'DRAFT', 'SUBMITTED', 'RETURNED'] as const;
export type SheetViewStatus = (typeof SHEET_VIEW_STATUSES)[number];

export interface ExpertRoundProgress {
  round: ReviewRound;
  window: PhaseWindow | null;
  /** Scoring is allowed now (inside the window). */
  open: boolean;
  assigned: number;
  notStarted: number;
  draft: number;
  submitted: number;
  returned: number;
}
export interface ExpertOverview {
  agreed: boolean;
  rounds: ExpertRoundProgress[];
}

export const expertProjectQuerySchema = z.object({
  ...pageQueryFields,
  status: optionalQuery(z.enum(SHEET_VIEW_STATUSES, { error: M.roundInvalid })),
  track: code40,
  /** Project name, contains. */
  keyword: keywordQuery,
});
export type ExpertProjectQuery = z.infer<typeof expertProjectQuerySchema>;

export interface ExpertProjectRow {
  id: string;
  projectName: string;
  track: string | null;
  status: SheetViewStatus;
  total: number | null;
  updatedAt: IsoDateTime | null;
  submittedAt: IsoDateTime | null;
}

export interface SheetView {
  id: string;
  /**
   * ABSTAINED (docs/rules/review.md, "Abstaining") is a sheet's state, not a list filter: an expert's
   * lists never show a project they abstained from, so SHEET_VIEW_STATUSES leaves it out.
   */
  status: Exclude<SheetViewStatus, 'NONE'> | 'ABSTAINED';
  scores: Record<string, number>;
  comment: string;
  total: number;
  version: number;
  returnReason: string | null;
  submittedAt: IsoDateTime | null;
  updatedAt: IsoDateTime;
}

export interface ExpertProjectDetail {
  id: string;
  round: ReviewRound;
  projectName: string;
  track: string | null;
  summary: string;
  keywords: string[];
  application: ContestAttachment | null;
  applicationChars: number | null;
  presentation: ContestAttachment | null;
  video: ContestAttachment | null;
  others: ContestAttachment[];
  /** Blind review (setting on): no team at all. Off: organisation, team, members, advisor. */
  blind: boolean;
  /**
   * 专家下载材料 (setting): 'none' = preview only (no 下载 button, the server refuses), 'pdf' =
   * PDFs, stamped with the expert's watermark, 'all' = every kind. Under blind review the files'
   * names are neutral (project code + material kind) and their metadata stripped.
   */
  download: ExpertDownloadMode;
  /**
   * Null under blind review. Otherwise who the team is, without phones or e-mails: scoring needs
   * no contacts (personal information, minimum necessary).
   */
  team: {
    orgName: string;
    teamName: string;
    leader: Omit<TeamLeader, 'phone' | 'email'> | null;
    members: Omit<TeamMember, 'phone' | 'email'>[];
    advisor: Omit<TeamAdvisor, 'phone' | 'email'> | null;
  } | null;
  criteria: Criterion[];
  sheet: SheetView | null;
  /** Scoring allowed now (window open and sheet not submitted). */
  editable: boolean;
  open: boolean;
  /** Neighbours in the expert's list order (by project name, id), for 上一个 / 下一个. */
  prevId: string | null;
  nextId: string | null;
}

export const sheetBodySchema = z.object({
  scores: z.record(z.string().max(30), z.number({ error: M.scoreInvalid }), { error: M.scoreRequired }),
  comment: z.string().max(1000, M.commentTooLong).default(''),
  /** The sheet version the expert saw (absent for a first save). */
  version: z.number().int().optional(),
});
export type SheetBody = z.infer<typeof sheetBodySchema>;

// ------------------------------------------------------------------ admin on sheets
// POST /admin/review/:r/sheets/:id/return (score return button)
// POST /admin/review/:r/projects/:id/rereview (score return button)

export const returnSheetSchema = z.object({ reason: reason200, version: z.number().int().optional() });
export type ReturnSheetBody = z.infer<typeof returnSheetSchema>;

/** POST /expert/review/:r/:id/abstain (docs/api-review.md, "Abstaining"): why the expert steps back. */
export const abstainSchema = z.object({
  reason: z.string({ error: M.abstainReasonRequired }).trim().min(1, M.abstainReasonRequired).max(200, M.reasonTooLong),
  version: z.number().int().optional(),
});
export type AbstainBody = z.infer<typeof abstainSchema>;

export const rereviewSchema = z
  .object({
    mode: z.enum(['ADD_EXPERTS', 'RETURN_ALL'], { error: M.rereviewExpertsRequired }),
    expertIds: z.array(uuidSchema).max(20).default([]),
    reason: reason200,
  })
  .refine((v) => v.mode === 'RETURN_ALL' || v.expertIds.length > 0, { message: M.rereviewExpertsRequired, path: ['expertIds'] });
export type RereviewBody = z.infer<typeof rereviewSchema>;

// ------------------------------------------------------------------ score query (成绩查询)
// GET /admin/review/:r/scores (scores menu); GET /admin/review/:r/scores/:id (scores menu)
// GET /admin/review/:r/scores/export (score export button): sheet 汇总 + sheet 专家评分

const scoreFilterFields = {
  track: code40,
  groupId: optionalQuery(uuidSchema),
  keyword: keywordQuery,
  divergent: boolQuery,
};
export const scoreQuerySchema = z.object({ ...pageQueryFields, ...scoreFilterFields });
export type ScoreQuery = z.infer<typeof scoreQuerySchema>;
export const scoreExportQuerySchema = z.object(scoreFilterFields);
export type ScoreExportQuery = z.infer<typeof scoreExportQuerySchema>;

export interface ScoreRow extends ProjectAggregate {
  projectName: string;
  teamName: string;
  orgName: string;
  groupName: string | null;
}

export interface ScoreList {
  round: ReviewRound;
  rule: ScoringRule;
  criteria: Criterion[];
  divergenceThreshold: number;
  roundMean: number | null;
  roundSd: number | null;
  /** Rows in rank order (unranked last), filtered and paged. */
  list: ScoreRow[];
  page: number;
  size: number;
  total: number;
}

export interface SheetRevisionView {
  scores: Record<string, number>;
  total: number;
  comment: string;
  submittedAt: IsoDateTime;
  returnedAt: IsoDateTime;
  returnedBy: string | null;
  reason: string;
}

export interface AdminSheetView extends SheetView {
  /** Sealed by the live final: status only, no scores (ScoreDetail.sealed). */
  sealed?: boolean;
  /** This total was dropped by the trimmed mean (highest or lowest). */
  dropped: boolean;
  revisions: SheetRevisionView[];
}

export interface ScoreDetail {
  round: ReviewRound;
  project: { id: string; projectName: string; teamName: string; orgName: string; track: string | null; groupId: string | null; groupName: string | null };
  /**
   * Scored on site and sealed now (docs/live-final.md, "Sealing"): the aggregate counts no score and
   * each sheet shows its status only (scores empty, total 0, `sheet.sealed`), until the chair closes it.
   */
  sealed?: boolean;
  aggregate: ProjectAggregate;
  rule: ScoringRule;
  criteria: Criterion[];
  divergenceThreshold: number;
  /** Every expert expected to score (group minus conflicts, plus re-review), with their sheet or null. */
  experts: { expertId: string; expertCode: string; expertName: string; extra: boolean; sheet: AdminSheetView | null }[];
  conflicts: ConflictView[];
  history: StatusHistoryEntry[];
}

// ------------------------------------------------------------------ monitoring (评分监控)
// GET /admin/review/:r/monitor/experts; GET /admin/review/:r/monitor/experts/:id
// GET /admin/review/:r/monitor/projects; POST /admin/review/:r/monitor/remind (remind button)

export const monitorExpertQuerySchema = z.object({
  ...pageQueryFields,
  keyword: keywordQuery,
  groupId: optionalQuery(uuidSchema),
  /** Only experts with something left to submit. */
  late: boolQuery,
});
export type MonitorExpertQuery = z.infer<typeof monitorExpertQuerySchema>;

export interface MonitorExpertRow {
  expertId: string;
  code: string;
  name: string;
  groupName: string | null;
  assigned: number;
  submitted: number;
  draft: number;
  returned: number;
  /** assigned - submitted. */
  remaining: number;
  lastActivityAt: IsoDateTime | null;
  /** Reminded today (Beijing) already: a second reminder the same day is skipped. */
  remindedToday: boolean;
}

export interface MonitorExpertDetail {
  expert: MonitorExpertRow & { phone: string | null; organization: string };
  projects: (ExpertProjectRow & { groupName: string | null; extra: boolean })[];
}

export const monitorProjectQuerySchema = z.object({
  ...pageQueryFields,
  keyword: keywordQuery,
  groupId: optionalQuery(uuidSchema),
  track: code40,
  /** Only projects with fewer scores in than expected. */
  incomplete: boolQuery,
});
export type MonitorProjectQuery = z.infer<typeof monitorProjectQuerySchema>;

export interface MonitorProjectRow {
  id: string;
  projectName: string;
  track: string | null;
  groupName: string | null;
  scoresIn: number;
  expected: number;
  drafts: number;
  spread: number | null;
  divergent: boolean;
  /** Experts who abstained from the project (docs/rules/review.md, "Abstaining"); they are not in `expected`. */
  abstained?: number;
  /** An abstention not yet made up by an expert added for re-review: the project needs another scorer. */
  needsScorer?: boolean;
  /** When it needs one: who could take it (see ReplacementSuggestion), best first, at most 5. */
  replacements?: ReplacementSuggestion[];
}

/**
 * A possible replacement scorer for a project an expert abstained from: an enabled expert of one
 * of the round's groups covering the project's track, not already scoring it, not in conflict, not
 * abstained from it; fewest projects in the round first, then by code. Added through re-review
 * (ADD_EXPERTS). Every other expert of the project's own group already scores it, so suggestions
 * come from the other groups.
 */
export interface ReplacementSuggestion {
  expertId: string;
  code: string;
  name: string;
  groupName: string | null;
  /** Projects the expert scores in the round now. */
  projects: number;
}

/** Remind the given experts, or (all: true) every expert with something left. Never one already done. */
export const remindExpertsSchema = z
  .object({ expertIds: z.array(uuidSchema).max(500).default([]), all: z.boolean().default(false) })
  .refine((v) => v.all || v.expertIds.length > 0, { message: M.remindNobody, path: ['expertIds'] });
export type RemindExpertsBody = z.infer<typeof remindExpertsSchema>;
export interface RemindExpertsResult {
  reminded: number;
  /** Already done, already reminded today, or not in the round. */
  skipped: number;
}

// ------------------------------------------------------------------ promotion (晋级决赛)
// POST /admin/final/promotion/preview; POST /admin/final/promotion/confirm (final:promote)
// GET /admin/final/promotions (决赛项目管理 menu)

export const PROMOTION_MODES = ['TOP_OVERALL', 'TOP_PER_TRACK', 'PICKED'] as const;
export type PromotionMode = (typeof PROMOTION_MODES)[number];

const promotionFields = {
  mode: z.enum(PROMOTION_MODES, { error: M.promoteModeInvalid }),
  n: z.number({ error: M.promoteNInvalid }).int(M.promoteNInvalid).min(1, M.promoteNInvalid).max(1000, M.promoteNInvalid).optional(),
  ids: z.array(uuidSchema).max(1000).default([]),
};
type PromotionShape = { mode: PromotionMode; n?: number | undefined; ids: string[] };
const needsN = (v: PromotionShape) => v.mode === 'PICKED' || v.n !== undefined;
const needsIds = (v: PromotionShape) => v.mode !== 'PICKED' || v.ids.length > 0;

export const promotionSchema = z
  .object(promotionFields)
  .refine(needsN, { message: M.promoteNInvalid, path: ['n'] })
  .refine(needsIds, { message: M.promotePickRequired, path: ['ids'] });
export type PromotionBody = z.infer<typeof promotionSchema>;
export const promotionConfirmSchema = z
  .object({ ...promotionFields, token: z.string().min(1).max(128) })
  .refine(needsN, { message: M.promoteNInvalid, path: ['n'] })
  .refine(needsIds, { message: M.promotePickRequired, path: ['ids'] });
export type PromotionConfirmBody = z.infer<typeof promotionConfirmSchema>;

export interface PromotionRankRow {
  id: string;
  projectName: string;
  orgName: string;
  track: string | null;
  rank: number | null;
  trackRank: number | null;
  ruleScore: number | null;
  decidedBy: TieBreak | 'EQUAL' | null;
  /** Already in the final round (then counted but not added again). */
  inFinal: boolean;
  selected: boolean;
  /**
   * From the latest confidence-on-the-cut run of the round with this N when the inputs have not
   * changed since (docs/rules/judging-quality.md): the share of draws inside the cut (overall or
   * in the track, as the mode) and whether that is between 20% and 80%. Null without such a run.
   */
  pInCut?: number | null;
  onCut?: boolean | null;
}

export interface PromotionPreview {
  token: string;
  rule: ScoringRule;
  /** Preliminary scoring still open: the ranking may still change (the page warns). */
  reviewOpen: boolean;
  /** Every ranked project with `selected` marked. */
  ranking: PromotionRankRow[];
  selectedCount: number;
  /** Projects tied with the last selected one but left out: the cut line. */
  atCutLine: PromotionRankRow[];
}

export interface PromotionResult {
  promotionId: string;
  /** Newly added to the final round. */
  added: number;
  /** Selected but already in the final round. */
  already: number;
}

export interface PromotionRecord {
  id: string;
  mode: PromotionMode;
  n: number | null;
  count: number;
  actorName: string;
  createdAt: IsoDateTime;
}
