import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps.js';
import { requireRealm } from '../auth/auth.guard.js';
import type { IdentityServices } from '../auth/identity.module.js';
import type { ReviewDeps } from '../review/review.module.js';
import { createScoringService } from '../review/scoring.service.js';
import { createSheetsRepository } from '../review/sheets.repository.js';
import { createAppealsService, type AppealsService } from './appeals.service.js';
import { createPublicationService, type PublicationService } from './publication.service.js';
import { createPublicationRepository } from './publication.repository.js';
import { resultsRoutes } from './results.routes.js';

export interface ResultsServices {
  publication: PublicationService;
  appeals: AppealsService;
}

/**
 * Results publication (公示) and appeals (docs/rules/results.md): built on the review module's deps (clock,
 * settings, round view, workflow, outbox kick) and its re-review. docs/api-results.md.
 */
export async function registerResults(api: FastifyInstance, _deps: AppDeps, identity: IdentityServices, review: ReviewDeps): Promise<ResultsServices> {
  const repo = createPublicationRepository();
  const publication = createPublicationService(review, repo);
  const appeals = createAppealsService({ ...review, scoring: createScoringService(review, createSheetsRepository()) }, repo);
  await api.register(async (scope) => {
    if (!scope.hasRequestDecorator('auth')) scope.decorateRequest('auth', null);
    await scope.register(resultsRoutes, { publication, appeals, guards: review.guards, participant: requireRealm(identity.sessions, 'USER') });
  });
  return { publication, appeals };
}
