import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  NEWS_MSG as N,
  adminNewsListQuerySchema,
  idParamsSchema,
  newsBodySchema,
  newsDetailQuerySchema,
  newsListQuerySchema,
  newsPinnedSchema,
  newsPublishSchema,
  newsUpdateSchema,
} from '@contest/shared';
import type { Db } from '../../db/client.js';
import { ok } from '../../plugins/envelope.js';
import type { ZodTypeProvider } from '../../plugins/zod.js';
import type { AdminGuards } from '../admin/admin.guard.js';
import { actorOf } from '../audit/operation-log.js';
import { localeOf } from '../dictionary/request-locale.js';
import { createNewsServices } from './news-admin.service.js';

export interface NewsRoutesOptions {
  db: Db;
  guards: AdminGuards;
  /** The clock deciding when a scheduled article goes public (tests move it). */
  now?: () => Date;
}

const MENU = 'siteContentManagement';

/**
 * Public news lists and articles, the admin preview of /dynamic-look, and 新闻资讯 in the console
 * (/admin/user/siteContentManagement). Calls in docs/api-content.md.
 */
export async function newsRoutes(base: FastifyInstance, { db, guards, now = () => new Date() }: NewsRoutesOptions): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { service, admin } = createNewsServices({ db, now });

  // The answer depends on the language, which may come from Accept-Language: caches must key on it.
  const varyByLanguage = async (_request: FastifyRequest, reply: FastifyReply) => {
    reply.header('Vary', 'Accept-Language');
  };
  app.get('/news', { onRequest: varyByLanguage, schema: { querystring: newsListQuerySchema } }, async (request) =>
    ok(await service.list(request.query, localeOf(request, request.query.lang))),
  );
  app.get('/news/:id', { onRequest: varyByLanguage, schema: { params: idParamsSchema, querystring: newsDetailQuerySchema } }, async (request) =>
    ok(await service.published(request.params.id, localeOf(request, request.query.lang))),
  );

  // onRequest: authentication before validation, so an anonymous caller gets 401 whatever it sends.
  // Whoever may open the article's detail page may preview it as the public will see it.
  const canRead = guards.menu(MENU);
  app.get('/admin/news/:id/preview', { onRequest: canRead, schema: { params: idParamsSchema, querystring: newsDetailQuerySchema } }, async (request) =>
    ok(await service.preview(request.params.id, request.query.lang ?? 'zh-cn')),
  );

  app.get('/admin/news', { onRequest: canRead, schema: { querystring: adminNewsListQuerySchema } }, async (request) => ok(await admin.list(request.query)));
  app.get('/admin/news/:id', { onRequest: canRead, schema: { params: idParamsSchema } }, async (request) => ok(await admin.detail(request.params.id)));

  const canEdit = guards.button('news:edit');
  app.post('/admin/news', { config: { audit: 'news:edit' }, onRequest: canEdit, schema: { body: newsBodySchema } }, async (request) =>
    ok(await admin.create(actorOf(request), request.body), N.newsCreated),
  );
  app.put('/admin/news/:id', { config: { audit: 'news:edit' }, onRequest: canEdit, schema: { params: idParamsSchema, body: newsUpdateSchema } }, async (request) =>
    ok(await admin.update(actorOf(request), request.params.id, request.body), N.newsSaved),
  );

  const canPublish = guards.button('news:publish');
  app.post(
    '/admin/news/:id/publish',
    { config: { audit: 'news:publish' }, onRequest: canPublish, schema: { params: idParamsSchema, body: newsPublishSchema } },
    async (request) => {
      const row = await admin.publish(actorOf(request), request.params.id, request.body);
      return ok(row, row.scheduled ? N.newsScheduled : N.newsPublished);
    },
  );
  app.post('/admin/news/:id/offline', { config: { audit: 'news:publish' }, onRequest: canPublish, schema: { params: idParamsSchema } }, async (request) =>
    ok(await admin.offline(actorOf(request), request.params.id), N.newsOfflined),
  );
  app.put(
    '/admin/news/:id/pinned',
    { config: { audit: 'news:publish' }, onRequest: canPublish, schema: { params: idParamsSchema, body: newsPinnedSchema } },
    async (request) => {
      const row = await admin.setPinned(actorOf(request), request.params.id, request.body.pinned);
      return ok(row, row.pinned ? N.newsPinned : N.newsUnpinned);
    },
  );

  app.delete('/admin/news/:id', { config: { audit: 'news:delete' }, onRequest: guards.button('news:delete'), schema: { params: idParamsSchema } }, async (request) => {
    await admin.remove(actorOf(request), request.params.id);
    return ok(null, N.newsDeleted);
  });
}
