import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps.js';
import type { ReviewDeps } from '../review/review.module.js';
import { createRoundScores } from '../review/scores.service.js';
import { createScoresRepository } from '../review/scores.repository.js';
import { createScoringService } from '../review/scoring.service.js';
import { createLiveHub, type LiveHub } from './live-final.hub.js';
import { liveFinalRoutes } from './live-final.routes.js';
import { createLiveFinalRepository } from './live-final.repository.js';
import { createLiveFinalService, type LiveFinalService } from './live-final.service.js';

export interface LiveFinalServices {
  service: LiveFinalService;
  hub: LiveHub;
}

/**
 * The live final (现场答辩, docs/live-final.md): built on the review module's deps (clock,
 * settings, round view, rubric, workflow, guards) and its scoring service, so live scores are
 * FINAL score sheets like any other. One hub per app: Redis pub/sub when configured.
 */
export async function registerLiveFinal(api: FastifyInstance, deps: AppDeps, review: ReviewDeps): Promise<LiveFinalServices> {
  // The score query (决赛成绩查询, its export, publication) keeps a project's single scores sealed while it is on stage.
  const repo = createLiveFinalRepository();
  review.seal.provide((tx) => repo.sealedPrelimIds(tx));
  const hub = createLiveHub({ redis: deps.redis, prefix: deps.config.redisPrefix, log: api.log });
  const service = createLiveFinalService({
    ...review,
    scoring: createScoringService(review),
    scores: createRoundScores(review, createScoresRepository()),
    hub,
  }, repo);
  // Open streams would hold the server's close: end them first, then stop listening.
  api.addHook('preClose', async () => hub.endAll());
  api.addHook('onClose', async () => hub.close());
  await api.register(async (scope) => {
    if (!scope.hasRequestDecorator('auth')) scope.decorateRequest('auth', null);
    await scope.register(liveFinalRoutes, { service, hub, guards: review.guards, expert: review.expert });
  });
  return { service, hub };
}
