import type { FastifyInstance } from 'fastify';
import { ADMIN_MSG, idParamsSchema, roleCreateSchema, roleUpdateSchema } from '@contest/shared';
import { ok } from '../../../plugins/envelope.js';
import type { ZodTypeProvider } from '../../../plugins/zod.js';
import { adminActorOf, type AdminGuards } from '../admin.guard.js';
import type { RoleService } from './roles.service.js';

/** /admin/role: the roles page, and the role choices of the system accounts page. */
export async function roleRoutes(base: FastifyInstance, { guards, service }: { guards: AdminGuards; service: RoleService }): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  // The accounts page lists roles to assign them, so either page may read them.
  const canRead = guards.menu('roleManage', 'systemManage');

  app.get('/admin/role/list', { onRequest: canRead }, async () => ok(await service.list()));
  app.get('/admin/role/list/:id', { onRequest: canRead, schema: { params: idParamsSchema } }, async (request) =>
    ok(await service.detail(request.params.id)),
  );
  app.get('/admin/role/tree', { onRequest: guards.menu('roleManage') }, async () => ok(await service.tree()));
  app.post('/admin/role', { config: { audit: 'role:create' }, onRequest: guards.button('role:edit'), schema: { body: roleCreateSchema } }, async (request) =>
    ok(await service.create(adminActorOf(request), request.body), ADMIN_MSG.created),
  );
  app.put('/admin/role/:id', { config: { audit: 'role:edit' }, onRequest: guards.button('role:edit'), schema: { params: idParamsSchema, body: roleUpdateSchema } }, async (request) =>
    ok(await service.update(adminActorOf(request), request.params.id, request.body), ADMIN_MSG.saved),
  );
  app.delete('/admin/role/:id', { config: { audit: 'role:delete' }, onRequest: guards.button('role:delete'), schema: { params: idParamsSchema } }, async (request) => {
    await service.remove(adminActorOf(request), request.params.id);
    return ok(null, ADMIN_MSG.deleted);
  });
}
