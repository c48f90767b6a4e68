import type { FastifyInstance } from 'fastify';
import {
  REVIEW_MSG as M,
  REVIEW_ROUNDS,
  ROUND_ACCESS,
  ROUND_SLUGS,
  idParamsSchema,
  monitorExpertQuerySchema,
  monitorProjectQuerySchema,
  promotionConfirmSchema,
  promotionSchema,
  remindExpertsSchema,
  scoreExportQuerySchema,
  scoreQuerySchema,
  type PromotionBody,
  type PromotionConfirmBody,
  type RemindExpertsBody,
} from '@contest/shared';
import { ok } from '../../plugins/envelope.js';
import type { ZodTypeProvider } from '../../plugins/zod.js';
import { actorOf } from '../audit/operation-log.js';
import { EXPORT_LIMIT, sendXlsx } from '../team/team.routes.js';
import { judgingQualityRoutes } from './judging-quality.routes.js';
import { createScoresServices } from './scores-services.js';
import type { ReviewDeps } from './review.module.js';

/**
 * 成绩查询 and 评分监控 of both rounds (/admin/review/:r/scores*, /monitor*), and 晋级决赛
 * (/admin/final/promotion*, /admin/final/promotions). docs/api-review.md.
 */
export async function resultsRoutes(base: FastifyInstance, deps: ReviewDeps): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { service, exportScores, promotion, judging } = createScoresServices(deps);
  // Judging quality reads the same cache of computed rounds.
  judgingQualityRoutes(base, deps, judging);

  for (const round of REVIEW_ROUNDS) {
    const slug = ROUND_SLUGS[round];
    const access = ROUND_ACCESS[round];
    const scoresMenu = deps.guards.menu(access.scoresMenu);
    const monitorMenu = deps.guards.menu(access.monitorMenu);

    app.get(`/admin/review/${slug}/scores`, { onRequest: scoresMenu, schema: { querystring: scoreQuerySchema } }, async (request) =>
      ok(await service.list(round, request.query)),
    );
    app.get(`/admin/review/${slug}/scores/export`, { onRequest: deps.guards.button(access.scoreExport), schema: { querystring: scoreExportQuerySchema }, config: EXPORT_LIMIT }, async (request, reply) =>
      sendXlsx(reply, await exportScores(actorOf(request), round, request.query, access.scoreExport)),
    );
    app.get(`/admin/review/${slug}/scores/:id`, { onRequest: scoresMenu, schema: { params: idParamsSchema } }, async (request) =>
      ok(await service.detail(round, request.params.id)),
    );

    app.get(`/admin/review/${slug}/monitor/experts`, { onRequest: monitorMenu, schema: { querystring: monitorExpertQuerySchema } }, async (request) =>
      ok(await service.monitorExperts(round, request.query)),
    );
    app.get(`/admin/review/${slug}/monitor/experts/:id`, { onRequest: monitorMenu, schema: { params: idParamsSchema } }, async (request) =>
      ok(await service.monitorExpert(round, request.params.id)),
    );
    app.get(`/admin/review/${slug}/monitor/projects`, { onRequest: monitorMenu, schema: { querystring: monitorProjectQuerySchema } }, async (request) =>
      ok(await service.monitorProjects(round, request.query)),
    );
    app.post(
      `/admin/review/${slug}/monitor/remind`,
      { config: { audit: access.remind }, onRequest: deps.guards.button(access.remind), schema: { body: remindExpertsSchema } },
      async (request) => ok(await service.remind(actorOf(request), round, request.body as RemindExpertsBody, access.remind), M.reminded),
    );
  }

  // The preview writes nothing; it is a POST for its body, so it declares the button it belongs to.
  app.post('/admin/final/promotion/preview', { config: { audit: 'final:promote' }, onRequest: deps.guards.button('final:promote'), schema: { body: promotionSchema } }, async (request) =>
    ok(await promotion.preview(request.body as PromotionBody)),
  );
  app.post('/admin/final/promotion/confirm', { config: { audit: 'final:promote' }, onRequest: deps.guards.button('final:promote'), schema: { body: promotionConfirmSchema } }, async (request) =>
    ok(await promotion.confirm(actorOf(request), request.body as PromotionConfirmBody), M.promoted),
  );
  app.get('/admin/final/promotions', { onRequest: deps.guards.menu('preliminaryAdminSearch') }, async () => ok(await promotion.list()));
}
