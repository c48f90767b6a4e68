/**
 * 评分存证 (docs/rules/results.md, "Score log"): the tamper-evident score log. Every score submission,
 * return, re-review, promotion, publication and appeal decision is appended in order; each entry
 * carries the SHA-256 of the one before it. Calls (docs: "Score log"):
 *
 *   GET /admin/score-log          list (menu scoreLog)
 *   GET /admin/score-log/verify   recompute the whole chain (menu scoreLog)
 *   GET /admin/score-log/export   ?format=xlsx|jsonl, every field with the hashes (button score-log:export)
 *
 * The canonical form an entry's hash is computed over is in `scoreLogCanonical` below and in
 * the docs, so an inspector can recompute it with any tool.
 */
import { z } from 'zod';
import { dateTimeQuery, keywordQuery, optionalQuery, pageQueryFields, rangeIsOrdered, type IsoDateTime } from '../admin/common.js';
import { sortQueryFields } from '../admin/list-query.js';
import { ADMIN_MSG } from '../admin/messages.js';
import { REVIEW_ROUNDS, type ReviewRound } from '../admin/settings.js';
import type { ScoreLogAnchorView } from './score-receipt.js';

export { SCORE_LOG_MSG } from './score-log-messages.js';
import { SCORE_LOG_MSG } from './score-log-messages.js';

/** What an entry records. PUBLICATION and APPEAL_DECIDED come from the results module. */
export const SCORE_LOG_KINDS = ['SCORE_SUBMITTED', 'SCORE_RETURNED', 'SCORE_ABSTAINED', 'REREVIEW', 'PROMOTION', 'PUBLICATION', 'APPEAL_DECIDED', 'CERTIFICATES_ISSUED'] as const;
export type ScoreLogKind = (typeof SCORE_LOG_KINDS)[number];

export const SCORE_LOG_KIND_NAMES: Record<ScoreLogKind, string> = {
  SCORE_SUBMITTED: '提交评分',
  SCORE_RETURNED: '退回评分',
  SCORE_ABSTAINED: '专家回避',
  REREVIEW: '发起复评',
  PROMOTION: '晋级决赛',
  PUBLICATION: '结果发布',
  APPEAL_DECIDED: '申诉处理',
  // A run of certificate issuing that issued, superseded or revoked documents (docs/certificates.md).
  CERTIFICATES_ISSUED: '证书颁发',
};

/** Why verification stopped trusting the chain at an entry. */
export const SCORE_LOG_BREAKS = ['HASH_MISMATCH', 'PREV_MISMATCH', 'GAP'] as const;
export type ScoreLogBreak = (typeof SCORE_LOG_BREAKS)[number];

export const SCORE_LOG_BREAK_NAMES: Record<ScoreLogBreak, string> = {
  HASH_MISMATCH: '记录内容与其哈希不符（记录被修改）',
  PREV_MISMATCH: '前序哈希与上一条记录不符（链接被改动或上一条被改写）',
  GAP: '序号不连续（记录被删除）',
};

/** prevHash of the first entry. */
export const SCORE_LOG_GENESIS = '0'.repeat(64);

const M = SCORE_LOG_MSG;

const filterFields = {
  kind: optionalQuery(z.enum(SCORE_LOG_KINDS, { error: M.kindInvalid })),
  round: optionalQuery(z.enum(REVIEW_ROUNDS, { error: M.roundInvalid })),
  /** One entry by its position (the verify page links to the first broken one). */
  seq: optionalQuery(z.coerce.number({ error: M.seqInvalid }).int(M.seqInvalid).min(1, M.seqInvalid).max(Number.MAX_SAFE_INTEGER, M.seqInvalid)),
  /** The subject's id, exact: a project (prelim_docs.id), a promotion, a result version, an appeal. */
  subjectId: optionalQuery(z.string().max(100, M.subjectIdTooLong)),
  /** Contains, in the subject id, the actor's name or the payload's text. */
  keyword: keywordQuery,
  /** Time range, Beijing time: YYYY-MM-DD HH:mm:ss or YYYY-MM-DD (a bare `to` covers that day). */
  from: dateTimeQuery,
  to: dateTimeQuery,
};

/** GET /admin/score-log: newest first unless `sort=seq&order=asc`. */
export const scoreLogQuerySchema = z
  .object({ ...pageQueryFields, ...sortQueryFields(['seq']), ...filterFields })
  .refine(rangeIsOrdered, { message: ADMIN_MSG.dateRangeInvalid, path: ['from'] });
export type ScoreLogQuery = z.infer<typeof scoreLogQuerySchema>;

export const SCORE_LOG_EXPORT_FORMATS = ['xlsx', 'jsonl'] as const;
export type ScoreLogExportFormat = (typeof SCORE_LOG_EXPORT_FORMATS)[number];

/** GET /admin/score-log/export: the same filters, in chain order (seq ascending). */
export const scoreLogExportQuerySchema = z
  .object({ ...filterFields, format: optionalQuery(z.enum(SCORE_LOG_EXPORT_FORMATS, { error: M.formatInvalid })) })
  .refine(rangeIsOrdered, { message: ADMIN_MSG.dateRangeInvalid, path: ['from'] });
export type ScoreLogExportQuery = z.infer<typeof scoreLogExportQuerySchema>;

/** One entry, every stored field (the payload exactly as hashed). */
export interface ScoreLogEntryView {
  /** Canonical form version (1: actorName hashed; 2: not). */
  v: number;
  seq: number;
  kind: string;
  round: ReviewRound | null;
  subjectType: string;
  subjectId: string;
  actorId: string | null;
  actorName: string;
  payload: Record<string, unknown>;
  at: IsoDateTime;
  prevHash: string;
  hash: string;
}

export interface ScoreLogBrokenEntry {
  /** The first entry that cannot be trusted (for a GAP: the missing seq). */
  seq: number;
  reason: ScoreLogBreak;
  /** HASH_MISMATCH: the recomputed hash; PREV_MISMATCH: the previous entry's hash; GAP: the seq expected. */
  expected: string;
  /** HASH_MISMATCH: the stored hash; PREV_MISMATCH: the entry's prevHash; GAP: the seq found. */
  found: string;
}

/**
 * Why the live data disagrees with the log (docs/security.md), first difference only:
 * - SHEET_NOT_LOGGED: a submitted sheet (it counts in the ranking) has no SCORE_SUBMITTED entry.
 * - SHEET_STATE_DIFFERS: the sheet's state is not the one its last entry says (submitted in the
 *   log, draft/returned now; or returned in the log and submitted now).
 * - SHEET_FIELD_DIFFERS: a submitted sheet's project, expert, round, a criterion's points, the
 *   total or the comment differ from its last SCORE_SUBMITTED entry (`field` says which).
 * - SHEET_MISSING: the log's last word on a sheet is SCORE_SUBMITTED and the sheet is gone.
 */
export const SCORE_LOG_DIFFERENCES = ['SHEET_NOT_LOGGED', 'SHEET_STATE_DIFFERS', 'SHEET_FIELD_DIFFERS', 'SHEET_MISSING'] as const;
export type ScoreLogDifferenceReason = (typeof SCORE_LOG_DIFFERENCES)[number];

export const SCORE_LOG_DIFFERENCE_NAMES: Record<ScoreLogDifferenceReason, string> = {
  SHEET_NOT_LOGGED: '已提交的评分表没有存证记录',
  SHEET_STATE_DIFFERS: '评分表状态与存证记录不符',
  SHEET_FIELD_DIFFERS: '评分表内容与存证记录不符',
  SHEET_MISSING: '存证记录中的已提交评分表已不存在',
};

export interface ScoreLogDifference {
  reason: ScoreLogDifferenceReason;
  sheetId: string;
  round: ReviewRound | null;
  projectId: string;
  /** The project's name now (from the materials), '' when unknown. */
  projectName: string;
  expertId: string;
  /** The expert's code (E0001), '' when unknown. No names: the answer goes into notices too. */
  expertCode: string;
  /** `status`, `project`, `expert`, `round`, `scores.<criterion>`, `total`, `comment`, or `entry` (no entry). */
  field: string;
  /** What the log says and what the sheet holds, as text. */
  expected: string;
  found: string;
  /** The log entry compared with (null for SHEET_NOT_LOGGED). */
  seq: number | null;
}

/**
 * A published head (score_log_anchors) the log no longer matches: ANCHOR_ENTRY_MISSING the entry
 * at its seq is gone; ANCHOR_HEAD_MISMATCH that entry's hash is not the one published;
 * ANCHOR_ROOT_MISMATCH the Merkle root over entries 1..seq is not the one published.
 */
export const SCORE_LOG_ANCHOR_BREAKS = ['ANCHOR_ENTRY_MISSING', 'ANCHOR_HEAD_MISMATCH', 'ANCHOR_ROOT_MISMATCH'] as const;
export type ScoreLogAnchorBreak = (typeof SCORE_LOG_ANCHOR_BREAKS)[number];

export const SCORE_LOG_ANCHOR_BREAK_NAMES: Record<ScoreLogAnchorBreak, string> = {
  ANCHOR_ENTRY_MISSING: '已公示的链头记录不存在（记录被删除）',
  ANCHOR_HEAD_MISMATCH: '链头哈希与公示时不符（公示后记录被改写）',
  ANCHOR_ROOT_MISMATCH: '默克尔根与公示时不符（公示后记录被改写）',
};

export interface ScoreLogAnchorMismatch {
  reason: ScoreLogAnchorBreak;
  anchorId: string;
  round: ReviewRound;
  version: number;
  seq: number;
  /** The published value and the one recomputed from the log now. */
  expected: string;
  found: string;
}

/** verifyScoreLog's answer; the call adds how long it took. */
export interface ScoreLogVerifyResult {
  /** The chain, the published heads and the live sheets all agree. */
  ok: boolean;
  /** Entries read. */
  count: number;
  /** The last entry's seq and stored hash (0 and the genesis hash when the log is empty). */
  lastSeq: number;
  lastHash: string;
  firstBroken?: ScoreLogBrokenEntry;
  /** Published heads checked, and the first one the log no longer matches. */
  anchors: { count: number; firstMismatch?: ScoreLogAnchorMismatch };
  /** Score sheets compared with their last entries, and the first difference. */
  live: { sheets: number; firstDifference?: ScoreLogDifference };
}

/** GET /admin/score-log/verify */
export interface ScoreLogVerifyAnswer extends ScoreLogVerifyResult {
  tookMs: number;
  checkedAt: IsoDateTime;
}

/** GET /admin/score-log/anchors: every published head, newest first. */
export interface ScoreLogAnchorList {
  list: ScoreLogAnchorView[];
}

/**
 * Canonical form versions: 1 hashed `actorName` (a person's name for experts and staff); 2, the
 * form written since the trust work, hashes `v` and leaves `actorName` out, so anonymising people
 * later leaves the entry verifiable (docs/api-results.md "The canonical form").
 */
export const SCORE_LOG_FORMAT_VERSION = 2;

/** The fields an entry's hash covers, in the types they are hashed with. */
export interface ScoreLogHashed {
  /** Canonical form version (1 when absent). */
  v?: number;
  seq: number;
  kind: string;
  round: string | null;
  subjectType: string;
  subjectId: string;
  actorId: string | null;
  actorName: string;
  payload: unknown;
  /** ISO 8601 in UTC with milliseconds: `2025-09-01T08:00:00.000Z` (Date.prototype.toISOString). */
  at: string;
  prevHash: string;
}

/**
 * JSON Canonicalization Scheme (RFC 8785) for the JSON values a log holds: object keys sorted by
 * UTF-16 code units, no whitespace, strings and numbers exactly as JSON.stringify writes them
 * (shortest round-trip form of a double: 1.5, 78, 1e+21), `undefined` members dropped.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) throw new Error('score log: a number must be finite');
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint') {
      throw new Error(`score log: ${typeof value} is not JSON`);
    }
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v === undefined ? null : v)).join(',')}]`;
  const keys = Object.keys(value)
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
}

/** The object an entry's hash covers: v1 with `actorName`, v2 with `v` and without it. */
export function scoreLogHashedObject(entry: ScoreLogHashed): Record<string, unknown> {
  const { seq, kind, round, subjectType, subjectId, actorId, actorName, payload, at, prevHash } = entry;
  const v = entry.v ?? 1;
  if (v === 1) return { seq, kind, round, subjectType, subjectId, actorId, actorName, payload, at, prevHash };
  if (v === 2) return { v, seq, kind, round, subjectType, subjectId, actorId, payload, at, prevHash };
  throw new Error(`score log: unknown canonical form version ${v}`);
}

/** The exact text an entry's SHA-256 is computed over (UTF-8 bytes of it). */
export function scoreLogCanonical(entry: ScoreLogHashed): string {
  return canonicalJson(scoreLogHashedObject(entry));
}
