import type { FastifyInstance } from 'fastify';
import { DOCUMENT_MSG as D, documentAdminListQuerySchema, documentBodySchema, enabledBodySchema, idParamsSchema } from '@contest/shared';
import { ok } from '../../plugins/envelope.js';
import type { ZodTypeProvider } from '../../plugins/zod.js';
import type { AdminGuards } from '../admin/admin.guard.js';
import { actorOf } from '../audit/operation-log.js';
import type { DocumentsAdminService } from './documents-admin.service.js';

export interface DocumentsAdminRoutesOptions {
  service: DocumentsAdminService;
  guards: AdminGuards;
}

/** 文档管理 (/admin/user/docManage and /admin/user/docManagement-edit/{id?}). */
export async function documentsAdminRoutes(base: FastifyInstance, { service, guards }: DocumentsAdminRoutesOptions): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const canView = guards.menu('docManage');
  const canEdit = guards.button('doc:edit');

  app.get('/admin/documents', { onRequest: canView, schema: { querystring: documentAdminListQuerySchema } }, async (request) =>
    ok(await service.list(request.query)),
  );
  app.get('/admin/documents/:id', { onRequest: canView, schema: { params: idParamsSchema } }, async (request) => ok(await service.view(request.params.id)));
  app.post('/admin/documents', { config: { audit: 'doc:edit' }, onRequest: canEdit, schema: { body: documentBodySchema } }, async (request) =>
    ok(await service.create(actorOf(request), request.body), D.docCreated),
  );
  app.put(
    '/admin/documents/:id',
    { config: { audit: 'doc:edit' }, onRequest: canEdit, schema: { params: idParamsSchema, body: documentBodySchema } },
    async (request) => ok(await service.update(actorOf(request), request.params.id, request.body), D.docSaved),
  );
  app.put(
    '/admin/documents/:id/enabled',
    { config: { audit: 'doc:edit' }, onRequest: canEdit, schema: { params: idParamsSchema, body: enabledBodySchema } },
    async (request) => {
      const row = await service.setEnabled(actorOf(request), request.params.id, request.body.enabled);
      return ok(row, row.enabled ? D.docEnabled : D.docDisabled);
    },
  );
  app.delete(
    '/admin/documents/:id',
    { config: { audit: 'doc:delete' }, onRequest: guards.button('doc:delete'), schema: { params: idParamsSchema } },
    async (request) => {
      await service.remove(actorOf(request), request.params.id);
      return ok(null, D.docDeleted);
    },
  );
}
