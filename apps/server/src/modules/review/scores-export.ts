import type { Readable } from 'node:stream';
import { ROUND_NAMES, round2, type ReviewRound, type ScoreExportQuery, type ScoreRow, type TieBreak } from '@contest/shared';
import { beijingDate, beijingTime, writeXlsx, type XlsxColumn } from '../../lib/xlsx-stream.js';
import { describeFilter } from '../admin/admin-util.js';
import { recordOperation, type OperationActor } from '../audit/operation-log.js';
import { createRoundScores, points, scoreMatches, scoreRow, type RoundScores, type RoundScoresCache } from './scores.service.js';
import { createScoresRepository, type ScoresRepository } from './scores.repository.js';
import type { ReviewDeps } from './review.module.js';

/** Same words as the settings page (大赛设置 › 评分规则). */
const DECIDED_BY: Record<TieBreak | 'EQUAL', string> = {
  RULE_SCORE: '排名依据得分',
  TRIMMED_MEAN: '去掉最高最低分后的平均分',
  CRITERIA: '评分项逐项比较',
  RAW_MEAN: '原始平均分',
  EQUAL: '并列',
};

// Projects per read of the 专家评分 sheet (7 sheets each): one query per 500 rows of the summary.
const EXPORT_BATCH = 500;

const num = (v: number | null | undefined) => (v === null || v === undefined ? '' : round2(v));
const yesNo = (v: boolean) => (v ? '是' : '否');

function summaryColumns(scores: RoundScores): XlsxColumn[] {
  return [
    { header: '排名', key: 'rank', width: 8 },
    { header: '方向排名', key: 'trackRank', width: 10 },
    { header: '项目名称', key: 'projectName', width: 30 },
    { header: '团队名称', key: 'teamName', width: 24 },
    { header: '单位名称', key: 'orgName', width: 32 },
    { header: '参赛方向', key: 'track', width: 20 },
    { header: '评审组', key: 'groupName', width: 14 },
    { header: '已评份数', key: 'count', width: 10 },
    { header: '应评份数', key: 'expected', width: 10 },
    { header: '排名依据得分', key: 'ruleScore', width: 14 },
    { header: '平均分', key: 'mean', width: 10 },
    { header: '去掉最高最低分后的平均分', key: 'trimmedMean', width: 14 },
    { header: '中位数', key: 'median', width: 10 },
    { header: '标准化平均分', key: 'zMean', width: 14 },
    ...scores.criteria.map((c) => ({ header: `${c.name}平均分`, key: `c_${c.key}`, width: 12 })),
    { header: '极差', key: 'spread', width: 8 },
    { header: '分歧', key: 'divergent', width: 8 },
    { header: '同分裁决', key: 'decidedBy', width: 16 },
  ];
}

function expertColumns(scores: RoundScores): XlsxColumn[] {
  return [
    { header: '项目名称', key: 'projectName', width: 30 },
    { header: '专家编号', key: 'expertCode', width: 12 },
    { header: '专家姓名', key: 'expertName', width: 12 },
    ...scores.criteria.map((c) => ({ header: c.name, key: `c_${c.key}`, width: 10 })),
    { header: '总分', key: 'total', width: 8 },
    { header: '评语', key: 'comment', width: 50 },
    { header: '提交时间', key: 'submittedAt', width: 20 },
    { header: '去除的最高/最低分', key: 'dropped', width: 10 },
  ];
}

/**
 * 成绩导出: sheet 汇总 (one row per project, the score query's rows in rank order with every
 * aggregate) and sheet 专家评分 (one row per submitted sheet, project by project in the same
 * order). The ranking is computed before the stream starts; the sheets' comments are read 500
 * projects at a time while the client reads.
 */
export function createResultsExport(
  deps: Pick<ReviewDeps, 'db' | 'now' | 'view' | 'rubrics' | 'settingsOf'>,
  repo: ScoresRepository = createScoresRepository(),
  rounds: RoundScoresCache = createRoundScores(deps, repo),
) {
  return async function exportScores(actor: OperationActor, round: ReviewRound, filter: ScoreExportQuery, action: string): Promise<{ stream: Readable; fileName: string; rows: number }> {
    const scores = await rounds.get(round);
    const rows = scoreMatches(scores, filter).map(scoreRow);
    const sheets = rows.reduce((n, r) => n + r.count, 0);
    const name = ROUND_NAMES[round];
    await deps.db.transaction((tx) =>
      recordOperation(tx, actor, {
        action,
        targetType: 'score',
        summary: `导出${name}成绩 ${rows.length} 个项目、专家评分 ${sheets} 条，筛选条件：${describeFilter(filter)}`,
      }),
    );
    const tracks = await repo.trackLabels(deps.db);
    const db = deps.db;

    const summary = function* () {
      for (const r of rows) {
        const row: Record<string, unknown> = {
          rank: r.rank ?? '',
          trackRank: r.trackRank ?? '',
          projectName: r.projectName,
          teamName: r.teamName,
          orgName: r.orgName,
          track: r.track ? (tracks.get(r.track) ?? r.track) : '',
          groupName: r.groupName ?? '',
          count: r.count,
          expected: r.expected,
          ruleScore: num(r.ruleScore),
          mean: num(r.mean),
          trimmedMean: num(r.trimmedMean),
          median: num(r.median),
          zMean: num(r.zMean),
          spread: num(r.spread),
          divergent: yesNo(r.divergent),
          decidedBy: r.decidedBy ? DECIDED_BY[r.decidedBy] : '',
        };
        for (const c of scores.criteria) row[`c_${c.key}`] = num(r.criteria[c.key]);
        yield row;
      }
    };

    const perExpert = async function* () {
      const withScores = rows.filter((r) => r.count > 0);
      for (let i = 0; i < withScores.length; i += EXPORT_BATCH) {
        const chunk: ScoreRow[] = withScores.slice(i, i + EXPORT_BATCH);
        const found = await repo.submittedForExport(db, round, chunk.map((r) => r.projectId));
        const byProject = new Map<string, typeof found>();
        for (const s of found) {
          const list = byProject.get(s.prelimId);
          if (list) list.push(s);
          else byProject.set(s.prelimId, [s]);
        }
        for (const r of chunk) {
          const dropped = new Set(r.droppedExpertIds);
          for (const s of byProject.get(r.projectId) ?? []) {
            const row: Record<string, unknown> = {
              projectName: r.projectName,
              expertCode: s.expertCode ?? '',
              expertName: s.expertName ?? '',
              total: points(s.total, s.scores),
              comment: s.comment,
              submittedAt: beijingTime(s.submittedAt),
              dropped: yesNo(dropped.has(s.expertId)),
            };
            for (const c of scores.criteria) row[`c_${c.key}`] = s.scores[c.key] ?? '';
            yield row;
          }
        }
      }
    };

    const stream = writeXlsx([
      { name: '汇总', columns: summaryColumns(scores), rows: summary() },
      { name: '专家评分', columns: expertColumns(scores), rows: perExpert() },
    ]);
    return { stream, fileName: `${name}成绩_${beijingDate(deps.now())}.xlsx`, rows: rows.length };
  };
}
export type ResultsExport = ReturnType<typeof createResultsExport>;
