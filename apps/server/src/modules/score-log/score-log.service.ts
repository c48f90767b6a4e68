import { Readable } from 'node:stream';
import {
  ROUND_NAMES,
  SCORE_LOG_ANCHOR_BREAK_NAMES,
  SCORE_LOG_BREAK_NAMES,
  SCORE_LOG_DIFFERENCE_NAMES,
  SCORE_LOG_KIND_NAMES,
  canonicalJson,
  scoreLogHashedObject,
  type ScoreLogAnchorList,
  type ScoreLogVerifyResult,
  type Page,
  type ScoreLogEntryView,
  type ScoreLogExportQuery,
  type ScoreLogKind,
  type ScoreLogQuery,
  type ScoreLogVerifyAnswer,
} from '@contest/shared';
import type { Db } from '../../db/client.js';
import { XLSX_CONTENT_TYPE, beijingDate, beijingTime, writeXlsx, type XlsxColumn } from '../../lib/xlsx-stream.js';
import { describeFilter } from '../admin/admin-util.js';
import { recordOperation, type OperationActor } from '../audit/operation-log.js';
import { anchorView, listAnchors } from './anchors.js';
import { hashedOf, verifyScoreLog, type ScoreLogRow } from './score-log.js';
import type { ScoreLogRepository } from './score-log.repository.js';

/** Entries per read of an export (keyset on seq). */
const EXPORT_BATCH = 1000;

export const JSONL_CONTENT_TYPE = 'application/x-ndjson; charset=utf-8';

export const toEntryView = (r: ScoreLogRow): ScoreLogEntryView => ({
  v: r.v,
  seq: r.seq,
  kind: r.kind,
  round: r.round,
  subjectType: r.subjectType,
  subjectId: r.subjectId,
  actorId: r.actorId,
  actorName: r.actorName,
  payload: r.payload,
  at: r.at.toISOString(),
  prevHash: r.prevHash,
  hash: r.hash,
});

/**
 * One line of the JSONL export: the fields the hash covers (v1 with actorName, v2 with v and
 * without it), plus `hash`, in canonical form. Dropping `"hash":"…",` from a line leaves exactly
 * the text whose SHA-256 is that hash.
 */
export const jsonlLine = (r: ScoreLogRow): string => `${canonicalJson({ ...scoreLogHashedObject(hashedOf(r)), hash: r.hash })}\n`;

/** One line saying what a verification found (operation record, CLI, the daily job's notice). */
export function describeVerify(result: ScoreLogVerifyResult): string {
  const b = result.firstBroken;
  const a = result.anchors.firstMismatch;
  const d = result.live.firstDifference;
  const parts: string[] = [];
  if (b) parts.push(`第 ${b.seq} 条记录异常（${SCORE_LOG_BREAK_NAMES[b.reason]}）`);
  if (a) parts.push(`${ROUND_NAMES[a.round]}第 ${a.version} 版公示的链头（序号 ${a.seq}）不符（${SCORE_LOG_ANCHOR_BREAK_NAMES[a.reason]}）`);
  if (d) {
    const expert = d.expertCode || d.expertId;
    parts.push(
      `评分表 ${d.sheetId}（项目「${d.projectName || d.projectId}」，专家 ${expert}）的 ${d.field} 与存证不符（${SCORE_LOG_DIFFERENCE_NAMES[d.reason]}：存证为 ${d.expected || '无'}，现为 ${d.found || '无'}）`,
    );
  }
  return parts.length ? parts.join('；') : `共 ${result.count} 条，完整，末条序号 ${result.lastSeq}，哈希 ${result.lastHash}`;
}

const COLUMNS: XlsxColumn[] = [
  { header: '序号', key: 'seq', width: 8 },
  { header: '时间（北京时间）', key: 'time', width: 20 },
  { header: '时间（UTC，参与哈希）', key: 'at', width: 26 },
  { header: '类型', key: 'kindName', width: 12 },
  { header: '类型代码', key: 'kind', width: 18 },
  { header: '轮次', key: 'round', width: 8 },
  { header: '对象类型', key: 'subjectType', width: 14 },
  { header: '对象编号', key: 'subjectId', width: 38 },
  { header: '操作人编号', key: 'actorId', width: 38 },
  { header: '操作人', key: 'actorName', width: 20 },
  { header: '内容（规范 JSON）', key: 'payload', width: 80 },
  { header: '前序哈希', key: 'prevHash', width: 66 },
  { header: '哈希', key: 'hash', width: 66 },
  // 1: 操作人 is hashed; 2: it is not, and v is (docs/api-results.md "The canonical form").
  { header: '规范格式版本', key: 'v', width: 12 },
];

const xlsxRow = (r: ScoreLogRow) => ({
  seq: r.seq,
  time: beijingTime(r.at),
  at: r.at.toISOString(),
  kindName: SCORE_LOG_KIND_NAMES[r.kind as ScoreLogKind] ?? r.kind,
  kind: r.kind,
  round: r.round ? ROUND_NAMES[r.round] : '',
  subjectType: r.subjectType,
  subjectId: r.subjectId,
  actorId: r.actorId ?? '',
  actorName: r.actorName,
  payload: canonicalJson(r.payload),
  prevHash: r.prevHash,
  hash: r.hash,
  v: r.v,
});

export interface ScoreLogExport {
  stream: Readable;
  fileName: string;
  contentType: string;
  rows: number;
}

/** 评分存证: list, verification and export (docs "Score log"). */
export function createScoreLogService({ db, repo, now = () => new Date() }: { db: Db; repo: ScoreLogRepository; now?: () => Date }) {
  /** Matching entries in chain order, read a batch at a time while the client reads. */
  async function* entries(q: Omit<ScoreLogExportQuery, 'format'>, total: number): AsyncGenerator<ScoreLogRow> {
    let after = 0;
    let sent = 0;
    while (sent < total) {
      const rows = await repo.batchAfter(q, after, Math.min(EXPORT_BATCH, total - sent));
      for (const r of rows) yield r;
      if (rows.length === 0) return;
      sent += rows.length;
      after = rows[rows.length - 1]!.seq;
    }
  }

  return {
    async list(q: ScoreLogQuery): Promise<Page<ScoreLogEntryView>> {
      const { rows, total } = await repo.page(q);
      return { list: rows.map(toEntryView), page: q.page, size: q.size, total };
    },

    /** Recomputes the whole chain; the check itself is an operation record (who checked, what it found). */
    async verify(actor: OperationActor): Promise<ScoreLogVerifyAnswer> {
      const started = performance.now();
      const result = await verifyScoreLog(db);
      const tookMs = Math.round(performance.now() - started);
      await db.transaction((tx) =>
        recordOperation(tx, actor, {
          action: 'score-log:verify',
          targetType: 'score_log',
          summary: `校验评分存证：${result.ok ? '' : `共 ${result.count} 条，`}${describeVerify(result)}（公示链头 ${result.anchors.count} 个，评分表 ${result.live.sheets} 份）`,
        }),
      );
      return { ...result, tookMs, checkedAt: now().toISOString() };
    },

    /** The published heads, newest first. */
    async anchors(): Promise<ScoreLogAnchorList> {
      return { list: (await listAnchors(db)).map(anchorView) };
    },

    /**
     * The matching entries (all of them without filters: a chain check needs the whole log) as
     * .xlsx or JSONL, in seq order. The count is taken first: entries appended meanwhile wait
     * for the next export. The export is an operation record.
     */
    async export(actor: OperationActor, q: ScoreLogExportQuery): Promise<ScoreLogExport> {
      const { format = 'xlsx', ...filter } = q;
      const total = await repo.count(filter);
      await db.transaction((tx) =>
        recordOperation(tx, actor, {
          action: 'score-log:export',
          targetType: 'score_log',
          summary: `导出评分存证（${format}）${total} 条，筛选条件：${describeFilter(filter)}`,
        }),
      );
      const day = beijingDate(now());
      if (format === 'jsonl') {
        const lines = async function* () {
          for await (const r of entries(filter, total)) yield jsonlLine(r);
        };
        return { stream: Readable.from(lines()), fileName: `评分存证-${day}.jsonl`, contentType: JSONL_CONTENT_TYPE, rows: total };
      }
      const rows = async function* () {
        for await (const r of entries(filter, total)) yield xlsxRow(r);
      };
      const stream = writeXlsx([{ name: '评分存证', columns: COLUMNS, rows: rows() }]);
      return { stream, fileName: `评分存证-${day}.xlsx`, contentType: XLSX_CONTENT_TYPE, rows: total };
    },
  };
}
export type ScoreLogService = ReturnType<typeof createScoreLogService>;
