/**
 * Results publication (公示) and appeals (docs/rules/results.md): request schemas and answer
 * shapes shared by the server and the web. Paths and rules are in docs/api-results.md; texts in
 * RESULTS_MSG (./messages.ts).
 *
 * `{r}` in paths is a round slug (`prelim` | `final`, ROUND_SLUGS of review/access.ts). A
 * "project" id is the preliminary-materials id (prelim_docs.id) in both rounds, as in review.
 * A round's result is published as version 1; each re-review ends in a new version (2, 3...);
 * exactly one version of a published round is PUBLISHED (the current one), earlier ones are
 * SUPERSEDED and kept.
 */
import { z } from 'zod';
import { keywordQuery, optionalQuery, pageQueryFields, uuidSchema, type IsoDateTime } from '../admin/common.js';
import type { ReviewRound, ScoringRule } from '../admin/settings.js';
import type { FileRef } from '../content/documents.js';
import type { PromotionMode } from '../review/api.js';
import { RESULTS_MSG as M } from './messages.js';

// ------------------------------------------------------------------ enums and limits

/** A project's line of a result: PROMOTED / NOT_PROMOTED (preliminary), AWARDED / NONE (final). */
export const RESULT_OUTCOMES = ['PROMOTED', 'NOT_PROMOTED', 'AWARDED', 'NONE'] as const;
export type ResultOutcome = (typeof RESULT_OUTCOMES)[number];
/** Outcomes that put a project on the public list (promoted or awarded). */
export const isSelectedOutcome = (o: ResultOutcome) => o === 'PROMOTED' || o === 'AWARDED';

export const RESULT_VERSION_STATUSES = ['PUBLISHED', 'SUPERSEDED'] as const;
export type ResultVersionStatus = (typeof RESULT_VERSION_STATUSES)[number];

/**
 * SUBMITTED (filed, waiting) -> REJECTED (reply, final) | ACCEPTED (reply, project sent to
 * re-review) -> RESOLVED (a new version of the round's result was published after it).
 */
export const APPEAL_STATUSES = ['SUBMITTED', 'REJECTED', 'ACCEPTED', 'RESOLVED'] as const;
export type AppealStatus = (typeof APPEAL_STATUSES)[number];

/** How an accepted appeal re-reviews the project: return every submitted score, or add experts. */
export const APPEAL_REREVIEW_MODES = ['RETURN_SCORES', 'ADD_EXPERTS'] as const;
export type AppealRereviewMode = (typeof APPEAL_REREVIEW_MODES)[number];

export const APPEAL_REASON_MAX = 1000;
export const APPEAL_ATTACHMENTS_MAX = 3;
export const APPEAL_REPLY_MAX = 1000;
export const RESULT_VERSION_REASON_MAX = 500;
/**
 * Appeal attachments are the caller's own uploads of this origin (POST /attachment/piece/upload
 * with origin OTHER: pdf, office files, images, zip, 50 MB each). No origin of their own: the
 * OTHER rule fits, and admins read them with `file:read` like every participant file.
 */
export const APPEAL_ATTACHMENT_ORIGIN = 'OTHER' as const;

// ------------------------------------------------------------------ award levels (final)

/**
 * How the final's awards are given (the admin sets them when publishing):
 * - RANK_COUNTS: levels in order, each with a count: 一等奖 3, 二等奖 5, 三等奖 10, then the last
 *   level may leave `count` empty for "every other ranked project" (优秀奖). A level takes the
 *   projects whose rank is within the running total (rank <= 3, then <= 8, ...): projects tied
 *   at a cut share the better level, as promotion's top N does.
 * - SCORE_BANDS: levels from the highest band down, each with its minimum rule score (two
 *   decimals, what the console shows): a project gets the first level whose minScore it reaches.
 * A ranked project no level takes gets NONE (未获奖).
 */
export const AWARD_MODES = ['RANK_COUNTS', 'SCORE_BANDS'] as const;
export type AwardMode = (typeof AWARD_MODES)[number];
export const AWARD_LEVELS_MAX = 10;

const twoDecimals = (v: number) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6;

export const awardLevelSchema = z.object({
  name: z.string({ error: M.awardNameRequired }).trim().min(1, M.awardNameRequired).max(20, M.awardNameTooLong),
  count: z.number({ error: M.awardCountInvalid }).int(M.awardCountInvalid).min(1, M.awardCountInvalid).max(1000, M.awardCountInvalid).nullish(),
  minScore: z
    .number({ error: M.awardMinScoreInvalid })
    .min(0, M.awardMinScoreInvalid)
    .max(100, M.awardMinScoreInvalid)
    .refine(twoDecimals, M.awardMinScoreInvalid)
    .nullish(),
});
export type AwardLevelInput = z.infer<typeof awardLevelSchema>;

export const awardRuleSchema = z
  .object(
    {
      mode: z.enum(AWARD_MODES, { error: M.awardsModeInvalid }),
      levels: z.array(awardLevelSchema, { error: M.awardLevelsRequired }).min(1, M.awardLevelsRequired).max(AWARD_LEVELS_MAX, M.awardLevelsTooMany),
    },
    { error: M.awardsRequired },
  )
  .superRefine((v, ctx) => {
    const names = new Set<string>();
    v.levels.forEach((l, i) => {
      if (names.has(l.name)) ctx.addIssue({ code: 'custom', path: ['levels', i, 'name'], message: M.awardNameDuplicate });
      names.add(l.name);
      if (v.mode === 'RANK_COUNTS' && (l.count === null || l.count === undefined) && i < v.levels.length - 1) {
        ctx.addIssue({ code: 'custom', path: ['levels', i, 'count'], message: M.awardCountMissing });
      }
      if (v.mode === 'SCORE_BANDS') {
        if (l.minScore === null || l.minScore === undefined) ctx.addIssue({ code: 'custom', path: ['levels', i, 'minScore'], message: M.awardMinScoreInvalid });
        else {
          const prev = i > 0 ? v.levels[i - 1]!.minScore : null;
          if (prev !== null && prev !== undefined && l.minScore >= prev) ctx.addIssue({ code: 'custom', path: ['levels', i, 'minScore'], message: M.awardMinScoreOrder });
        }
      }
    });
  });
export type AwardRuleInput = z.infer<typeof awardRuleSchema>;

/** A level as stored with a version: `code` is L1, L2... in the order given (L1 the highest). */
export interface AwardLevel {
  code: string;
  name: string;
  /** RANK_COUNTS: the level's count; null on the last level = every other ranked project. */
  count: number | null;
  /** SCORE_BANDS: the band's minimum rule score. */
  minScore: number | null;
}
export interface AwardRule {
  mode: AwardMode;
  levels: AwardLevel[];
}

// ------------------------------------------------------------------ the rule a version was built with

/**
 * Who is promoted in a preliminary version:
 * - PROMOTION (version 1): the projects in the final round when the result was published, i.e.
 *   what the promotion(s) confirmed (and hand adds/removals of 决赛项目管理); ranks and scores come
 *   from the latest promotion's frozen ranking.
 * - TOP_OVERALL / TOP_PER_TRACK n (later versions): rank (track rank) <= n in the recomputed
 *   ranking, plus the previous version's hand picks (promoted projects outside its rank cut).
 * - KEEP: the previous version's promoted set as it was (a PICKED promotion: the admin chose by
 *   hand); ranks and scores are recomputed.
 */
export const PRELIM_SELECTIONS = ['PROMOTION', 'TOP_OVERALL', 'TOP_PER_TRACK', 'KEEP'] as const;
export type PrelimSelection = (typeof PRELIM_SELECTIONS)[number];

export interface ResultRuleSnapshot {
  round: ReviewRound;
  /** The round's scoring rule when the version was built. */
  scoring: ScoringRule;
  /** Preliminary only. */
  selection: {
    mode: PrelimSelection;
    /** TOP_* : N; else null. */
    n: number | null;
    /** Version 1: the promotion whose ranking was used, and how it chose. */
    promotionId: string | null;
    promotionMode: PromotionMode | null;
    promotionN: number | null;
  } | null;
  /** Final only. */
  awards: AwardRule | null;
}

// ------------------------------------------------------------------ admin: publication
// GET  /admin/results/overview                    (menu resultPublish)
// POST /admin/results/{r}/publish/preview         (result:publish; writes nothing)
// POST /admin/results/{r}/publish                 (result:publish)
// GET  /admin/results/{r}/versions                (menu resultPublish)
// GET  /admin/results/{r}/versions/compare?a=&b=  (menu resultPublish)
// GET  /admin/results/{r}/versions/{n}/entries    (menu resultPublish)
// POST /admin/results/{r}/versions/preview        (result:publish; writes nothing)
// POST /admin/results/{r}/versions                (result:publish)

/**
 * POST /admin/results/{r}/publish (and its preview). Preliminary: `{}` (the frozen promotion);
 * final: `{awards}` (required).
 */
export const publishBodySchema = z.object({ awards: awardRuleSchema.optional() });
export type PublishBody = z.infer<typeof publishBodySchema>;
export type PublishBodyInput = z.input<typeof publishBodySchema>;

/** Preliminary: override of how later versions choose the promoted set (default: as the current version's rule). */
export const prelimSelectionSchema = z.object({
  mode: z.enum(['TOP_OVERALL', 'TOP_PER_TRACK', 'KEEP'], { error: M.promotionModeInvalid }),
  n: z.number({ error: M.promotionNInvalid }).int(M.promotionNInvalid).min(1, M.promotionNInvalid).max(1000, M.promotionNInvalid).nullish(),
}).refine((v) => v.mode === 'KEEP' || (v.n !== null && v.n !== undefined), { message: M.promotionNInvalid, path: ['n'] });
export type PrelimSelectionInput = z.infer<typeof prelimSelectionSchema>;

const versionReason = z
  .string({ error: M.versionReasonRequired })
  .trim()
  .min(1, M.versionReasonRequired)
  .max(RESULT_VERSION_REASON_MAX, M.versionReasonTooLong);

const newVersionFields = {
  /** Preliminary only: how the promoted set is chosen (default: as the current version). */
  selection: prelimSelectionSchema.optional(),
  /** Final only: new award levels (default: those of the current version). */
  awards: awardRuleSchema.optional(),
};

/** POST /admin/results/{r}/versions: a new version after re-review (why it was needed is required). */
export const newVersionBodySchema = z.object({ reason: versionReason, ...newVersionFields });
export type NewVersionBody = z.infer<typeof newVersionBodySchema>;
/** POST /admin/results/{r}/versions/preview: the same without the reason. */
export const newVersionPreviewSchema = z.object({ reason: versionReason.optional(), ...newVersionFields });
export type NewVersionPreviewBody = z.infer<typeof newVersionPreviewSchema>;

export const versionParamsSchema = z.object({
  n: z.coerce.number({ error: M.versionInvalid }).int(M.versionInvalid).min(1, M.versionInvalid).max(1_000_000, M.versionInvalid),
});

const versionNumber = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
  z.coerce.number({ error: M.versionInvalid }).int(M.versionInvalid).min(1, M.versionInvalid).max(1_000_000, M.versionInvalid),
);
const boolQuery = optionalQuery(z.enum(['true', 'false'], { error: M.flagInvalid }).transform((v) => v === 'true'));

/** GET /admin/results/{r}/versions/compare: `a` and `b` differ (either order; rows say a -> b). */
export const compareQuerySchema = z
  .object({
    a: versionNumber,
    b: versionNumber,
    /** Only projects whose rank, score, outcome or award differ. */
    changedOnly: boolQuery,
    keyword: keywordQuery,
  })
  .refine((v) => v.a !== v.b, { message: M.compareSame, path: ['b'] });
export type CompareQuery = z.infer<typeof compareQuerySchema>;

/** GET /admin/results/{r}/versions/{n}/entries: rank order (unranked last). */
export const entriesQuerySchema = z.object({
  ...pageQueryFields,
  outcome: optionalQuery(z.enum(RESULT_OUTCOMES, { error: M.outcomeInvalid })),
  track: optionalQuery(z.string().max(40)),
  /** Project, team or organisation name, contains. */
  keyword: keywordQuery,
});
export type EntriesQuery = z.infer<typeof entriesQuerySchema>;

/** One project's line of a version (names as they were when the version was published). */
export interface ResultEntryView {
  projectId: string;
  teamId: string;
  projectName: string;
  teamName: string;
  orgName: string;
  track: string | null;
  rank: number | null;
  trackRank: number | null;
  /** The rule score (2 decimals); null without scores. */
  score: number | null;
  outcome: ResultOutcome;
  awardCode: string | null;
  awardName: string | null;
}

export interface AppealCounts {
  submitted: number;
  rejected: number;
  accepted: number;
  resolved: number;
}

export interface ResultVersionView {
  id: string;
  round: ReviewRound;
  version: number;
  status: ResultVersionStatus;
  publishedAt: IsoDateTime;
  /** End of the 公示 period this version started (publicity.days after publication). */
  periodEndsAt: IsoDateTime;
  /** Appeals accepted until then (appeal.windowDays after publication, never after periodEndsAt). */
  appealEndsAt: IsoDateTime;
  /** Why this version was published (null for version 1). */
  reason: string | null;
  actorName: string;
  /** The public notice in 大赛动态 (news id; /contest-dynamic/{id}). */
  newsId: string | null;
  rule: ResultRuleSnapshot;
  /** Projects in the version, and how many are promoted / awarded. */
  total: number;
  selected: number;
  /** Per award level (final): code, name, count. */
  levels: { code: string; name: string; count: number }[];
  /** Appeals filed against this version, by status. */
  appeals: AppealCounts;
}

export interface ResultVersionList {
  round: ReviewRound;
  /** The PUBLISHED version, null before the first publication. */
  current: ResultVersionView | null;
  /** Newest first. */
  versions: ResultVersionView[];
}

/** A project the final cannot be published without (scores missing or a re-review running). */
export interface IncompleteProject {
  id: string;
  projectName: string;
  /** Submitted scores and scorers expected. */
  count: number;
  expected: number;
  /** Sheets returned or saved as drafts (a re-review in progress). */
  pending: number;
}

/** POST /admin/results/{r}/publish/preview: what would be published (nothing written). */
export interface PublishPreview {
  round: ReviewRound;
  rule: ResultRuleSnapshot;
  entries: ResultEntryView[];
  total: number;
  selected: number;
  levels: { code: string; name: string; count: number }[];
  /** When the 公示 period and the appeal window would end if published now. */
  periodEndsAt: IsoDateTime;
  appealEndsAt: IsoDateTime;
}

/** POST /admin/results/{r}/publish and POST .../versions. */
export interface PublishResult {
  version: ResultVersionView;
  /** Teams told (RESULT_PUBLISHED, or RESULT_REVISED for the teams whose line changed and the appellants). */
  notified: number;
}

export interface RoundResultState {
  round: ReviewRound;
  published: boolean;
  current: ResultVersionView | null;
  /** Whether publishing version 1 is possible now, else why not (a RESULTS_MSG text). */
  canPublish: boolean;
  publishBlocker: string | null;
  /** Inside the current version's 公示 period / appeal window. */
  inPeriod: boolean;
  appealOpen: boolean;
  /** Appeals of the round by status; overdue = SUBMITTED past their due date. */
  appeals: AppealCounts & { overdue: number };
}

/** GET /admin/results/overview */
export interface ResultsOverview {
  now: IsoDateTime;
  rounds: RoundResultState[];
}

export type ResultMovement = 'IN' | 'OUT' | 'UP' | 'DOWN' | 'SAME' | 'ADDED' | 'REMOVED';

/** An appeal linked to a compared project (filed against a version up to b, resolved or decided). */
export interface LinkedAppeal {
  id: string;
  status: AppealStatus;
  version: number;
  reason: string;
  reply: string | null;
  resolvedVersion: number | null;
  createdAt: IsoDateTime;
}

/**
 * One project in two versions. movement, first that applies: ADDED / REMOVED (in one version
 * only), IN / OUT (became / stopped being promoted or awarded), UP / DOWN (a better / worse award
 * level, else a better / worse rank; unranked counts as worst), SAME.
 */
export interface CompareRow {
  projectId: string;
  projectName: string;
  teamName: string;
  orgName: string;
  track: string | null;
  rankA: number | null;
  rankB: number | null;
  scoreA: number | null;
  scoreB: number | null;
  outcomeA: ResultOutcome | null;
  outcomeB: ResultOutcome | null;
  awardA: string | null;
  awardB: string | null;
  movement: ResultMovement;
  changed: boolean;
  appeals: LinkedAppeal[];
}

/** GET /admin/results/{r}/versions/compare */
export interface VersionCompare {
  round: ReviewRound;
  a: ResultVersionView;
  b: ResultVersionView;
  /** Why each version after the older one up to the newer one was published. */
  reasons: { version: number; reason: string | null; publishedAt: IsoDateTime; actorName: string }[];
  /** In b's rank order (unranked last), then projects only in a. */
  rows: CompareRow[];
  summary: Record<ResultMovement, number>;
}

/** POST /admin/results/{r}/versions/preview: the current version against what would be published. */
export interface NewVersionPreview {
  round: ReviewRound;
  current: ResultVersionView;
  rule: ResultRuleSnapshot;
  rows: CompareRow[];
  summary: Record<ResultMovement, number>;
  /** Accepted appeals this version would resolve. */
  resolves: number;
}

// ------------------------------------------------------------------ participant
// GET  /results/mine             (participant)
// POST /results/{r}/appeal       (participant)

/**
 * POST /results/{r}/appeal. `attachments`: uniqueNo or filePath of the caller's own uploads with
 * origin OTHER (APPEAL_ATTACHMENT_ORIGIN).
 */
export const appealCreateSchema = z.object({
  reason: z.string({ error: M.appealReasonRequired }).trim().min(1, M.appealReasonRequired).max(APPEAL_REASON_MAX, M.appealReasonTooLong),
  attachments: z
    .array(z.string({ error: M.appealAttachmentInvalid }).max(200, M.appealAttachmentInvalid), { error: M.appealAttachmentInvalid })
    .max(APPEAL_ATTACHMENTS_MAX, M.appealAttachmentsTooMany)
    .default([]),
});
export type AppealCreate = z.input<typeof appealCreateSchema>;

/** The team's own appeal as the participant sees it (staff are 大赛组委会: no names). */
export interface MyAppeal {
  id: string;
  round: ReviewRound;
  /** The result version it was filed against. */
  version: number;
  status: AppealStatus;
  reason: string;
  attachments: FileRef[];
  reply: string | null;
  createdAt: IsoDateTime;
  decidedAt: IsoDateTime | null;
  /** The organisers answer by then (the end of the 公示 period). */
  dueAt: IsoDateTime;
  /** The version that resolved it (RESOLVED). */
  resolvedVersion: number | null;
}

/** The team's own line of the round's current result. */
export interface MyResultEntry {
  projectId: string;
  projectName: string;
  outcome: ResultOutcome;
  awardName: string | null;
  rank: number | null;
  trackRank: number | null;
  score: number | null;
}

export interface MyRoundResult {
  round: ReviewRound;
  published: boolean;
  version: number | null;
  publishedAt: IsoDateTime | null;
  periodEndsAt: IsoDateTime | null;
  appealEndsAt: IsoDateTime | null;
  /** Before periodEndsAt (the countdown runs). */
  inPeriod: boolean;
  /** Before appealEndsAt. */
  appealOpen: boolean;
  /** The public notice (news id). */
  newsId: string | null;
  /** null when not published or the team has no project in the round. */
  entry: MyResultEntry | null;
  appeal: MyAppeal | null;
  /** The 申诉 button shows only when true. */
  canAppeal: boolean;
  /** Why not, when published and not possible (a RESULTS_MSG text); null otherwise. */
  appealBlocker: string | null;
  /**
   * The score-log head published with the current version (seq, hash, Merkle root), printed in
   * its notice; null when not published or published before heads were (then no receipt).
   */
  anchor: { seq: number; headHash: string; merkleRoot: string } | null;
}

/** GET /results/{r}/receipt: optional project id (the caller's own; another answers 404). */
export const receiptQuerySchema = z.object({
  projectId: optionalQuery(uuidSchema),
});
export type ReceiptQuery = z.infer<typeof receiptQuerySchema>;

/** GET /results/mine: both rounds, with the server's time for the countdown. */
export interface MyResults {
  now: IsoDateTime;
  rounds: MyRoundResult[];
}

// ------------------------------------------------------------------ admin: appeals
// GET  /admin/appeals               (menu appealManage)
// GET  /admin/appeals/{id}          (menu appealManage)
// POST /admin/appeals/{id}/reject   (appeal:decide)
// POST /admin/appeals/{id}/accept   (appeal:decide)

export const appealListQuerySchema = z.object({
  ...pageQueryFields,
  round: optionalQuery(z.enum(['PRELIMINARY', 'FINAL'], { error: M.roundInvalid })),
  status: optionalQuery(z.enum(APPEAL_STATUSES, { error: M.appealStatusInvalid })),
  /** Project, team or organisation name, or the appeal's text, contains. */
  keyword: keywordQuery,
  /** Only SUBMITTED appeals past their due date. */
  overdue: boolQuery,
});
export type AppealListQuery = z.infer<typeof appealListQuerySchema>;

export interface AppealRow {
  id: string;
  round: ReviewRound;
  version: number;
  status: AppealStatus;
  projectId: string;
  projectName: string;
  teamId: string;
  teamName: string;
  orgName: string;
  /** The appeal's text (the list shows its start). */
  reason: string;
  attachmentCount: number;
  createdAt: IsoDateTime;
  dueAt: IsoDateTime;
  /** SUBMITTED and past dueAt. */
  overdue: boolean;
  decidedAt: IsoDateTime | null;
  decidedBy: string | null;
  resolvedVersion: number | null;
  /** Optimistic concurrency: send it back with a decision. */
  rowVersion: number;
}

export interface AppealHistoryEntry {
  id: string;
  /** APPEAL (the appeal's states) or RESULT (the project's outcome in a version). */
  subject: 'APPEAL' | 'RESULT';
  fromStatus: string | null;
  toStatus: string;
  reason: string | null;
  actorRealm: 'USER' | 'ADMIN' | 'EXPERT';
  actorName: string;
  createdAt: IsoDateTime;
}

export interface AppealDetail extends AppealRow {
  attachments: FileRef[];
  reply: string | null;
  /** ACCEPTED: how the project was sent to re-review. */
  rereview: { mode: AppealRereviewMode; expertIds: string[] } | null;
  /** The project's line in the version appealed against, and in the current version. */
  entry: ResultEntryView | null;
  currentEntry: ResultEntryView | null;
  /** The appeal's and the project's result history, oldest first. */
  history: AppealHistoryEntry[];
}

const reply = z.string({ error: M.appealReplyRequired }).trim().min(1, M.appealReplyRequired).max(APPEAL_REPLY_MAX, M.appealReplyTooLong);
const rowVersion = z.number({ error: M.appealVersionRequired }).int(M.appealVersionRequired);

/** POST /admin/appeals/{id}/reject */
export const appealRejectSchema = z.object({ reply, version: rowVersion });
export type AppealRejectBody = z.infer<typeof appealRejectSchema>;

/** POST /admin/appeals/{id}/accept: the reply, and the re-review (review module's 复评). */
export const appealAcceptSchema = z
  .object({
    reply,
    version: rowVersion,
    mode: z.enum(APPEAL_REREVIEW_MODES, { error: M.appealModeInvalid }),
    expertIds: z.array(uuidSchema).max(20).default([]),
  })
  .refine((v) => v.mode === 'RETURN_SCORES' || v.expertIds.length > 0, { message: M.appealExpertsRequired, path: ['expertIds'] });
export type AppealAcceptBody = z.infer<typeof appealAcceptSchema>;
