import { Readable } from 'node:stream';
import {
  ROUND_NAMES,
  SCORE_LOG_BREAK_NAMES,
  SCORE_LOG_KIND_NAMES,
  canonicalJson,
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
import { hashedOf, verifyScoreLog, type ScoreLogRow } from './score-log.js';
import type { ScoreLogRepository } from './score-log.repository.js';

/** Entries per read of an export (keyset on seq). */
const EXPORT_BATCH = 1000;

export const JSONL_CONTENT_TYPE = 'application/x-ndjson; charset=utf-8';

export const toEntryView = (r: ScoreLogRow): ScoreLogEntryView => ({
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
 * One line of the JSONL export: the fields the hash covers, plus `hash`, in canonical form.
 * Dropping `"hash":"…",` from a line leaves exactly the text whose SHA-256 is that hash.
 */
export const jsonlLine = (r: ScoreLogRow): string => `${canonicalJson({ ...hashedOf(r), hash: r.hash })}\n`;

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
      const b = result.firstBroken;
      await db.transaction((tx) =>
        recordOperation(tx, actor, {
          action: 'score-log:verify',
          targetType: 'score_log',
          summary: b
            ? `校验评分存证：共 ${result.count} 条，第 ${b.seq} 条异常（${SCORE_LOG_BREAK_NAMES[b.reason]}）`
            : `校验评分存证：共 ${result.count} 条，完整，末条哈希 ${result.lastHash}`,
        }),
      );
      return { ...result, tookMs, checkedAt: now().toISOString() };
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
