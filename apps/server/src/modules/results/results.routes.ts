import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import {
  RESULTS_MSG as M,
  REVIEW_ROUNDS,
  ROUND_SLUGS,
  appealAcceptSchema,
  appealCreateSchema,
  appealListQuerySchema,
  appealRejectSchema,
  compareQuerySchema,
  entriesQuerySchema,
  idParamsSchema,
  newVersionBodySchema,
  newVersionPreviewSchema,
  publishBodySchema,
  receiptQuerySchema,
  versionParamsSchema,
} from '@contest/shared';
import { ok } from '../../plugins/envelope.js';
import type { ZodTypeProvider } from '../../plugins/zod.js';
import type { AdminGuards } from '../admin/admin.guard.js';
import { actorOf } from '../audit/operation-log.js';
import { authOf } from '../auth/auth.guard.js';
import type { AppealsService } from './appeals.service.js';
import type { PublicationService } from './publication.service.js';

export interface ResultsRoutesOptions {
  publication: PublicationService;
  appeals: AppealsService;
  guards: AdminGuards;
  /** Participant sessions only. */
  participant: preHandlerAsyncHookHandler;
}

/**
 * 结果发布 and 申诉处理 (/api/admin/results/..., /api/admin/appeals/...), and the participant's
 * results and appeal (/api/results/...). docs/api-results.md.
 */
export async function resultsRoutes(base: FastifyInstance, { publication, appeals, guards, participant }: ResultsRoutesOptions): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const publishMenu = guards.menu('resultPublish');
  const publish = guards.button('result:publish');
  const appealMenu = guards.menu('appealManage');
  const decide = guards.button('appeal:decide');

  app.get('/admin/results/overview', { onRequest: publishMenu }, async () => ok(await publication.overview()));

  for (const round of REVIEW_ROUNDS) {
    const slug = ROUND_SLUGS[round];
    // The previews write nothing; they are POSTs for their bodies, so they declare the button they belong to.
    app.post(`/admin/results/${slug}/publish/preview`, { config: { audit: 'result:publish' }, onRequest: publish, schema: { body: publishBodySchema } }, async (request) =>
      ok(await publication.previewPublish(round, request.body)),
    );
    app.post(`/admin/results/${slug}/publish`, { config: { audit: 'result:publish' }, onRequest: publish, schema: { body: publishBodySchema } }, async (request) =>
      ok(await publication.publish(actorOf(request), round, request.body), M.published),
    );
    app.get(`/admin/results/${slug}/versions`, { onRequest: publishMenu }, async () => ok(await publication.versions(round)));
    app.get(`/admin/results/${slug}/versions/compare`, { onRequest: publishMenu, schema: { querystring: compareQuerySchema } }, async (request) =>
      ok(await publication.compare(round, request.query)),
    );
    app.get(`/admin/results/${slug}/versions/:n/entries`, { onRequest: publishMenu, schema: { params: versionParamsSchema, querystring: entriesQuerySchema } }, async (request) =>
      ok(await publication.entries(round, request.params.n, request.query)),
    );
    app.post(`/admin/results/${slug}/versions/preview`, { config: { audit: 'result:publish' }, onRequest: publish, schema: { body: newVersionPreviewSchema } }, async (request) =>
      ok(await publication.previewVersion(round, request.body)),
    );
    app.post(`/admin/results/${slug}/versions`, { config: { audit: 'result:publish' }, onRequest: publish, schema: { body: newVersionBodySchema } }, async (request) =>
      ok(await publication.publishVersion(actorOf(request), round, request.body), M.versionPublished),
    );

    app.post(`/results/${slug}/appeal`, { onRequest: participant, schema: { body: appealCreateSchema } }, async (request) =>
      ok(await appeals.file(authOf(request).accountId, round, request.body), M.appealSubmitted),
    );
    // The team's score-log receipt (its own entries only); it reads the log up to the head: a few a minute.
    app.get(
      `/results/${slug}/receipt`,
      { config: { rateLimit: { max: 10, timeWindow: 60_000 } }, onRequest: participant, schema: { querystring: receiptQuerySchema } },
      async (request) => ok(await publication.receipt(authOf(request).accountId, round, request.query.projectId)),
    );
  }

  app.get('/results/mine', { onRequest: participant }, async (request) => ok(await appeals.mine(authOf(request).accountId)));

  app.get('/admin/appeals', { onRequest: appealMenu, schema: { querystring: appealListQuerySchema } }, async (request) => ok(await appeals.list(request.query)));
  app.get('/admin/appeals/:id', { onRequest: appealMenu, schema: { params: idParamsSchema } }, async (request) => ok(await appeals.detail(request.params.id)));
  app.post('/admin/appeals/:id/reject', { config: { audit: 'appeal:decide' }, onRequest: decide, schema: { params: idParamsSchema, body: appealRejectSchema } }, async (request) =>
    ok(await appeals.reject(actorOf(request), request.params.id, request.body), M.appealRejected),
  );
  app.post('/admin/appeals/:id/accept', { config: { audit: 'appeal:decide' }, onRequest: decide, schema: { params: idParamsSchema, body: appealAcceptSchema } }, async (request) =>
    ok(await appeals.accept(actorOf(request), request.params.id, request.body), M.appealAccepted),
  );
}
