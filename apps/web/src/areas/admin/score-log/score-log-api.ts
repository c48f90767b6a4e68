/**
 * Calls of 评分存证 (/admin/results/score-log); shapes from @contest/shared
 * (results/score-log.ts), the calls in docs/api-results.md ("Score log").
 */
import type { Page, ScoreLogAnchorList, ScoreLogEntryView, ScoreLogVerifyAnswer } from '@contest/shared';
import { api, dataOf } from '../../../lib/api';

export const SCORE_LOG_QUERY_KEYS = {
  all: ['admin', 'score-log'] as const,
  list: ['admin', 'score-log', 'list'] as const,
  anchors: ['admin', 'score-log', 'anchors'] as const,
};

export const SCORE_LOG_EXPORT_URL = '/admin/score-log/export';

export const fetchScoreLogPage = (params: object) => dataOf(api.get<Page<ScoreLogEntryView>>('/admin/score-log', { params }));
export const verifyScoreLog = () => dataOf(api.get<ScoreLogVerifyAnswer>('/admin/score-log/verify'));
/** The heads published with the 公示 notices (docs/security.md). */
export const fetchScoreLogAnchors = () => dataOf(api.get<ScoreLogAnchorList>('/admin/score-log/anchors'));
