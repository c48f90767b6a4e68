import type { FastifyInstance } from 'fastify';
import { DOCUMENT_MSG as D, siteBlockBodySchema, siteBlockKeyParamsSchema } from '@contest/shared';
import { ok } from '../../plugins/envelope.js';
import type { ZodTypeProvider } from '../../plugins/zod.js';
import type { AdminGuards } from '../admin/admin.guard.js';
import { actorOf } from '../audit/operation-log.js';
import type { SiteContentService } from './site-content.service.js';

/**
 * 站点内容 (/admin/user/siteContentManagement-blocks): the home page blocks and the sign-up
 * guide. The spec puts them under 内容管理 beside the news, so the news menu reads them and
 * the news:edit button writes them.
 */
export async function siteContentAdminRoutes(base: FastifyInstance, { service, guards }: { service: SiteContentService; guards: AdminGuards }): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  app.get('/admin/site-content', { onRequest: guards.menu('siteContentManagement') }, async () => ok(await service.adminList()));
  app.put(
    '/admin/site-content/:key',
    { config: { audit: 'news:edit' }, onRequest: guards.button('news:edit'), schema: { params: siteBlockKeyParamsSchema, body: siteBlockBodySchema } },
    async (request) => ok(await service.save(actorOf(request), request.params.key, request.body), D.siteSaved),
  );
}
