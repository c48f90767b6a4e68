import type { FastifyInstance } from 'fastify';
import {
  REVIEW_MSG as M,
  REVIEW_ROUNDS,
  abstainSchema,
  ROUND_ACCESS,
  ROUND_SLUGS,
  expertProjectQuerySchema,
  idParamsSchema,
  rereviewSchema,
  returnSheetSchema,
  sheetBodySchema,
} from '@contest/shared';
import { ok } from '../../plugins/envelope.js';
import type { ZodTypeProvider } from '../../plugins/zod.js';
import { actorOf } from '../audit/operation-log.js';
import { authOf } from '../auth/auth.guard.js';
import type { ReviewDeps } from './review.module.js';
import { createScoringService } from './scoring.service.js';

/**
 * The expert's scoring calls (/api/expert/review/...) and the admin's calls on sheets (return,
 * re-review), per round. Every expert call but the overview needs the accepted agreement.
 */
export async function scoringRoutes(base: FastifyInstance, deps: ReviewDeps): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const service = createScoringService(deps);
  const { signedIn, agreed } = deps.expert;

  app.get('/expert/review/overview', { onRequest: signedIn }, async (request) => ok(await service.overview(authOf(request).accountId)));

  for (const round of REVIEW_ROUNDS) {
    const slug = ROUND_SLUGS[round];
    const access = ROUND_ACCESS[round];

    app.get(`/expert/review/${slug}/list`, { onRequest: agreed, schema: { querystring: expertProjectQuerySchema } }, async (request) =>
      ok(await service.list(authOf(request).accountId, round, request.query)),
    );
    app.get(`/expert/review/${slug}/:id`, { onRequest: agreed, schema: { params: idParamsSchema } }, async (request) =>
      ok(await service.detail(authOf(request).accountId, round, request.params.id)),
    );
    app.put(
      `/expert/review/${slug}/:id/sheet`,
      { config: { audit: 'review:save' }, onRequest: agreed, schema: { params: idParamsSchema, body: sheetBodySchema } },
      async (request) => ok(await service.saveDraft(actorOf(request), round, request.params.id, request.body), M.sheetSaved),
    );
    app.post(
      `/expert/review/${slug}/:id/sheet/submit`,
      { config: { audit: 'review:submit' }, onRequest: agreed, schema: { params: idParamsSchema, body: sheetBodySchema } },
      async (request) => ok(await service.submit(actorOf(request), round, request.params.id, request.body), M.sheetSubmitted),
    );
    // Abstaining (docs/api-review.md, "Abstaining"): before submitting, with a reason.
    app.post(
      `/expert/review/${slug}/:id/abstain`,
      { config: { audit: 'review:abstain' }, onRequest: agreed, schema: { params: idParamsSchema, body: abstainSchema } },
      async (request) => ok(await service.abstain(actorOf(request), round, request.params.id, request.body), M.sheetAbstained),
    );

    app.post(
      `/admin/review/${slug}/sheets/:id/return`,
      { config: { audit: access.scoreReturn }, onRequest: deps.guards.button(access.scoreReturn), schema: { params: idParamsSchema, body: returnSheetSchema } },
      async (request) => ok(await service.returnSheet(actorOf(request), round, request.params.id, request.body), M.sheetReturned),
    );
    app.post(
      `/admin/review/${slug}/projects/:id/rereview`,
      { config: { audit: access.scoreReturn }, onRequest: deps.guards.button(access.scoreReturn), schema: { params: idParamsSchema, body: rereviewSchema } },
      async (request) => ok(await service.rereview(actorOf(request), round, request.params.id, request.body), M.rereviewDone),
    );
  }
}
