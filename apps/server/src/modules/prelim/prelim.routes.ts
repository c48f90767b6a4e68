import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  CONTEST_MSG as M,
  adminAuditSchema,
  batchAuditSchema,
  excludeQuerySchema,
  finalChangeSchema,
  idParamsSchema,
  prelimAdminFilterSchema,
  prelimAdminListQuerySchema,
  prelimDraftSchema,
  prelimSubmitSchema,
  remindSchema,
  type PrelimForm,
} from '@contest/shared';
import { ok } from '../../plugins/envelope.js';
import type { ZodTypeProvider } from '../../plugins/zod.js';
import type { AdminGuards } from '../admin/admin.guard.js';
import { actorOf } from '../audit/operation-log.js';
import { authOf } from '../auth/auth.guard.js';
import { EXPORT_LIMIT, sendXlsx } from '../team/team.routes.js';
import type { PrelimService } from './prelim.service.js';

interface Options {
  service: PrelimService;
  participant: (request: FastifyRequest) => Promise<void>;
  guards: AdminGuards;
}

/** /prelim-doc/my* for the signed-in participant's approved team; the console's 初赛管理 and 决赛项目管理 calls. */
export async function prelimRoutes(base: FastifyInstance, { service, participant, guards }: Options): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();

  app.get('/prelim-doc/my-brief', { onRequest: participant }, async (request) => ok(await service.brief(authOf(request).accountId)));
  app.get('/prelim-doc/my', { onRequest: participant }, async (request) => ok(await service.mine(authOf(request).accountId)));
  app.put('/prelim-doc/my', { onRequest: participant, schema: { body: prelimDraftSchema } }, async (request) =>
    ok(await service.saveDraft(authOf(request), request.body as PrelimForm), M.draftSaved),
  );
  app.post('/prelim-doc/my/submit', { onRequest: participant, schema: { body: prelimSubmitSchema } }, async (request) =>
    ok(await service.submit(authOf(request), request.body as PrelimForm), M.submitted),
  );

  // 初赛草稿
  app.get('/admin/prelim-doc/draft/list', { onRequest: guards.menu('preliminaryBox'), schema: { querystring: prelimAdminListQuerySchema } }, async (request) =>
    ok(await service.draftList(request.query)),
  );
  app.get('/admin/prelim-doc/draft/:id', { onRequest: guards.menu('preliminaryBox'), schema: { params: idParamsSchema } }, async (request) =>
    ok(await service.draftDetail(request.params.id)),
  );
  app.post('/admin/prelim-doc/draft/remind', { config: { audit: 'preliminary-draft:remind' }, onRequest: guards.button('preliminary-draft:remind'), schema: { body: remindSchema } }, async (request) =>
    ok(await service.remind(actorOf(request), request.body), M.reminded),
  );

  // 初赛项目管理
  app.get('/admin/prelim-doc/list', { onRequest: guards.button('preliminary:view'), schema: { querystring: prelimAdminListQuerySchema } }, async (request) =>
    ok(await service.list(request.query)),
  );
  app.get('/admin/prelim-doc/export', { onRequest: guards.button('preliminary:export'), schema: { querystring: prelimAdminFilterSchema }, config: EXPORT_LIMIT }, async (request, reply) =>
    sendXlsx(reply, await service.export(actorOf(request), request.query)),
  );
  app.get('/admin/prelim-doc/queue/next', { onRequest: guards.button('preliminary:audit'), schema: { querystring: excludeQuerySchema } }, async (request) =>
    ok(await service.queueNext(request.query.exclude ?? [])),
  );
  app.post('/admin/prelim-doc/audit/batch', { config: { audit: 'preliminary:audit' }, onRequest: guards.button('preliminary:audit'), schema: { body: batchAuditSchema } }, async (request) =>
    ok(await service.batchAudit(actorOf(request), request.body), M.batchDone),
  );
  app.get('/admin/prelim-doc/:id', { onRequest: guards.button('preliminary:view'), schema: { params: idParamsSchema } }, async (request) =>
    ok(await service.adminDetail(request.params.id)),
  );
  app.post('/admin/prelim-doc/:id/audit', { config: { audit: 'preliminary:audit' }, onRequest: guards.button('preliminary:audit'), schema: { params: idParamsSchema, body: adminAuditSchema } }, async (request) =>
    ok(await service.audit(actorOf(request), request.params.id, request.body), M.audited),
  );

  // 决赛项目管理
  app.get('/admin/final/list', { onRequest: guards.menu('preliminaryAdminSearch'), schema: { querystring: prelimAdminListQuerySchema } }, async (request) =>
    ok(await service.finalList(request.query)),
  );
  app.get('/admin/final/export', { onRequest: guards.button('final:export'), schema: { querystring: prelimAdminFilterSchema }, config: EXPORT_LIMIT }, async (request, reply) =>
    sendXlsx(reply, await service.export(actorOf(request), request.query, true)),
  );
  app.get('/admin/final/:id', { onRequest: guards.menu('preliminaryAdminSearch'), schema: { params: idParamsSchema } }, async (request) =>
    ok(await service.finalDetail(request.params.id)),
  );
  app.post('/admin/final/:id/add', { config: { audit: 'final:promote' }, onRequest: guards.button('final:promote'), schema: { params: idParamsSchema, body: finalChangeSchema } }, async (request) =>
    ok(await service.changeFinal(actorOf(request), request.params.id, 'ADD', request.body), M.finalAdded),
  );
  app.post('/admin/final/:id/remove', { config: { audit: 'final:promote' }, onRequest: guards.button('final:promote'), schema: { params: idParamsSchema, body: finalChangeSchema } }, async (request) =>
    ok(await service.changeFinal(actorOf(request), request.params.id, 'REMOVE', request.body), M.finalRemoved),
  );
}
