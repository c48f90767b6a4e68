/**
 * The live final (现场答辩): request schemas, answers, the state snapshots of the three streams
 * (chair, judge, big screen) and the event stream, shared by the server and the web. Every
 * route, its body, answer and errors: docs/live-final.md. A "project" id is the preliminary
 * materials id (prelim_docs.id), as in review; live scores are ordinary FINAL score sheets.
 */
import { z } from 'zod';
import { DATE_PATTERN, pageQueryFields, keywordQuery, optionalQuery, uuidSchema, type IsoDateTime } from '../admin/common.js';
import type { ScoringRule } from '../admin/settings.js';
import type { Criterion } from '../review/rubric.js';
import type { ConflictCause } from '../review/organisation.js';
import { REVIEW_MSG } from '../review/messages.js';
import { LIVE_MSG as M } from './messages.js';
import {
  LIVE_CHAIR_ACTIONS,
  LIVE_SESSION_STATUSES,
  type LiveChairAction,
  type LiveProjectState,
  type LiveSessionStatus,
  type LiveTimerPhase,
} from './workflow.js';

export const LIVE_JUDGES_MAX = 50;
export const LIVE_PROJECTS_MAX = 200;
export const LIVE_REASON_MAX = 200;

// ------------------------------------------------------------------ routes
/** Every route of the module (docs/live-final.md, "Calls"); `:id` a session, `:projectId` a prelim_docs id. */
export const LIVE_ROUTES = {
  // console: planning (menu liveFinal; writes need live:plan)
  candidates: 'GET /api/admin/live/candidates',
  sessions: 'GET /api/admin/live/sessions',
  createSession: 'POST /api/admin/live/sessions',
  session: 'GET /api/admin/live/sessions/:id',
  updateSession: 'PUT /api/admin/live/sessions/:id',
  deleteSession: 'DELETE /api/admin/live/sessions/:id',
  setProjects: 'PUT /api/admin/live/sessions/:id/projects',
  importProjects: 'POST /api/admin/live/sessions/:id/projects/import',
  runningOrder: 'GET /api/admin/live/sessions/:id/running-order',
  // console: display links (live:display)
  displays: 'GET /api/admin/live/sessions/:id/displays',
  createDisplay: 'POST /api/admin/live/sessions/:id/displays',
  revokeDisplay: 'DELETE /api/admin/live/sessions/:id/displays/:linkId',
  // console: the chair (live:chair)
  chair: 'GET /api/admin/live/sessions/:id/chair',
  chairEvents: 'GET /api/admin/live/sessions/:id/events',
  action: 'POST /api/admin/live/sessions/:id/actions',
  // judges (expert realm, agreement required)
  judgeSessions: 'GET /api/expert/live/sessions',
  judge: 'GET /api/expert/live/sessions/:id',
  judgeEvents: 'GET /api/expert/live/sessions/:id/events',
  submit: 'POST /api/expert/live/sessions/:id/projects/:projectId/score',
  // big screen (no login: the display token)
  display: 'GET /api/live/display/:token',
  displayEvents: 'GET /api/live/display/:token/events',
} as const;

/** Web paths of the pages (the big screen opens `/live/:token`). */
export const LIVE_WEB_PATHS = {
  admin: '/admin/final/live',
  display: '/live/:token',
  judge: '/expert/live',
} as const;

// ------------------------------------------------------------------ planning
const name50 = z.string({ error: M.sessionNameRequired }).trim().min(1, M.sessionNameRequired).max(50, M.sessionNameTooLong);
const reason200 = z.string().trim().max(LIVE_REASON_MAX, M.reasonTooLong);

export const liveSessionBodySchema = z.object({
  name: name50,
  venue: z.string({ error: M.venueRequired }).trim().min(1, M.venueRequired).max(100, M.venueTooLong),
  /** YYYY-MM-DD */
  date: z.string({ error: M.dateInvalid }).regex(DATE_PATTERN, M.dateInvalid),
  /** HH:mm, the first project's slot in the running order; null = no times printed. */
  startTime: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, M.startTimeInvalid)
    .nullish()
    .transform((v) => v ?? null),
  presentationMinutes: z.number({ error: M.presentationMinutesInvalid }).int(M.presentationMinutesInvalid).min(1, M.presentationMinutesInvalid).max(60, M.presentationMinutesInvalid),
  qaMinutes: z.number({ error: M.qaMinutesInvalid }).int(M.qaMinutesInvalid).min(0, M.qaMinutesInvalid).max(60, M.qaMinutesInvalid),
  /** Expert account ids, each an enabled expert of a FINAL review group. Fixed once the session is LIVE. */
  judgeIds: z.array(uuidSchema, { error: M.judgesRequired }).min(1, M.judgesRequired).max(LIVE_JUDGES_MAX, M.judgesTooMany),
});
export type LiveSessionBody = z.infer<typeof liveSessionBodySchema>;

export const liveSessionListQuerySchema = z.object({
  ...pageQueryFields,
  keyword: keywordQuery,
  status: optionalQuery(z.enum(LIVE_SESSION_STATUSES, { error: M.actionInvalid })),
});
export type LiveSessionListQuery = z.infer<typeof liveSessionListQuerySchema>;

/** PUT .../projects: the whole list in running order (reorder, add, remove). A project that was started (not WAITING, ABSENT or SKIPPED) must stay in the list. */
export const liveProjectsBodySchema = z.object({
  projectIds: z.array(uuidSchema).max(LIVE_PROJECTS_MAX, M.projectsTooMany),
  /** The session version seen (absent: no check). */
  version: z.number().int().optional(),
});
export type LiveProjectsBody = z.infer<typeof liveProjectsBodySchema>;

/** POST .../projects/import: append a FINAL review group's projects (not yet in a session), and, while PLANNED, add its experts as judges. */
export const liveImportBodySchema = z.object({
  groupId: uuidSchema,
  judges: z.boolean().default(true),
  /** 'NAME' = project name order; 'RANDOM' = a drawn order (抽签). */
  order: z.enum(['NAME', 'RANDOM'], { error: M.actionInvalid }).default('NAME'),
});
export type LiveImportBody = z.infer<typeof liveImportBodySchema>;

export interface LiveSessionRow {
  id: string;
  name: string;
  venue: string;
  date: string;
  startTime: string | null;
  presentationMinutes: number;
  qaMinutes: number;
  status: LiveSessionStatus;
  judges: number;
  projects: number;
  /** Projects revealed, absent or skipped. */
  done: number;
  version: number;
  createdAt: IsoDateTime;
  updatedAt: IsoDateTime;
}

export interface LiveJudge {
  expertId: string;
  code: string;
  name: string;
  organization: string;
  enabled: boolean;
}

/** A judge left out of a project: in conflict (automatic), or not one of its final scorers. */
export interface LiveExclusion {
  expertId: string;
  code: string;
  name: string;
  why: 'CONFLICT' | 'NOT_ASSIGNED';
  /** Set for CONFLICT: what the two organisations share (review's conflict rule). */
  cause: ConflictCause | null;
}

export interface LivePlannedProject {
  projectId: string;
  order: number;
  projectName: string;
  teamName: string;
  orgName: string;
  track: string | null;
  groupName: string | null;
  state: LiveProjectState;
  /** Judges who score it: session judges minus conflicts, among the project's final scorers. */
  expectedJudgeIds: string[];
  excluded: LiveExclusion[];
}

/** GET /admin/live/sessions/:id */
export interface LiveSessionDetail extends LiveSessionRow {
  judgeList: LiveJudge[];
  projectList: LivePlannedProject[];
  /** Planning problems the console shows (e.g. a project nobody can score); START refuses such a project. */
  warnings: { projectId: string; message: string }[];
}

/** GET /admin/live/candidates: whom and what a session may take. */
export interface LiveCandidates {
  /** Enabled experts of FINAL review groups. */
  judges: (LiveJudge & { groupId: string; groupName: string })[];
  /** Final-round projects, with the session they are already in (null = free). */
  projects: { projectId: string; projectName: string; teamName: string; orgName: string; track: string | null; groupId: string | null; groupName: string | null; sessionId: string | null; sessionName: string | null }[];
  groups: { id: string; name: string; experts: number; projects: number }[];
}

/** GET .../running-order: the printable 答辩顺序表 (slots from startTime, presentation + questions each). */
export interface LiveRunningOrder {
  session: LiveSessionRow;
  judges: LiveJudge[];
  rows: { order: number; projectId: string; projectName: string; teamName: string; orgName: string; track: string | null; slot: string | null; state: LiveProjectState; excludedJudges: string[] }[];
}

// ------------------------------------------------------------------ display links
export const liveDisplayBodySchema = z.object({ name: z.string().trim().max(30, M.displayNameTooLong).default('') });
export type LiveDisplayBody = z.infer<typeof liveDisplayBodySchema>;

export interface LiveDisplayLink {
  id: string;
  name: string;
  /** Shown in full only in the answer of its creation; the list shows the first 6 characters. */
  token: string;
  /** The web path to open on the projector: `/live/<token>` (full only at creation). */
  path: string;
  revoked: boolean;
  createdAt: IsoDateTime;
  revokedAt: IsoDateTime | null;
  lastSeenAt: IsoDateTime | null;
}

/** Any malformed token is the same 404 as a revoked one (the service checks). */
export const liveTokenParamsSchema = z.object({ token: z.string().max(128, M.displayNotFound) });

// ------------------------------------------------------------------ the chair
export const liveActionBodySchema = z.object({
  action: z.enum(LIVE_CHAIR_ACTIONS, { error: M.actionInvalid }),
  /** The session version the chair's screen shows (every chair action raises it): a stale one is refused (reason STALE). */
  version: z.number({ error: M.stale }).int(),
  /** Project actions: the project (prelim_docs id). Session actions: ignored. */
  projectId: uuidSchema.optional(),
  /** RETURN_SCORE: the judge whose sheet goes back. */
  expertId: uuidSchema.optional(),
  /** Required for CLOSE (a judge is missing), RETURN_SCORE and REOPEN; optional note for ABSENT / SKIP. */
  reason: reason200.optional(),
});
export type LiveActionBody = z.infer<typeof liveActionBodySchema>;

/**
 * The timer, derived from stored timestamps (never in memory): elapsed time of the running
 * phase at `at` (server time). A client shows `limitSeconds - (elapsedMs + (running ? local
 * time since the snapshot arrived : 0)) / 1000`; negative = overtime.
 */
export interface LiveTimer {
  phase: LiveTimerPhase;
  limitSeconds: number;
  elapsedMs: number;
  running: boolean;
  at: IsoDateTime;
}

/** The project on stage, as every stream shows it. The final is not blind: team and organisation shown. */
export interface LiveStageProject {
  projectId: string;
  order: number;
  projectName: string;
  teamName: string;
  orgName: string;
  track: string | null;
  state: LiveProjectState;
  timer: LiveTimer | null;
  /** Progress only: how many expected judges have submitted. Never a mark. */
  submitted: number;
  expected: number;
  /** After REVEAL only: the project's score by the round's rule, and its rank in the session. */
  result: LiveResult | null;
}

export interface LiveResult {
  score: number | null;
  /** Rank among the session's revealed projects. */
  rank: number | null;
}

export interface LiveRankingRow {
  rank: number;
  projectId: string;
  projectName: string;
  teamName: string;
  orgName: string;
  score: number | null;
}

export interface LiveSessionHead {
  id: string;
  name: string;
  venue: string;
  date: string;
  status: LiveSessionStatus;
  presentationMinutes: number;
  qaMinutes: number;
  /** Raised by every chair action: the chair sends it back with the next action. */
  version: number;
}

/** GET /api/live/display/:token and its stream: the big screen. Never a single judge's marks. */
export interface LiveDisplayState {
  session: LiveSessionHead;
  current: LiveStageProject | null;
  /** The next waiting project in order (准备上场). */
  next: { projectId: string; projectName: string; teamName: string } | null;
  /** The session's running ranking: revealed projects, by the round's rule. */
  ranking: LiveRankingRow[];
  rule: ScoringRule['aggregate'];
  serverTime: IsoDateTime;
}

export type LiveJudgeProgress = 'PENDING' | 'SUBMITTED' | 'RETURNED';

/** A project in the chair's list; `judges` is progress only while sealed. */
export interface LiveChairProject extends LiveStageProject {
  judges: {
    expertId: string;
    code: string;
    name: string;
    status: LiveJudgeProgress;
    /** Only once unsealed (CLOSED, REVEALED): that judge's total. Null while sealed. */
    total: number | null;
  }[];
  excluded: LiveExclusion[];
  closeReason: string | null;
  /** Chair buttons allowed now for this project (the workflow's, narrowed by the session rules). */
  actions: LiveChairAction[];
}

/** GET /admin/live/sessions/:id/chair and the chair's stream. */
export interface LiveChairState extends Omit<LiveDisplayState, 'current'> {
  current: LiveChairProject | null;
  projects: LiveChairProject[];
  /** Session buttons allowed now (OPEN, NEXT, END, REOPEN). */
  actions: LiveChairAction[];
  displays: number;
}

// ------------------------------------------------------------------ judges
export const liveScoreBodySchema = z.object({
  scores: z.record(z.string().max(30), z.number({ error: REVIEW_MSG.scoreInvalid }), { error: REVIEW_MSG.scoreRequired }),
  comment: z.string().max(1000, REVIEW_MSG.commentTooLong).default(''),
  /** Chosen by the phone once per filled-in score and kept with it until the server answers: resending the same key records once. */
  key: z.string({ error: M.keyInvalid }).regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, M.keyInvalid),
});
export type LiveScoreBody = z.infer<typeof liveScoreBodySchema>;

export interface LiveOwnSheet {
  /** ABSTAINED: the judge abstained from the project in the review (docs/rules/review.md, "Abstaining"). */
  status: 'DRAFT' | 'SUBMITTED' | 'RETURNED' | 'ABSTAINED';
  scores: Record<string, number>;
  comment: string;
  total: number;
  returnReason: string | null;
  submittedAt: IsoDateTime | null;
}

/** GET /expert/live/sessions/:id and the judge's stream: only the judge's own sheet, ever. */
export interface LiveJudgeState {
  session: LiveSessionHead;
  current:
    | (Omit<LiveStageProject, 'result'> & {
        /** This judge scores this project (one of its expected judges). */
        judging: boolean;
        /** Left out: conflict of interest (the phone says so, without the cause). */
        conflict: boolean;
        /** The judge may submit now (scoring open, own sheet not submitted). */
        canScore: boolean;
        own: LiveOwnSheet | null;
      })
    | null;
  criteria: Criterion[];
  serverTime: IsoDateTime;
}

/** POST .../score: the judge's state after the submit; `duplicate` = this key was recorded before. */
export interface LiveSubmitResult {
  duplicate: boolean;
  state: LiveJudgeState;
}

/** GET /expert/live/sessions: the sessions the expert judges. */
export interface LiveJudgeSessionRow {
  id: string;
  name: string;
  venue: string;
  date: string;
  status: LiveSessionStatus;
}

// ------------------------------------------------------------------ event stream
/**
 * Server-sent events (docs/live-final.md, "Event stream"). Each stream first sends `state` with
 * the full snapshot of its kind, then a new `state` after every change of the session, and a
 * comment line every 15 s. `gone`: the link was revoked, the session deleted or the judge
 * removed; the client closes (EventSource would reconnect otherwise) and shows the message.
 */
export const LIVE_EVENTS = { state: 'state', gone: 'gone' } as const;
export type LiveEventName = (typeof LIVE_EVENTS)[keyof typeof LIVE_EVENTS];
export interface LiveGoneEvent {
  reason: 'REVOKED' | 'DELETED' | 'NOT_JUDGE' | 'SIGNED_OUT';
  message: string;
}
/** What instances tell each other (Redis pub/sub or in-process): only that a session changed. */
export interface LiveChangeSignal {
  sessionId: string;
  /** Set when a display link was revoked: its streams end with `gone`. */
  revokedLinkId?: string;
  deleted?: boolean;
}
