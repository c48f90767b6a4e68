import type { FastifyInstance } from 'fastify';
import { TEMPLATE_MSG as M, templateBodySchema, templateEnabledBodySchema, templateKeyParamsSchema, templateListQuerySchema } from '@contest/shared';
import { ok } from '../../plugins/envelope.js';
import type { ZodTypeProvider } from '../../plugins/zod.js';
import type { AdminGuards } from '../admin/admin.guard.js';
import { actorOf } from '../audit/operation-log.js';
import type { TemplatesService } from './templates.service.js';

export interface TemplatesRoutesOptions {
  service: TemplatesService;
  guards: AdminGuards;
}

/**
 * Message templates (短信管理 templates; the in-mail page picks bulk templates too):
 * /api/admin/templates. `{key}` is an event code or a bulk template's id. docs/api-content.md.
 */
export async function templatesRoutes(base: FastifyInstance, { service, guards }: TemplatesRoutesOptions): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const canRead = guards.menu('NoteManage', 'InMailManage');
  const canEdit = guards.button('sms:template');
  const audit = { audit: 'sms:template' };

  app.get('/admin/templates', { onRequest: canRead, schema: { querystring: templateListQuerySchema } }, async (request) => ok(await service.list(request.query)));
  app.get('/admin/templates/:key', { onRequest: canRead, schema: { params: templateKeyParamsSchema } }, async (request) => ok(await service.get(request.params.key)));
  app.post('/admin/templates', { config: audit, onRequest: canEdit, schema: { body: templateBodySchema } }, async (request) =>
    ok(await service.create(actorOf(request), request.body), M.templateCreated),
  );
  app.put('/admin/templates/:key', { config: audit, onRequest: canEdit, schema: { params: templateKeyParamsSchema, body: templateBodySchema } }, async (request) =>
    ok(await service.update(actorOf(request), request.params.key, request.body), M.templateSaved),
  );
  app.put(
    '/admin/templates/:key/enabled',
    { config: audit, onRequest: canEdit, schema: { params: templateKeyParamsSchema, body: templateEnabledBodySchema } },
    async (request) => {
      const item = await service.setEnabled(actorOf(request), request.params.key, request.body);
      return ok(item, item.enabled ? M.templateEnabled : M.templateDisabled);
    },
  );
  app.delete('/admin/templates/:key', { config: audit, onRequest: canEdit, schema: { params: templateKeyParamsSchema } }, async (request) => {
    const result = await service.remove(actorOf(request), request.params.key);
    return ok(result, result.reset ? M.templateReset : M.templateDeleted);
  });
}
