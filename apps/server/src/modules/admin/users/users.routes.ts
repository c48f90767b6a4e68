import type { FastifyInstance } from 'fastify';
import { ADMIN_MSG, enabledBodySchema, idParamsSchema, userFilterSchema } from '@contest/shared';
import { XLSX_CONTENT_TYPE } from '../../../lib/xlsx-stream.js';
import { ok } from '../../../plugins/envelope.js';
import type { ZodTypeProvider } from '../../../plugins/zod.js';
import { adminActorOf, type AdminGuards } from '../admin.guard.js';
import { userListSortedQuerySchema } from './users.query.js';
import type { UserService } from './users.service.js';

// An export reads every matching row: a few per minute per admin is plenty.
const EXPORT_LIMIT = { rateLimit: { max: 10, timeWindow: 60_000 } };

/** /admin/user: the registered users page (/admin/user/team). */
export async function userRoutes(base: FastifyInstance, { guards, service }: { guards: AdminGuards; service: UserService }): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();

  app.get('/admin/user/list', { onRequest: guards.button('user:view'), schema: { querystring: userListSortedQuerySchema } }, async (request) =>
    ok(await service.list(request.query, await guards.pii(request))),
  );
  app.get('/admin/user/detail/:id', { onRequest: guards.button('user:view'), schema: { params: idParamsSchema } }, async (request) =>
    ok(await service.detail(request.params.id)),
  );
  app.put('/admin/user/:id/status', { config: { audit: 'user:enable|user:disable' }, onRequest: guards.button('user:disable'), schema: { params: idParamsSchema, body: enabledBodySchema } }, async (request) => {
    const user = await service.setEnabled(adminActorOf(request), request.params.id, request.body.enabled);
    return ok(user, user.enabled ? ADMIN_MSG.enabled : ADMIN_MSG.disabled);
  });
  app.post('/admin/user/:id/reset-password', { config: { audit: 'user:reset-password' }, onRequest: guards.button('user:reset-password'), schema: { params: idParamsSchema } }, async (request) =>
    ok(await service.resetPassword(adminActorOf(request), request.params.id), ADMIN_MSG.passwordReset),
  );
  app.get('/admin/user/export', { onRequest: guards.button('user:export'), schema: { querystring: userFilterSchema }, config: EXPORT_LIMIT }, async (request, reply) => {
    const { stream, fileName } = await service.export(adminActorOf(request), request.query, await guards.pii(request));
    return reply
      .header('content-type', XLSX_CONTENT_TYPE)
      .header('content-disposition', `attachment; filename="users.xlsx"; filename*=UTF-8''${encodeURIComponent(fileName)}`)
      .send(stream);
  });
}
