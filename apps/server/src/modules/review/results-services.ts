import { createPromotionService } from './promotion.service.js';
import { createResultsExport } from './results-export.js';
import { createResultsRepository } from './results.repository.js';
import { createResultsService, createRoundScores } from './results.service.js';
import type { ReviewDeps } from './review.module.js';

/**
 * 成绩查询, its export and the promotion preview over one repository and one cache of computed
 * rounds (a change seen by one is seen by all). The routes get the services, never the repository.
 */
export function createResultsServices(deps: ReviewDeps) {
  const repo = createResultsRepository();
  const rounds = createRoundScores(deps, repo);
  return {
    service: createResultsService(deps, repo, rounds),
    exportScores: createResultsExport(deps, repo, rounds),
    promotion: createPromotionService(deps, repo, rounds),
  };
}
