import type { FastifyInstance } from 'fastify';
import {
  ADMIN_MSG,
  enabledBodySchema,
  idParamsSchema,
  profileUpdateSchema,
  systemAccountCreateSchema,
  systemAccountListQuerySchema,
  systemAccountRolesSchema,
  systemAccountUpdateSchema,
} from '@contest/shared';
import { ok } from '../../../plugins/envelope.js';
import type { ZodTypeProvider } from '../../../plugins/zod.js';
import { adminActorOf, type AdminGuards } from '../admin.guard.js';
import type { SystemAccountService } from './system-accounts.service.js';

export interface SystemAccountRoutesOptions {
  guards: AdminGuards;
  service: SystemAccountService;
}

/** /admin/system/account (system accounts page) and /admin/account/profile (my account). */
export async function systemAccountRoutes(base: FastifyInstance, { guards, service }: SystemAccountRoutesOptions): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const canView = guards.menu('systemManage');

  app.get('/admin/system/account', { onRequest: canView, schema: { querystring: systemAccountListQuerySchema } }, async (request) =>
    ok(await service.list(request.query, await guards.pii(request))),
  );
  app.get('/admin/system/account/:id', { onRequest: canView, schema: { params: idParamsSchema } }, async (request) =>
    ok(await service.view(request.params.id)),
  );
  app.post('/admin/system/account', { config: { audit: 'account:create|account:edit' }, onRequest: guards.button('account:edit'), schema: { body: systemAccountCreateSchema } }, async (request) =>
    ok(await service.create(adminActorOf(request), request.body), ADMIN_MSG.created),
  );
  app.put(
    '/admin/system/account/:id',
    { config: { audit: 'account:edit' }, onRequest: guards.button('account:edit'), schema: { params: idParamsSchema, body: systemAccountUpdateSchema } },
    async (request) => ok(await service.update(adminActorOf(request), request.params.id, request.body), ADMIN_MSG.saved),
  );
  app.put(
    '/admin/system/account/:id/roles',
    { config: { audit: 'account:roles' }, onRequest: guards.button('account:edit'), schema: { params: idParamsSchema, body: systemAccountRolesSchema } },
    async (request) => ok(await service.assignRoles(adminActorOf(request), request.params.id, request.body.roleIds), ADMIN_MSG.saved),
  );
  app.put(
    '/admin/system/account/:id/status',
    { config: { audit: 'account:enable|account:disable' }, onRequest: guards.button('account:disable'), schema: { params: idParamsSchema, body: enabledBodySchema } },
    async (request) => {
      const account = await service.setEnabled(adminActorOf(request), request.params.id, request.body.enabled);
      return ok(account, account.enabled ? ADMIN_MSG.enabled : ADMIN_MSG.disabled);
    },
  );
  app.post(
    '/admin/system/account/:id/reset-password',
    { config: { audit: 'account:reset-password' }, onRequest: guards.button('account:reset-password'), schema: { params: idParamsSchema } },
    async (request) => ok(await service.resetPassword(adminActorOf(request), request.params.id), ADMIN_MSG.passwordReset),
  );

  app.get('/admin/account/profile', { onRequest: guards.button(null) }, async (request) => ok(await service.profile(request.auth!.accountId)));
  app.put('/admin/account/profile', { config: { audit: 'profile:edit' }, onRequest: guards.button(null), schema: { body: profileUpdateSchema } }, async (request) =>
    ok(await service.updateProfile(adminActorOf(request), request.body), ADMIN_MSG.saved),
  );
}
