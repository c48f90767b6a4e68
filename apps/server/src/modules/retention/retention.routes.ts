import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { adminDataRequestsQuerySchema, dataDeleteRequestSchema, dataRequestDecisionSchema, idParamsSchema, RETENTION_MSG, retentionRunsQuerySchema } from '@contest/shared';
import { contentDisposition } from '../../lib/content-disposition.js';
import { ok } from '../../plugins/envelope.js';
import type { ZodTypeProvider } from '../../plugins/zod.js';
import type { AdminGuards } from '../admin/admin.guard.js';
import { actorOf } from '../audit/operation-log.js';
import { authOf } from '../auth/auth.guard.js';
import type { DataRequestsService } from './data-requests.service.js';
import type { RetentionService } from './retention.service.js';

// A plan reads every due row; a few a minute per admin is plenty.
const HEAVY_LIMIT = { rateLimit: { max: 10, timeWindow: 60_000 } };

export interface RetentionRoutesOptions {
  guards: AdminGuards;
  participant: preHandlerAsyncHookHandler;
  retention: RetentionService;
  requests: DataRequestsService;
}

/**
 * 数据保留 (menu dataRetention, button retention:run), 个人数据申请 (menu dataRequests, button
 * data-request:decide) and the participant's 个人数据 (/my-data). docs/retention.md.
 */
export async function retentionRoutes(base: FastifyInstance, { guards, participant, retention, requests }: RetentionRoutesOptions): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();

  // ---- console: 数据保留 ----
  app.get('/admin/retention', { onRequest: guards.menu('dataRetention') }, async () => ok(await retention.overview()));
  app.get('/admin/retention/runs', { onRequest: guards.menu('dataRetention'), schema: { querystring: retentionRunsQuerySchema } }, async (request) =>
    ok(await retention.runs(request.query)),
  );
  app.get('/admin/retention/runs/:id', { onRequest: guards.menu('dataRetention'), schema: { params: idParamsSchema } }, async (request) =>
    ok(await retention.run(request.params.id)),
  );
  app.post('/admin/retention/dry-run', { config: { audit: 'retention:plan', ...HEAVY_LIMIT }, onRequest: guards.button('retention:run') }, async (request) =>
    ok(await retention.dryRun(actorOf(request)), RETENTION_MSG.planned),
  );
  app.post(
    '/admin/retention/runs/:id/execute',
    { config: { audit: 'retention:run' }, onRequest: guards.button('retention:run'), schema: { params: idParamsSchema } },
    async (request) => ok(await retention.execute(actorOf(request), request.params.id), RETENTION_MSG.started),
  );

  // ---- console: 个人数据申请 ----
  app.get('/admin/data-requests', { onRequest: guards.menu('dataRequests'), schema: { querystring: adminDataRequestsQuerySchema } }, async (request) =>
    ok(await requests.adminList(request.query)),
  );
  app.post(
    '/admin/data-requests/:id/decide',
    { config: { audit: 'data-request:decide' }, onRequest: guards.button('data-request:decide'), schema: { params: idParamsSchema, body: dataRequestDecisionSchema } },
    async (request) => {
      const { item, message } = await requests.decide(actorOf(request), request.params.id, request.body);
      return ok(item, message);
    },
  );

  // ---- participant: 个人数据 ----
  app.get('/my-data', { onRequest: participant }, async (request) => ok(await requests.mine(authOf(request).accountId)));
  app.post('/my-data/export', { onRequest: participant }, async (request) => ok(await requests.requestExport(authOf(request).accountId), RETENTION_MSG.exportRequested));
  app.get('/my-data/export/:id/download', { onRequest: participant, schema: { params: idParamsSchema } }, async (request, reply) => {
    const { stream, size, fileName } = await requests.download(authOf(request).accountId, request.params.id);
    return reply
      .header('content-type', 'application/zip')
      .header('content-length', String(size))
      .header('content-disposition', contentDisposition('attachment', fileName))
      .send(stream);
  });
  app.post('/my-data/deletion', { onRequest: participant, schema: { body: dataDeleteRequestSchema } }, async (request) =>
    ok(await requests.requestDeletion(authOf(request).accountId, request.body.reason), RETENTION_MSG.deleteRequested),
  );
}
