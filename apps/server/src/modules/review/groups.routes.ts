import type { FastifyInstance } from 'fastify';
import {
  REVIEW_MSG as M,
  REVIEW_ROUNDS,
  ROUND_ACCESS,
  ROUND_SLUGS,
  assignApplySchema,
  groupBodySchema,
  idParamsSchema,
  moveBodySchema,
  roundProjectQuerySchema,
  rubricPutSchema,
} from '@contest/shared';
import { ok } from '../../plugins/envelope.js';
import type { ZodTypeProvider } from '../../plugins/zod.js';
import { actorOf } from '../audit/operation-log.js';
import { createGroupsService } from './groups.service.js';
import type { ReviewDeps } from './review.module.js';
import { createRubricService } from './rubric.service.js';

/**
 * 评分细则, 评审组 and assignment of each round (docs/api-review.md): reads need the round's
 * groups menu, writes its group-edit button (ROUND_ACCESS).
 */
export async function groupsRoutes(base: FastifyInstance, deps: ReviewDeps): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const groups = createGroupsService(deps);
  const rubric = createRubricService(deps);

  for (const round of REVIEW_ROUNDS) {
    const prefix = `/admin/review/${ROUND_SLUGS[round]}`;
    const access = ROUND_ACCESS[round];
    const read = deps.guards.menu(access.groupsMenu);
    const edit = deps.guards.button(access.groupEdit);
    const audit = { audit: access.groupEdit };

    app.get(`${prefix}/rubric`, { onRequest: read }, async () => ok(await rubric.get(round)));
    app.put(`${prefix}/rubric`, { config: audit, onRequest: edit, schema: { body: rubricPutSchema } }, async (request) =>
      ok(await rubric.put(actorOf(request), round, request.body), M.rubricSaved),
    );

    app.get(`${prefix}/groups`, { onRequest: read }, async () => ok(await groups.overview(round)));
    app.post(`${prefix}/groups`, { config: audit, onRequest: edit, schema: { body: groupBodySchema } }, async (request) =>
      ok(await groups.create(actorOf(request), round, request.body), M.groupSaved),
    );
    app.put(`${prefix}/groups/:id`, { config: audit, onRequest: edit, schema: { params: idParamsSchema, body: groupBodySchema } }, async (request) =>
      ok(await groups.update(actorOf(request), round, request.params.id, request.body), M.groupSaved),
    );
    app.delete(`${prefix}/groups/:id`, { config: audit, onRequest: edit, schema: { params: idParamsSchema } }, async (request) => {
      await groups.remove(actorOf(request), round, request.params.id);
      return ok(null, M.groupDeleted);
    });

    app.get(`${prefix}/projects`, { onRequest: read, schema: { querystring: roundProjectQuerySchema } }, async (request) => ok(await groups.projects(round, request.query)));
    app.post(`${prefix}/projects/:id/move`, { config: audit, onRequest: edit, schema: { params: idParamsSchema, body: moveBodySchema } }, async (request) =>
      ok(await groups.move(actorOf(request), round, request.params.id, request.body), M.projectMoved),
    );

    // A preview writes nothing but belongs to the one who may apply it.
    app.post(`${prefix}/assign/preview`, { config: audit, onRequest: edit }, async () => ok(await groups.preview(round)));
    app.post(`${prefix}/assign/apply`, { config: audit, onRequest: edit, schema: { body: assignApplySchema } }, async (request) =>
      ok(await groups.apply(actorOf(request), round, request.body.token), M.assignApplied),
    );
  }
}
