import { z } from 'zod';
import type { ButtonCode, MenuCode } from '../admin-menus.js';
import { keywordQuery, monthQuery, optionalQuery, pageQueryFields, uuidSchema, type IsoDateTime } from '../admin/common.js';
import { TEAM_STATUS_LABELS } from '../admin/users.js';
import { PRELIM_DOC_STATUS_LABELS } from '../contest/status.js';
import { PRELIM_DOC_STATUSES, TEAM_STATUSES, type PrelimDocStatus, type TeamStatus } from '../enums.js';
import { BROADCAST_MSG as M } from './broadcast-messages.js';

export { BROADCAST_MSG } from './broadcast-messages.js';

/**
 * Bulk sends (docs/rules/content.md; 站内信管理 /admin/information/InMailManage, 短信管理
 * /admin/information/NoteManage): a text to a segment of participants over one channel, run as
 * a background job. Calls in docs/api-content.md ("Bulk sends").
 */
export const BROADCAST_CHANNELS = ['INSITE', 'SMS', 'EMAIL'] as const;
export type BroadcastChannel = (typeof BROADCAST_CHANNELS)[number];

/** The path segment of each channel's write calls (/api/admin/broadcast/{insite|sms|email}/...). */
export const BROADCAST_CHANNEL_PATHS = { INSITE: 'insite', SMS: 'sms', EMAIL: 'email' } as const satisfies Record<BroadcastChannel, string>;

/** Who may send over a channel (no button exists for email: it is a message like the in-site one). */
export const BROADCAST_SEND_BUTTON = { INSITE: 'message:send', SMS: 'sms:send', EMAIL: 'message:send' } as const satisfies Record<BroadcastChannel, ButtonCode>;
/** The console page (menu) whose readers see a channel's batches. */
export const BROADCAST_MENU = { INSITE: 'InMailManage', SMS: 'NoteManage', EMAIL: 'InMailManage' } as const satisfies Record<BroadcastChannel, MenuCode>;

// ---- Segments ---------------------------------------------------------------------------------

/**
 * Who receives a bulk send. Recipients are enabled participant accounts (realm USER):
 * - ALL: every one;
 * - TEAM_STATUS: owners of teams in one of the sign-up statuses;
 * - PRELIM_STATUS: owners of teams whose materials are in one of the statuses, NOT_FILLED
 *   being an approved team that has saved no materials;
 * - TRACK: owners of teams of one of the tracks (TRACK dictionary codes, the sign-up's track);
 * - ACCOUNTS: the chosen accounts (at most 1000; ids that are not participants are left out);
 * - FINALIST: owners of teams whose project is in the final round (入围决赛: a final entry IN);
 * - RESULT: owners of teams whose line in a round's current published result has one of the
 *   outcomes (`PRELIMINARY:PROMOTED` 初赛晋级, `FINAL:AWARDED` 决赛获奖, ...; RESULT_SEGMENT_VALUES).
 */
export const SEGMENT_KINDS = ['ALL', 'TEAM_STATUS', 'PRELIM_STATUS', 'TRACK', 'FINALIST', 'RESULT', 'ACCOUNTS'] as const;
export type SegmentKind = (typeof SEGMENT_KINDS)[number];
export const SEGMENT_ACCOUNTS_MAX = 1000;
export const SEGMENT_TRACKS_MAX = 50;

/** Round and outcome of a published result line (RESULT segments): the outcomes each round gives. */
export const RESULT_SEGMENT_VALUES = ['PRELIMINARY:PROMOTED', 'PRELIMINARY:NOT_PROMOTED', 'FINAL:AWARDED', 'FINAL:NONE'] as const;
export type ResultSegmentValue = (typeof RESULT_SEGMENT_VALUES)[number];
const RESULT_SEGMENT_NAMES: Record<ResultSegmentValue, string> = {
  'PRELIMINARY:PROMOTED': '初赛晋级',
  'PRELIMINARY:NOT_PROMOTED': '初赛未晋级',
  'FINAL:AWARDED': '决赛获奖',
  'FINAL:NONE': '决赛未获奖',
};

export type Segment =
  | { kind: 'ALL'; values: [] }
  | { kind: 'TEAM_STATUS'; values: TeamStatus[] }
  | { kind: 'PRELIM_STATUS'; values: PrelimDocStatus[] }
  | { kind: 'TRACK'; values: string[] }
  | { kind: 'FINALIST'; values: [] }
  | { kind: 'RESULT'; values: ResultSegmentValue[] }
  | { kind: 'ACCOUNTS'; values: string[] };

/** Kinds that name no values (everyone of the kind). */
const WITHOUT_VALUES: readonly SegmentKind[] = ['ALL', 'FINALIST'];

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const segmentSchema = z
  .object(
    {
      kind: z.enum(SEGMENT_KINDS, { error: M.segmentKindInvalid }),
      values: z
        .array(z.string({ error: M.segmentValuesRequired }).trim().max(64, M.segmentValuesRequired), { error: M.segmentValuesRequired })
        .max(SEGMENT_ACCOUNTS_MAX, M.segmentAccountsTooMany)
        .default([]),
    },
    { error: M.segmentRequired },
  )
  .superRefine((s, ctx) => {
    const fail = (message: string) => ctx.addIssue({ code: 'custom', message, path: ['values'] });
    if (WITHOUT_VALUES.includes(s.kind)) return;
    if (s.values.length === 0) return fail(M.segmentValuesRequired);
    if (s.kind === 'TEAM_STATUS' && !s.values.every((v) => (TEAM_STATUSES as readonly string[]).includes(v))) return fail(M.segmentStatusInvalid);
    if (s.kind === 'PRELIM_STATUS' && !s.values.every((v) => (PRELIM_DOC_STATUSES as readonly string[]).includes(v))) return fail(M.segmentStatusInvalid);
    if (s.kind === 'TRACK' && (s.values.length > SEGMENT_TRACKS_MAX || s.values.some((v) => v === ''))) return fail(M.segmentTrackInvalid);
    if (s.kind === 'ACCOUNTS' && !s.values.every((v) => UUID_RE.test(v))) return fail(M.segmentAccountInvalid);
    if (s.kind === 'RESULT' && !s.values.every((v) => (RESULT_SEGMENT_VALUES as readonly string[]).includes(v))) return fail(M.segmentResultInvalid);
  })
  // Stored and compared in one shape: no duplicates, sorted, ids in lower case, nothing for ALL.
  .transform((s) => {
    if (WITHOUT_VALUES.includes(s.kind)) return { kind: s.kind, values: [] } as Segment;
    const values = [...new Set(s.kind === 'ACCOUNTS' ? s.values.map((v) => v.toLowerCase()) : s.values)].sort();
    return { kind: s.kind, values } as Segment;
  });

/**
 * The segment in words, as the batches list shows it (Chinese; the console renders its own
 * translation from the segment). `trackNames` maps TRACK codes to their dictionary names.
 */
export function describeSegment(segment: Segment, trackNames: Readonly<Record<string, string>> = {}): string {
  switch (segment.kind) {
    case 'ALL':
      return '全部参赛用户';
    case 'TEAM_STATUS':
      return `报名状态：${segment.values.map((v) => TEAM_STATUS_LABELS[v] ?? v).join('、')}`;
    case 'PRELIM_STATUS':
      return `初赛材料状态：${segment.values.map((v) => PRELIM_DOC_STATUS_LABELS[v] ?? v).join('、')}`;
    case 'TRACK':
      return `参赛方向：${segment.values.map((v) => trackNames[v] ?? v).join('、')}`;
    case 'FINALIST':
      return '入围决赛的参赛用户';
    case 'RESULT':
      return `评审结果：${segment.values.map((v) => RESULT_SEGMENT_NAMES[v] ?? v).join('、')}`;
    case 'ACCOUNTS':
      return `指定用户（${segment.values.length} 人）`;
  }
}

// ---- Texts and variables ----------------------------------------------------------------------

export const BROADCAST_TITLE_MAX = 100;
export const BROADCAST_BODY_MAX = 5000;
export const BROADCAST_SMS_MAX = 500;

/**
 * Variables a bulk text may use, filled per recipient: the account's name (else its username),
 * its team's name and organisation, its project's name (empty when it has none).
 */
export const BROADCAST_VARIABLES = ['name', 'teamName', 'orgName', 'projectName'] as const;
export type BroadcastVariable = (typeof BROADCAST_VARIABLES)[number];
export type BroadcastVariables = Record<BroadcastVariable, string>;

const VARIABLE_RE = /\{([A-Za-z][A-Za-z0-9_]*)\}/g;

/** Variable names of `text` that bulk sends do not offer (each once, in order). */
export function unknownVariables(text: string): string[] {
  const out: string[] = [];
  for (const [, name] of text.matchAll(VARIABLE_RE)) {
    if (!(BROADCAST_VARIABLES as readonly string[]).includes(name!) && !out.includes(name!)) out.push(name!);
  }
  return out;
}

/** Variables of `text` in order of first use (the params of a gateway template). */
export function usedVariables(text: string): BroadcastVariable[] {
  const out: BroadcastVariable[] = [];
  for (const [, name] of text.matchAll(VARIABLE_RE)) {
    if ((BROADCAST_VARIABLES as readonly string[]).includes(name!) && !out.includes(name as BroadcastVariable)) out.push(name as BroadcastVariable);
  }
  return out;
}

/** Fills `{name}`-style variables; anything else in braces stays as written. */
export function renderBroadcast(text: string, vars: Partial<BroadcastVariables>): string {
  return text.replace(VARIABLE_RE, (whole, name: string) => ((BROADCAST_VARIABLES as readonly string[]).includes(name) ? (vars[name as BroadcastVariable] ?? '') : whole));
}

/** A single SMS holds 70 characters; a longer one is billed per 67 (each part carries a header). */
export const SMS_SEGMENT_CHARS = 70;
export const SMS_LONG_SEGMENT_CHARS = 67;

/** How many SMS a text is billed as (characters counted as the user sees them, emoji as one). */
export function smsSegments(text: string): number {
  const n = [...text].length;
  if (n === 0) return 0;
  return n <= SMS_SEGMENT_CHARS ? 1 : Math.ceil(n / SMS_LONG_SEGMENT_CHARS);
}

// Recipients are masked with maskPhone / maskEmail of ../pii.ts (one rule for the whole console).

// ---- Calls ------------------------------------------------------------------------------------

const optionalText = (max: number, tooLong: string) =>
  z
    .string({ error: tooLong })
    .trim()
    .max(max, tooLong)
    .nullish()
    .transform((v) => v ?? '');

/**
 * POST /admin/broadcast/{channel}/preview and .../send. Texts left blank come from the template
 * (`templateId`, a template of code null offering the channel); what is needed then: a title and
 * a body for in-site messages and email, an SMS text for SMS.
 */
export const broadcastDraftSchema = z.object(
  {
    segment: segmentSchema,
    title: optionalText(BROADCAST_TITLE_MAX, M.titleTooLong),
    body: optionalText(BROADCAST_BODY_MAX, M.bodyTooLong),
    smsText: optionalText(BROADCAST_SMS_MAX, M.smsTextTooLong),
    templateId: z.preprocess((v) => (v === '' ? null : v), uuidSchema.nullish()).transform((v) => v ?? null),
  },
  { error: M.segmentRequired },
);
export type BroadcastDraft = z.input<typeof broadcastDraftSchema>;
export type BroadcastDraftParsed = z.infer<typeof broadcastDraftSchema>;

export interface BroadcastSample {
  accountId: string;
  name: string;
  username: string;
  /** Masked phone (SMS) or address (email); null for in-site messages. */
  to: string | null;
  title: string;
  body: string;
  smsText: string;
}

/** Answer of .../preview: who would receive it and how the first messages read. */
export interface BroadcastPreview {
  channel: BroadcastChannel;
  /** Participants in the segment. */
  total: number;
  /** Those the channel reaches: all for in-site, those with a phone (SMS) or an address (email). */
  deliverable: number;
  withPhone?: number;
  withEmail?: number;
  /** SMS only: billed parts per message (of the text before variables are filled). */
  smsSegments?: number;
  /** The first three recipients' messages, rendered. */
  samples: BroadcastSample[];
}

/** Answer of .../send. */
export interface BroadcastSent {
  batchId: string;
  jobId: string;
  total: number;
}

export const BROADCAST_STATUSES = ['QUEUED', 'RUNNING', 'DONE', 'FAILED', 'RECALLED'] as const;
export type BroadcastStatus = (typeof BROADCAST_STATUSES)[number];

/** GET /admin/broadcast?channel=… */
export const broadcastListQuerySchema = z.object({
  ...pageQueryFields,
  channel: z.enum(BROADCAST_CHANNELS, { error: M.channelInvalid }),
  status: optionalQuery(z.enum(BROADCAST_STATUSES, { error: M.statusInvalid })),
  /** Title or text contains. */
  keyword: keywordQuery,
  /** Sent (created) in this Beijing month, `YYYY-MM`: a channel's sends of one billing month. */
  month: monthQuery,
});
export type BroadcastListQuery = z.infer<typeof broadcastListQuerySchema>;

export interface BroadcastBatch {
  id: string;
  channel: BroadcastChannel;
  title: string;
  /** Plain text; the SMS text for SMS. */
  body: string;
  templateId: string | null;
  segment: Segment;
  /** The segment in words (Chinese). */
  segmentText: string;
  /** Recipients the channel reaches (set when the job starts). */
  total: number;
  /** In-site: inboxes holding it; SMS/email: records SENT. */
  delivered: number;
  /** In-site only: recipients who opened it. */
  read: number | null;
  /** SMS/email only: records FAILED (after retries, or over the daily cap). */
  failed: number | null;
  /** SMS/email only: records still waiting for the dispatcher (QUEUED or SENDING). */
  pending: number | null;
  status: BroadcastStatus;
  /** The job's progress (recipients handled of its total). */
  progress: { done: number; total: number };
  sender: { id: string; name: string } | null;
  createdAt: IsoDateTime;
  finishedAt: IsoDateTime | null;
  recalledAt: IsoDateTime | null;
}

export const BROADCAST_RECORD_STATUSES = ['QUEUED', 'SENDING', 'SENT', 'FAILED', 'READ', 'UNREAD'] as const;
export type BroadcastRecordStatus = (typeof BROADCAST_RECORD_STATUSES)[number];

/** GET /admin/broadcast/{id}: the batch and one page of its per-recipient records. */
export const broadcastRecordsQuerySchema = z.object({
  ...pageQueryFields,
  status: optionalQuery(z.enum(BROADCAST_RECORD_STATUSES, { error: M.statusInvalid })),
});
export type BroadcastRecordsQuery = z.infer<typeof broadcastRecordsQuerySchema>;

export interface BroadcastRecord {
  accountId: string | null;
  name: string;
  username: string;
  /** Masked phone (SMS) or address (email); null for in-site. */
  to: string | null;
  /** SMS/email: the outbox status; in-site: READ or UNREAD. */
  status: BroadcastRecordStatus;
  /** What the gateway answered, or why it was not sent. */
  providerAnswer: string | null;
  attempts: number;
  sentAt: IsoDateTime | null;
  readAt: IsoDateTime | null;
}

export interface BroadcastDetail {
  batch: BroadcastBatch;
  records: { list: BroadcastRecord[]; page: number; size: number; total: number };
}

/** GET /admin/broadcast/accounts: participants to pick for an ACCOUNTS segment (enabled ones). */
export const broadcastAccountsQuerySchema = z.object({
  ...pageQueryFields,
  /** Username, name or phone contains. */
  keyword: keywordQuery,
});
export type BroadcastAccountsQuery = z.infer<typeof broadcastAccountsQuerySchema>;

export interface BroadcastAccount {
  id: string;
  username: string;
  name: string | null;
  /** Masked. */
  phone: string | null;
  teamName: string | null;
}
