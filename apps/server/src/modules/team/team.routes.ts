import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import {
  CONTEST_MSG as M,
  adminAuditSchema,
  batchAuditSchema,
  excludeQuerySchema,
  idParamsSchema,
  remindSchema,
  teamAdminFilterSchema,
  teamAdminListQuerySchema,
  teamDraftSchema,
  teamSubmitSchema,
  type TeamForm,
} from '@contest/shared';
import { ok } from '../../plugins/envelope.js';
import type { ZodTypeProvider } from '../../plugins/zod.js';
import type { AdminGuards } from '../admin/admin.guard.js';
import { actorOf } from '../audit/operation-log.js';
import { authOf } from '../auth/auth.guard.js';
import type { TeamService } from './team.service.js';

interface Options {
  service: TeamService;
  participant: (request: FastifyRequest) => Promise<void>;
  guards: AdminGuards;
}

// An export reads every matching row: a few per minute per admin is plenty.
export const EXPORT_LIMIT = { rateLimit: { max: 10, timeWindow: 60_000 } };

export function sendXlsx(reply: FastifyReply, { stream, fileName }: { stream: Readable; fileName: string }) {
  return reply
    .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    .header('content-disposition', `attachment; filename="export.xlsx"; filename*=UTF-8''${encodeURIComponent(fileName)}`)
    .send(stream);
}

/** /team/my* for the signed-in participant (no ids: one's own team only) and the console's 报名管理 calls. */
export async function teamRoutes(base: FastifyInstance, { service, participant, guards }: Options): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();

  app.get('/team/my-brief', { onRequest: participant }, async (request) => ok(await service.brief(authOf(request).accountId)));
  app.get('/team/my', { onRequest: participant }, async (request) => ok(await service.mine(authOf(request).accountId)));
  app.put('/team/my', { onRequest: participant, schema: { body: teamDraftSchema } }, async (request) =>
    ok(await service.saveDraft(authOf(request), request.body as TeamForm), M.draftSaved),
  );
  app.post('/team/my/submit', { onRequest: participant, schema: { body: teamSubmitSchema } }, async (request) =>
    ok(await service.submit(authOf(request), request.body as TeamForm), M.submitted),
  );

  // 报名草稿 (drafts, read-only, reminders)
  app.get('/admin/team/draft/list', { onRequest: guards.menu('qualificationDraft'), schema: { querystring: teamAdminListQuerySchema } }, async (request) =>
    ok(await service.draftList(request.query)),
  );
  app.get('/admin/team/draft/:id', { onRequest: guards.menu('qualificationDraft'), schema: { params: idParamsSchema } }, async (request) =>
    ok(await service.draftDetail(request.params.id)),
  );
  app.post('/admin/team/draft/remind', { config: { audit: 'qualification-draft:remind' }, onRequest: guards.button('qualification-draft:remind'), schema: { body: remindSchema } }, async (request) =>
    ok(await service.remind(actorOf(request), request.body), M.reminded),
  );

  // 资格管理
  app.get('/admin/team/list', { onRequest: guards.button('qualification:view'), schema: { querystring: teamAdminListQuerySchema } }, async (request) =>
    ok(await service.list(request.query)),
  );
  app.get('/admin/team/export', { onRequest: guards.button('qualification:export'), schema: { querystring: teamAdminFilterSchema }, config: EXPORT_LIMIT }, async (request, reply) =>
    sendXlsx(reply, await service.export(actorOf(request), request.query, await guards.pii(request))),
  );
  app.get('/admin/team/queue/next', { onRequest: guards.button('qualification:audit'), schema: { querystring: excludeQuerySchema } }, async (request) =>
    ok(await service.queueNext(request.query.exclude ?? [])),
  );
  app.post('/admin/team/audit/batch', { config: { audit: 'qualification:audit' }, onRequest: guards.button('qualification:audit'), schema: { body: batchAuditSchema } }, async (request) =>
    ok(await service.batchAudit(actorOf(request), request.body), M.batchDone),
  );
  app.get('/admin/team/:id', { onRequest: guards.button('qualification:view'), schema: { params: idParamsSchema } }, async (request) =>
    ok(await service.adminDetail(request.params.id)),
  );
  app.post('/admin/team/:id/audit', { config: { audit: 'qualification:audit' }, onRequest: guards.button('qualification:audit'), schema: { params: idParamsSchema, body: adminAuditSchema } }, async (request) =>
    ok(await service.audit(actorOf(request), request.params.id, request.body), M.audited),
  );
}
