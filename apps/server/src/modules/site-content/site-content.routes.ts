import type { FastifyInstance } from 'fastify';
import { siteContentBatchQuerySchema, siteContentParamsSchema } from '@contest/shared';
import { ok } from '../../plugins/envelope.js';
import type { ZodTypeProvider } from '../../plugins/zod.js';
import type { SiteContentService } from './site-content.service.js';

/** Editable blocks of the public site (home page, /sign-guide). */
export async function siteContentRoutes(base: FastifyInstance, { service }: { service: SiteContentService }): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  app.get('/site/content', { schema: { querystring: siteContentBatchQuerySchema } }, async (request) => ok(await service.blocks(request.query.keys)));
  app.get('/site/content/:key', { schema: { params: siteContentParamsSchema } }, async (request) => ok(await service.block(request.params.key)));
}
