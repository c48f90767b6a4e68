import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  ADMIN_MSG,
  dictItemCreateSchema,
  dictItemListQuerySchema,
  dictItemUpdateSchema,
  dictModuleQuerySchema,
  dictTypeCreateSchema,
  dictTypeParamsSchema,
  dictTypesQuerySchema,
  dictTypeUpdateSchema,
  idParamsSchema,
} from '@contest/shared';
import { ok } from '../../plugins/envelope.js';
import type { ZodTypeProvider } from '../../plugins/zod.js';
import { adminActorOf, type AdminGuard } from '../admin/admin.guard.js';
import type { DictionaryService } from './dictionary.service.js';
import { localeOf } from './request-locale.js';

export interface DictionaryRoutesOptions {
  service: DictionaryService;
  /** The data dictionary page's menu (reading) and the dict:edit button (writing). */
  canRead: AdminGuard;
  canEdit: AdminGuard;
}

/** Public reads under /dic, the data dictionary page under /admin/dic. */
export async function dictionaryRoutes(base: FastifyInstance, { service, canRead, canEdit }: DictionaryRoutesOptions): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();

  // The answer depends on the language, which may come from Accept-Language: caches must key on it.
  const varyByLanguage = async (_request: FastifyRequest, reply: FastifyReply) => {
    reply.header('Vary', 'Accept-Language');
  };
  app.get('/dic/public', { onRequest: varyByLanguage, schema: { querystring: dictTypesQuerySchema } }, async (request) =>
    ok(await service.options(request.query.types, localeOf(request, request.query.lang))),
  );
  app.get('/dic/module', { onRequest: varyByLanguage, schema: { querystring: dictModuleQuerySchema } }, async (request) =>
    ok(await service.moduleOptions(request.query.module, localeOf(request, request.query.lang))),
  );
  app.get('/dic/label', { onRequest: varyByLanguage, schema: { querystring: dictTypesQuerySchema } }, async (request) =>
    ok(await service.labels(request.query.types, localeOf(request, request.query.lang))),
  );

  app.get('/admin/dic/type', { onRequest: canRead }, async () => ok(await service.listTypes()));
  app.post('/admin/dic/type', { config: { audit: 'dict:type-create' }, onRequest: canEdit, schema: { body: dictTypeCreateSchema } }, async (request) =>
    ok(await service.createType(adminActorOf(request), request.body), ADMIN_MSG.created),
  );
  app.put('/admin/dic/type/:code', { config: { audit: 'dict:type-edit' }, onRequest: canEdit, schema: { params: dictTypeParamsSchema, body: dictTypeUpdateSchema } }, async (request) =>
    ok(await service.updateType(adminActorOf(request), request.params.code, request.body), ADMIN_MSG.saved),
  );
  app.delete('/admin/dic/type/:code', { config: { audit: 'dict:type-delete' }, onRequest: canEdit, schema: { params: dictTypeParamsSchema } }, async (request) => {
    await service.deleteType(adminActorOf(request), request.params.code);
    return ok(null, ADMIN_MSG.deleted);
  });

  app.get('/admin/dic/item', { onRequest: canRead, schema: { querystring: dictItemListQuerySchema } }, async (request) =>
    ok(await service.listItems(request.query.typeCode)),
  );
  app.post('/admin/dic/item', { config: { audit: 'dict:item-create' }, onRequest: canEdit, schema: { body: dictItemCreateSchema } }, async (request) =>
    ok(await service.createItem(adminActorOf(request), request.body), ADMIN_MSG.created),
  );
  app.put('/admin/dic/item/:id', { config: { audit: 'dict:item-edit' }, onRequest: canEdit, schema: { params: idParamsSchema, body: dictItemUpdateSchema } }, async (request) =>
    ok(await service.updateItem(adminActorOf(request), request.params.id, request.body), ADMIN_MSG.saved),
  );
}
