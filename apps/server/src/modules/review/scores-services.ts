import { createJudgingQualityService } from './judging-quality.service.js';
import { createPromotionService } from './promotion.service.js';
import { createResultsExport } from './scores-export.js';
import { createScoresRepository } from './scores.repository.js';
import { createScoresService, createRoundScores } from './scores.service.js';
import type { ReviewDeps } from './review.module.js';

/**
 * 成绩查询, its export, the promotion preview and judging quality over one repository and one cache of computed
 * rounds (a change seen by one is seen by all). The routes get the services, never the repository.
 */
export function createScoresServices(deps: ReviewDeps) {
  const repo = createScoresRepository();
  const rounds = createRoundScores(deps, repo);
  const judging = createJudgingQualityService(deps, repo, rounds);
  return {
    service: createScoresService(deps, repo, rounds),
    exportScores: createResultsExport(deps, repo, rounds),
    promotion: createPromotionService(deps, repo, rounds, judging),
    judging,
  };
}
