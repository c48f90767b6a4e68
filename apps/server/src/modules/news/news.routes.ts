import type { FastifyInstance, FastifyRequest } from 'fastify';
import { idParamsSchema, newsListQuerySchema } from '@contest/shared';
import { ok } from '../../plugins/envelope.js';
import type { ZodTypeProvider } from '../../plugins/zod.js';
import type { NewsService } from './news.service.js';

export interface NewsRoutesOptions {
  service: NewsService;
  /** Admin holding `news:edit`. */
  canPreview: (request: FastifyRequest) => Promise<void>;
}

/** Public news lists and articles; the admin preview of /dynamic-look. */
export async function newsRoutes(base: FastifyInstance, { service, canPreview }: NewsRoutesOptions): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  app.get('/news', { schema: { querystring: newsListQuerySchema } }, async (request) => ok(await service.list(request.query)));
  app.get('/news/:id', { schema: { params: idParamsSchema } }, async (request) => ok(await service.published(request.params.id)));
  // onRequest: authentication before validation, so an anonymous caller gets 401 whatever it sends.
  app.get('/admin/news/:id/preview', { onRequest: canPreview, schema: { params: idParamsSchema } }, async (request) =>
    ok(await service.preview(request.params.id)),
  );
}
