/** Answers of the results and appeals calls (packages/shared/src/results/api.ts), for this folder's tests. */
import type {
  AppealDetail,
  AppealRow,
  CompareRow,
  ResultEntryView,
  ResultMovement,
  ResultVersionView,
  ReviewRound,
  RoundResultState,
} from '@contest/shared';
import { ID } from '../review/review-fixtures';

export { ID, SLOW, callsTo, closing, expertRow, mockGet, page } from '../review/review-fixtures';

/** The server's clock in these tests. */
export const NOW = '2025-09-20T02:00:00.000Z';
export const later = (ms: number) => new Date(Date.parse(NOW) + ms).toISOString();
export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

export const NO_APPEALS = { submitted: 0, rejected: 0, accepted: 0, resolved: 0 };

export function version(round: ReviewRound, n: number, over: Partial<ResultVersionView> = {}): ResultVersionView {
  return {
    id: `v-${round}-${n}`,
    round,
    version: n,
    status: 'PUBLISHED',
    publishedAt: '2025-09-18T02:00:00.000Z',
    // 3 days 5 hours 30 minutes after NOW
    periodEndsAt: later(3 * DAY + 5 * HOUR + 30 * 60_000),
    // Half an hour past the whole hours: the countdown reads the clock a few ms after the answer.
    appealEndsAt: later(DAY + 2 * HOUR + 30 * 60_000),
    reason: n === 1 ? null : `第 ${n} 版：申诉复评后成绩变化`,
    actorName: '运营一号',
    newsId: `news-${n}`,
    rule:
      round === 'FINAL'
        ? {
            round,
            scoring: { aggregate: 'MEAN', minScoresForTrim: 5, tieBreak: [] },
            selection: null,
            awards: { mode: 'RANK_COUNTS', levels: [{ code: 'L1', name: '一等奖', count: 1, minScore: null }, { code: 'L2', name: '二等奖', count: null, minScore: null }] },
          }
        : {
            round,
            scoring: { aggregate: 'MEAN', minScoresForTrim: 5, tieBreak: [] },
            selection: { mode: 'PROMOTION', n: null, promotionId: 'p1', promotionMode: 'TOP_OVERALL', promotionN: 2 },
            awards: null,
          },
    total: 3,
    selected: 2,
    levels: round === 'FINAL' ? [{ code: 'L1', name: '一等奖', count: 1 }, { code: 'L2', name: '二等奖', count: 2 }] : [],
    appeals: NO_APPEALS,
    ...over,
  };
}

export function roundState(round: ReviewRound, over: Partial<RoundResultState> = {}): RoundResultState {
  return {
    round,
    published: false,
    current: null,
    canPublish: true,
    publishBlocker: null,
    inPeriod: false,
    appealOpen: false,
    appeals: { ...NO_APPEALS, overdue: 0 },
    ...over,
  };
}

export function entry(n: number, over: Partial<ResultEntryView> = {}): ResultEntryView {
  return {
    projectId: ID(n),
    teamId: ID(500 + n),
    projectName: `医保项目${n}`,
    teamName: `团队${n}`,
    orgName: `第${n}人民医院`,
    track: 'SMART_SUPERVISION',
    rank: n,
    trackRank: n,
    score: 90 - n,
    outcome: n <= 2 ? 'PROMOTED' : 'NOT_PROMOTED',
    awardCode: null,
    awardName: null,
    ...over,
  };
}

export function compareRow(n: number, movement: ResultMovement, over: Partial<CompareRow> = {}): CompareRow {
  return {
    projectId: ID(n),
    projectName: `医保项目${n}`,
    teamName: `团队${n}`,
    orgName: `第${n}人民医院`,
    track: 'SMART_SUPERVISION',
    rankA: n,
    rankB: n,
    scoreA: 90 - n,
    scoreB: 90 - n,
    outcomeA: 'PROMOTED',
    outcomeB: 'PROMOTED',
    awardA: null,
    awardB: null,
    movement,
    changed: movement !== 'SAME',
    appeals: [],
    ...over,
  };
}

export function appealRow(n: number, over: Partial<AppealRow> = {}): AppealRow {
  return {
    id: ID(900 + n),
    round: 'PRELIMINARY',
    version: 1,
    status: 'SUBMITTED',
    projectId: ID(n),
    projectName: `医保项目${n}`,
    teamId: ID(500 + n),
    teamName: `团队${n}`,
    orgName: `第${n}人民医院`,
    reason: `评分有误，请复核${n}`,
    attachmentCount: 1,
    createdAt: '2025-09-19T02:00:00.000Z',
    dueAt: later(3 * DAY),
    overdue: false,
    decidedAt: null,
    decidedBy: null,
    resolvedVersion: null,
    rowVersion: 1,
    ...over,
  };
}

export function appealDetail(n: number, over: Partial<AppealDetail> = {}): AppealDetail {
  return {
    ...appealRow(n),
    attachments: [{ uniqueNo: 'att000000000000000001', name: '评分说明.pdf', size: 2048, filePath: '/api/attachment/stream/att000000000000000001' }],
    reply: null,
    rereview: null,
    entry: entry(n, { outcome: 'NOT_PROMOTED', rank: 3 }),
    currentEntry: entry(n, { outcome: 'NOT_PROMOTED', rank: 3 }),
    history: [
      {
        id: 'h1',
        subject: 'APPEAL',
        fromStatus: null,
        toStatus: 'SUBMITTED',
        reason: `评分有误，请复核${n}`,
        actorRealm: 'USER',
        actorName: '张三',
        createdAt: '2025-09-19T02:00:00.000Z',
      },
    ],
    ...over,
  };
}
