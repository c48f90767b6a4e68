import type { FastifyInstance } from 'fastify';
import { siteContentBatchQuerySchema, siteContentParamsSchema, siteContentQuerySchema } from '@contest/shared';
import { ok } from '../../plugins/envelope.js';
import type { ZodTypeProvider } from '../../plugins/zod.js';
import { localeOf } from '../dictionary/request-locale.js';
import type { SiteContentService } from './site-content.service.js';

/** Editable blocks of the public site (home page, /sign-guide). */
export async function siteContentRoutes(base: FastifyInstance, { service }: { service: SiteContentService }): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  // The texts follow the language, which may come from Accept-Language: caches must key on it.
  app.get('/site/content', { schema: { querystring: siteContentBatchQuerySchema } }, async (request, reply) => {
    reply.header('Vary', 'Accept-Language');
    return ok(await service.blocks(request.query.keys, localeOf(request, request.query.lang)));
  });
  app.get('/site/content/:key', { schema: { params: siteContentParamsSchema, querystring: siteContentQuerySchema } }, async (request, reply) => {
    reply.header('Vary', 'Accept-Language');
    return ok(await service.block(request.params.key, localeOf(request, request.query.lang)));
  });
}
