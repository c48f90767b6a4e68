import type { FastifyInstance } from 'fastify';
import { ADMIN_MSG, contestSettingsSchema } from '@contest/shared';
import { ok } from '../../plugins/envelope.js';
import type { ZodTypeProvider } from '../../plugins/zod.js';
import { adminActorOf, type AdminGuards } from '../admin/admin.guard.js';
import type { SettingsService } from './settings.service.js';

/** 大赛设置 (/admin/system/settings): every contest setting as one object (docs/api-admin.md). */
export async function settingsRoutes(base: FastifyInstance, { guards, service }: { guards: AdminGuards; service: SettingsService }): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  app.get('/admin/settings', { onRequest: guards.menu('systemSettings') }, async () => ok(await service.get()));
  app.put('/admin/settings', { config: { audit: 'settings:edit' }, onRequest: guards.button('settings:edit'), schema: { body: contestSettingsSchema } }, async (request) =>
    ok(await service.update(adminActorOf(request), request.body), ADMIN_MSG.saved),
  );
}
