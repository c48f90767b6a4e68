/**
 * Contest settings (docs/rules/admin.md, "Contest settings"): the 大赛设置 page reads and writes them as one
 * object (GET/PUT /admin/settings); the server stores them in the `settings` table, one key per
 * setting (SETTINGS_KEYS), and every module reads them per request, so a change applies at once.
 * Decisions (phase order, appeal window, size ceilings) are in docs/decisions.md.
 */
import { z } from 'zod';
import { CONTEST_NAME_DEFAULT, CONTEST_NAME_EN_DEFAULT } from '../constants.js';
import { CONTEST_SETTING_KEYS, PHASE_KEYS, PHASES_WHEN_UNSET, normalisePhases, type PhaseKey, type PhaseWindow } from '../contest/phases.js';
import { PRELIM_FILE_MAX_BYTES, type PrelimFileKind } from '../contest/prelim.js';
import { RETENTION_DAYS_DEFAULT, RETENTION_DAYS_MAX, RETENTION_KINDS, RETENTION_LOG_DAYS_MIN, type RetentionKind } from '../retention/retention.js';
import {
  LOGIN_PER_IP_MAX,
  LOGIN_PER_IP_MIN,
  SETTINGS_FILE_MAX_BYTES,
  SETTINGS_FILE_MIN_BYTES,
  SETTINGS_MAX_APPLICATION_CHARS,
  SETTINGS_MSG,
} from './settings-messages.js';

export * from './settings-messages.js';

export const DATA_DOC_MENU_NAME_DEFAULT = '数据文档';

const M = SETTINGS_MSG;

export const REVIEW_ROUNDS = ['PRELIMINARY', 'FINAL'] as const;
export type ReviewRound = (typeof REVIEW_ROUNDS)[number];
/** Which aggregate ranks a round (docs/rules/review.md, "Scoring rule and ranking"): trimmed mean by default. */
export const SCORE_AGGREGATES = ['TRIMMED_MEAN', 'MEAN', 'MEDIAN', 'ZSCORE'] as const;
export type ScoreAggregate = (typeof SCORE_AGGREGATES)[number];
/** Tie-break steps, compared in the chosen order; still tied after the last: equal rank. */
export const TIE_BREAKS = ['RULE_SCORE', 'TRIMMED_MEAN', 'CRITERIA', 'RAW_MEAN'] as const;
export type TieBreak = (typeof TIE_BREAKS)[number];

/**
 * What an expert may download (docs/security.md "Blind review"): 'none' (the
 * default) = preview only, the server refuses downloads; 'pdf' = PDFs, stamped on every page with
 * the expert's watermark; 'all' = PDFs stamped, other kinds as they are (blind: metadata stripped).
 */
export const EXPERT_DOWNLOAD_MODES = ['none', 'pdf', 'all'] as const;
export type ExpertDownloadMode = (typeof EXPERT_DOWNLOAD_MODES)[number];

export interface ScoringRule {
  aggregate: ScoreAggregate;
  /** With at least this many submitted scores the highest and lowest are dropped (trimmed mean). */
  minScoresForTrim: number;
  tieBreak: TieBreak[];
}

export interface ContestSettings {
  name: string;
  /** The name on English pages (header, footer, dialogs, watermark). */
  nameEn: string;
  /** null = not scheduled (closed); inside a window a null side is open-ended. Times are ISO 8601 UTC. */
  phases: Record<PhaseKey, PhaseWindow | null>;
  notify: { sms: boolean; email: boolean };
  prelim: {
    /** null = no cap. */
    maxApplicationChars: number | null;
    /** Bytes per kind. */
    fileMaxBytes: Record<PrelimFileKind, number>;
  };
  dataDocMenuName: string;
  review: {
    blind: boolean;
    /** Expert downloads (EXPERT_DOWNLOAD_MODES); off by default: preview only. */
    expertDownload: ExpertDownloadMode;
    rules: Record<ReviewRound, ScoringRule>;
    /** A project whose spread (max - min of totals, out of 100) exceeds this is flagged. */
    divergenceThreshold: number;
    /** How many experts automatic assignment gives each project. */
    minExpertsPerProject: number;
    /**
     * Per round, the most projects one expert may score (null: no cap, the default; docs/rules/review.md,
     * "Review groups and assignment"). Optional in a save: a client that predates it leaves it as stored.
     */
    maxProjectsPerExpert?: Record<ReviewRound, number | null>;
  };
  /** 公示 period in days, started by a publication. */
  publicity: { days: number };
  /** Days after publication during which a team may appeal; never longer than the 公示 period. */
  appeal: { windowDays: number };
  /**
   * Sign-in protection (docs/rules/identity.md, "Login limits"): login calls a minute from one client address, over all
   * accounts. Each login name has its own fixed limit besides (LOGIN_PER_ACCOUNT_PER_MINUTE).
   */
  security: { loginPerIpPerMinute: number };
  /**
   * Days after the contest's end each kind of personal data is kept (docs/retention.md). Optional in a
   * save: a client that predates it leaves it as stored.
   */
  retention?: { days: Record<RetentionKind, number> };
}

/** Login attempts a minute for one login name (per realm), from any address: not a setting. */
export const LOGIN_PER_ACCOUNT_PER_MINUTE = 10;
/** The per-address ceiling when never saved: hundreds of teams may share one hospital or campus address. */
export const LOGIN_PER_IP_PER_MINUTE_DEFAULT = 300;

const DEFAULT_RULE: ScoringRule = { aggregate: 'TRIMMED_MEAN', minScoresForTrim: 5, tieBreak: [...TIE_BREAKS] };

/** Every default in one place: what the portal uses for a setting that was never saved. */
export const SETTINGS_DEFAULTS: ContestSettings = {
  name: CONTEST_NAME_DEFAULT,
  nameEn: CONTEST_NAME_EN_DEFAULT,
  phases: { ...PHASES_WHEN_UNSET },
  notify: { sms: false, email: false },
  prelim: { maxApplicationChars: null, fileMaxBytes: { ...PRELIM_FILE_MAX_BYTES } },
  dataDocMenuName: DATA_DOC_MENU_NAME_DEFAULT,
  review: {
    blind: true,
    expertDownload: 'none',
    rules: { PRELIMINARY: { ...DEFAULT_RULE, tieBreak: [...TIE_BREAKS] }, FINAL: { ...DEFAULT_RULE, tieBreak: [...TIE_BREAKS] } },
    divergenceThreshold: 20,
    minExpertsPerProject: 5,
    maxProjectsPerExpert: { PRELIMINARY: null, FINAL: null },
  },
  publicity: { days: 5 },
  appeal: { windowDays: 5 },
  security: { loginPerIpPerMinute: LOGIN_PER_IP_PER_MINUTE_DEFAULT },
  retention: { days: { ...RETENTION_DAYS_DEFAULT } },
};

/** Storage keys, one per setting (the first five are read by the contest and identity modules as they are). */
export const SETTINGS_KEYS = {
  name: CONTEST_SETTING_KEYS.name,
  nameEn: CONTEST_SETTING_KEYS.nameEn,
  phases: CONTEST_SETTING_KEYS.phases,
  notifySms: 'notify.sms',
  notifyEmail: 'notify.email',
  maxApplicationChars: CONTEST_SETTING_KEYS.maxApplicationChars,
  prelimFileMaxBytes: CONTEST_SETTING_KEYS.prelimFileMaxBytes,
  dataDocMenuName: 'site.dataDocMenuName',
  reviewBlind: 'review.blind',
  expertDownload: 'review.expertDownload',
  reviewRules: 'review.rules',
  divergenceThreshold: 'review.divergenceThreshold',
  minExpertsPerProject: 'review.minExpertsPerProject',
  maxProjectsPerExpert: 'review.maxProjectsPerExpert',
  publicityDays: 'publicity.days',
  appealWindowDays: 'appeal.windowDays',
  loginPerIpPerMinute: 'security.loginPerIpPerMinute',
  retentionDays: 'retention.days',
} as const;
export type SettingKey = (typeof SETTINGS_KEYS)[keyof typeof SETTINGS_KEYS];
export const SETTING_KEY_LIST: readonly SettingKey[] = Object.values(SETTINGS_KEYS);

/** What each key is called in the operation log. */
export const SETTING_KEY_LABELS: Record<SettingKey, string> = {
  'contest.name': '大赛名称',
  'contest.nameEn': '大赛英文名称',
  'contest.phases': '阶段时间',
  'notify.sms': '短信通知',
  'notify.email': '邮件通知',
  'prelim.maxApplicationChars': '申报书字数上限',
  'prelim.fileMaxBytes': '初赛附件大小上限',
  'site.dataDocMenuName': '数据文档菜单名称',
  'review.blind': '盲评',
  'review.expertDownload': '专家下载材料',
  'review.rules': '评分规则',
  'review.divergenceThreshold': '分歧阈值',
  'review.minExpertsPerProject': '每个项目的评审专家数',
  'review.maxProjectsPerExpert': '每位专家评审项目上限',
  'publicity.days': '公示期（天）',
  'appeal.windowDays': '申诉期（天）',
  'security.loginPerIpPerMinute': '同一网络地址每分钟登录次数上限',
  'retention.days': '个人数据保留期限',
};

/** The stored value of every key, as the server writes them. */
export function settingsToStored(s: ContestSettings): Record<SettingKey, unknown> {
  return {
    'contest.name': s.name,
    'contest.nameEn': s.nameEn,
    'contest.phases': s.phases,
    'notify.sms': s.notify.sms,
    'notify.email': s.notify.email,
    'prelim.maxApplicationChars': s.prelim.maxApplicationChars,
    'prelim.fileMaxBytes': s.prelim.fileMaxBytes,
    'site.dataDocMenuName': s.dataDocMenuName,
    'review.blind': s.review.blind,
    'review.expertDownload': s.review.expertDownload,
    'review.rules': s.review.rules,
    'review.divergenceThreshold': s.review.divergenceThreshold,
    'review.minExpertsPerProject': s.review.minExpertsPerProject,
    'review.maxProjectsPerExpert': s.review.maxProjectsPerExpert ?? { PRELIMINARY: null, FINAL: null },
    'publicity.days': s.publicity.days,
    'appeal.windowDays': s.appeal.windowDays,
    'security.loginPerIpPerMinute': s.security.loginPerIpPerMinute,
    'retention.days': s.retention?.days ?? { ...RETENTION_DAYS_DEFAULT },
  };
}

// ---------------------------------------------------------------------------------------------
// Validation of PUT /admin/settings: the whole object, every field required (a client that
// leaves a group out must not reset it to its default).

const BEIJING_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

/** A `YYYY-MM-DD HH:mm:ss` Beijing wall-clock time or an ISO 8601 time with offset, as epoch ms; null if neither. */
export function parseSettingTime(value: string): number | null {
  const text = BEIJING_TIME.test(value) ? `${value.replace(' ', 'T')}+08:00` : ISO_WITH_OFFSET.test(value) ? value : null;
  if (text === null) return null;
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) return null;
  // Refuse dates the parser rolls over (2025-02-30 would silently become March 2).
  const wall = new Date(ms + 8 * 3600_000).toISOString().slice(0, 10);
  const written = BEIJING_TIME.test(value) ? value.slice(0, 10) : null;
  return written === null || written === wall ? ms : null;
}

/** The Beijing wall-clock form of an ISO time (`YYYY-MM-DD HH:mm:ss`), as the settings page shows it. */
export function toBeijingWallClock(iso: string): string {
  return new Date(Date.parse(iso) + 8 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');
}

const phaseTime = z.preprocess(
  (v) => (v === undefined || v === '' ? null : v),
  z
    .string({ error: M.phaseTimeInvalid })
    .refine((v) => parseSettingTime(v) !== null, M.phaseTimeInvalid)
    .transform((v) => new Date(parseSettingTime(v)!).toISOString())
    .nullable(),
);

const phaseWindowSchema = z
  .object({ start: phaseTime, end: phaseTime }, { error: M.phaseInvalid })
  .refine((w) => w.start === null || w.end === null || Date.parse(w.start) < Date.parse(w.end), { message: M.phaseStartAfterEnd, path: ['end'] })
  .nullable();

const REVIEW_PHASES: ReadonlySet<PhaseKey> = new Set(['prelimReview', 'finalReview']);
const lo = (t: string | null) => (t === null ? -Infinity : Date.parse(t));
const hi = (t: string | null) => (t === null ? Infinity : Date.parse(t));

/**
 * Phases in contest order: each scheduled phase starts and ends no earlier than every scheduled
 * phase before it (an open side counts as -infinity / +infinity); sign-up and material submission
 * may overlap, but a review phase starts only after every earlier phase has ended.
 */
export function phaseOrderProblem(phases: Record<PhaseKey, PhaseWindow | null>): { key: PhaseKey; side: 'start' | 'end'; message: string } | null {
  for (let j = 1; j < PHASE_KEYS.length; j++) {
    const later = phases[PHASE_KEYS[j]!];
    if (!later) continue;
    for (let i = 0; i < j; i++) {
      const earlier = phases[PHASE_KEYS[i]!];
      if (!earlier) continue;
      const key = PHASE_KEYS[j]!;
      // Starting after the earlier phase ended also puts the start and the end in order.
      if (REVIEW_PHASES.has(key)) {
        if (lo(later.start) <= hi(earlier.end)) return { key, side: 'start', message: M.reviewOverlaps };
        continue;
      }
      if (lo(later.start) < lo(earlier.start)) return { key, side: 'start', message: M.phaseOutOfOrder };
      if (hi(later.end) < hi(earlier.end)) return { key, side: 'end', message: M.phaseOutOfOrder };
    }
  }
  return null;
}

const phasesSchema = z
  .object(Object.fromEntries(PHASE_KEYS.map((k) => [k, phaseWindowSchema])) as Record<PhaseKey, typeof phaseWindowSchema>, { error: M.phaseInvalid })
  .superRefine((phases, ctx) => {
    const problem = phaseOrderProblem(phases);
    if (problem) ctx.addIssue({ code: 'custom', message: problem.message, path: [problem.key, problem.side] });
  });

const switchSchema = z.boolean({ error: M.switchInvalid });
const intIn = (min: number, max: number, message: string) => z.number({ error: message }).int(message).min(min, message).max(max, message);

const fileBytes = intIn(SETTINGS_FILE_MIN_BYTES, SETTINGS_FILE_MAX_BYTES, M.fileMaxBytesInvalid);
const maxCharsSchema = z.preprocess(
  (v) => (v === undefined || v === '' ? null : v),
  intIn(1, SETTINGS_MAX_APPLICATION_CHARS, M.maxCharsInvalid).nullable(),
);
const aggregateSchema = z.enum(SCORE_AGGREGATES, { error: M.aggregateInvalid });
const minScoresSchema = intIn(3, 20, M.minScoresInvalid);
const tieBreakSchema = z
  .array(z.enum(TIE_BREAKS, { error: M.tieBreakInvalid }), { error: M.tieBreakInvalid })
  .max(TIE_BREAKS.length, M.tieBreakDuplicate)
  .refine((list) => new Set(list).size === list.length, M.tieBreakDuplicate);
export const scoringRuleSchema = z.object({ aggregate: aggregateSchema, minScoresForTrim: minScoresSchema, tieBreak: tieBreakSchema }, { error: M.settingsInvalid });
const divergenceSchema = z.number({ error: M.divergenceInvalid }).min(0, M.divergenceInvalid).max(100, M.divergenceInvalid);
const minExpertsSchema = intIn(1, 50, M.minExpertsInvalid);
const projectCapSchema = intIn(1, 10_000, M.maxProjectsPerExpertInvalid).nullable();
const projectCapsSchema = z.object({ PRELIMINARY: projectCapSchema, FINAL: projectCapSchema }, { error: M.maxProjectsPerExpertInvalid });
const expertDownloadSchema = z.enum(EXPERT_DOWNLOAD_MODES, { error: M.expertDownloadInvalid });
const publicityDaysSchema = intIn(1, 30, M.publicityDaysInvalid);
const appealDaysSchema = intIn(1, 30, M.appealDaysInvalid);
const loginPerIpSchema = intIn(LOGIN_PER_IP_MIN, LOGIN_PER_IP_MAX, M.loginPerIpInvalid);
const retentionDaySchema = intIn(0, RETENTION_DAYS_MAX, M.retentionDaysInvalid);
const logDaySchema = intIn(0, RETENTION_DAYS_MAX, M.retentionDaysInvalid).min(RETENTION_LOG_DAYS_MIN, M.retentionLogDaysTooShort);
const retentionDaysSchema = z.object(
  Object.fromEntries(RETENTION_KINDS.map((k) => [k, k === 'LOGIN_RECORDS' || k === 'OPERATION_RECORDS' ? logDaySchema : retentionDaySchema])) as Record<RetentionKind, typeof retentionDaySchema>,
  { error: M.retentionDaysInvalid },
);
const group = <T extends z.core.$ZodLooseShape>(shape: T) => z.object(shape, { error: M.settingsInvalid });

export const contestSettingsSchema = z
  .object(
    {
      name: z.string({ error: M.nameRequired }).trim().min(1, M.nameRequired).max(50, M.nameTooLong),
      nameEn: z.string({ error: M.nameEnRequired }).trim().min(1, M.nameEnRequired).max(100, M.nameEnTooLong),
      phases: phasesSchema,
      notify: group({ sms: switchSchema, email: switchSchema }),
      prelim: group({
        maxApplicationChars: maxCharsSchema,
        fileMaxBytes: group({ application: fileBytes, presentation: fileBytes, video: fileBytes, other: fileBytes }),
      }),
      dataDocMenuName: z.string({ error: M.dataDocMenuNameRequired }).trim().min(1, M.dataDocMenuNameRequired).max(20, M.dataDocMenuNameTooLong),
      review: group({
        blind: switchSchema,
        expertDownload: expertDownloadSchema,
        rules: group({ PRELIMINARY: scoringRuleSchema, FINAL: scoringRuleSchema }),
        divergenceThreshold: divergenceSchema,
        minExpertsPerProject: minExpertsSchema,
        maxProjectsPerExpert: projectCapsSchema.optional(),
      }),
      publicity: group({ days: publicityDaysSchema }),
      appeal: group({ windowDays: appealDaysSchema }),
      security: group({ loginPerIpPerMinute: loginPerIpSchema }),
      retention: group({ days: retentionDaysSchema }).optional(),
    },
    { error: M.settingsInvalid },
  )
  .superRefine((s, ctx) => {
    if (s.appeal.windowDays > s.publicity.days) ctx.addIssue({ code: 'custom', message: M.appealExceedsPublicity, path: ['appeal', 'windowDays'] });
  });
export type ContestSettingsInput = z.input<typeof contestSettingsSchema>;

// The schema's output is exactly ContestSettings, both ways.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _sameShape: Same<z.output<typeof contestSettingsSchema>, ContestSettings> = true;
void _sameShape;

// ---------------------------------------------------------------------------------------------
// Reading what is stored: never throws. A missing or malformed value falls back to its default,
// the same way the contest module reads its keys (a bad phase is unscheduled, i.e. closed).

const pick = <T>(schema: z.ZodType<T>, value: unknown, fallback: T): T => {
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : fallback;
};
const isPositiveInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0;
const nonBlank = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';
const objectOr = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

function readRule(value: unknown, fallback: ScoringRule): ScoringRule {
  const raw = objectOr(value);
  return {
    aggregate: pick(aggregateSchema, raw.aggregate, fallback.aggregate),
    minScoresForTrim: pick(minScoresSchema, raw.minScoresForTrim, fallback.minScoresForTrim),
    tieBreak: pick(tieBreakSchema, raw.tieBreak, [...fallback.tieBreak]),
  };
}

/** Each round's cap read on its own: a malformed one is no cap. */
function readProjectCaps(value: unknown): Record<ReviewRound, number | null> {
  const raw = objectOr(value);
  return { PRELIMINARY: pick(projectCapSchema, raw.PRELIMINARY, null), FINAL: pick(projectCapSchema, raw.FINAL, null) };
}

/** Each kind's period read on its own: a malformed one takes its default. */
function readRetentionDays(value: unknown): Record<RetentionKind, number> {
  const raw = objectOr(value);
  return Object.fromEntries(
    RETENTION_KINDS.map((k) => [k, pick(k === 'LOGIN_RECORDS' || k === 'OPERATION_RECORDS' ? logDaySchema : retentionDaySchema, raw[k], RETENTION_DAYS_DEFAULT[k])]),
  ) as Record<RetentionKind, number>;
}

/** The per-address login ceiling from its stored value (the login routes read only this key). */
export function loginPerIpPerMinuteOf(stored: unknown): number {
  return pick(loginPerIpSchema, stored, SETTINGS_DEFAULTS.security.loginPerIpPerMinute);
}

/** The settings from the stored rows (key -> value); absent or malformed values take their defaults. */
export function readSettings(stored: Record<string, unknown>): ContestSettings {
  const d = SETTINGS_DEFAULTS;
  const name = stored[SETTINGS_KEYS.name];
  const nameEn = stored[SETTINGS_KEYS.nameEn];
  const dataDoc = stored[SETTINGS_KEYS.dataDocMenuName];
  const maxChars = stored[SETTINGS_KEYS.maxApplicationChars];
  const sizes = objectOr(stored[SETTINGS_KEYS.prelimFileMaxBytes]);
  const rules = objectOr(stored[SETTINGS_KEYS.reviewRules]);
  const publicityDays = pick(publicityDaysSchema, stored[SETTINGS_KEYS.publicityDays], d.publicity.days);
  return {
    name: nonBlank(name) ? name : d.name,
    nameEn: nonBlank(nameEn) ? nameEn : d.nameEn,
    phases: normalisePhases(stored[SETTINGS_KEYS.phases]),
    notify: {
      sms: pick(switchSchema, stored[SETTINGS_KEYS.notifySms], d.notify.sms),
      email: pick(switchSchema, stored[SETTINGS_KEYS.notifyEmail], d.notify.email),
    },
    prelim: {
      maxApplicationChars: isPositiveInt(maxChars) ? maxChars : null,
      fileMaxBytes: Object.fromEntries(
        (Object.keys(d.prelim.fileMaxBytes) as PrelimFileKind[]).map((kind) => [kind, isPositiveInt(sizes[kind]) ? sizes[kind] : d.prelim.fileMaxBytes[kind]]),
      ) as Record<PrelimFileKind, number>,
    },
    dataDocMenuName: nonBlank(dataDoc) ? dataDoc : d.dataDocMenuName,
    review: {
      blind: pick(switchSchema, stored[SETTINGS_KEYS.reviewBlind], d.review.blind),
      expertDownload: pick(expertDownloadSchema, stored[SETTINGS_KEYS.expertDownload], d.review.expertDownload),
      rules: { PRELIMINARY: readRule(rules.PRELIMINARY, d.review.rules.PRELIMINARY), FINAL: readRule(rules.FINAL, d.review.rules.FINAL) },
      divergenceThreshold: pick(divergenceSchema, stored[SETTINGS_KEYS.divergenceThreshold], d.review.divergenceThreshold),
      minExpertsPerProject: pick(minExpertsSchema, stored[SETTINGS_KEYS.minExpertsPerProject], d.review.minExpertsPerProject),
      maxProjectsPerExpert: readProjectCaps(stored[SETTINGS_KEYS.maxProjectsPerExpert]),
    },
    publicity: { days: publicityDays },
    // Never longer than the 公示 period, whatever is stored.
    appeal: { windowDays: Math.min(pick(appealDaysSchema, stored[SETTINGS_KEYS.appealWindowDays], Math.min(d.appeal.windowDays, publicityDays)), publicityDays) },
    security: { loginPerIpPerMinute: loginPerIpPerMinuteOf(stored[SETTINGS_KEYS.loginPerIpPerMinute]) },
    retention: { days: readRetentionDays(stored[SETTINGS_KEYS.retentionDays]) },
  };
}
