import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps.js';
import { createAdminGuards, createMenuAccess } from '../admin/admin.guard.js';
import type { IdentityServices } from '../auth/identity.module.js';
import { createTemplatesRepository } from './templates.repository.js';
import { templatesRoutes } from './templates.routes.js';
import { createTemplatesService, type TemplatesService } from './templates.service.js';

/**
 * Message templates (docs/rules/content.md, "Message templates"): the admin calls. Services render event notices
 * with `renderEvent` (render.ts) or send them with `notifyEvent` (notices/notify.ts).
 */
export async function registerTemplates(api: FastifyInstance, deps: AppDeps, identity: IdentityServices, options: { now?: () => Date } = {}): Promise<{ templates: TemplatesService }> {
  const db = deps.database.db;
  const templates = createTemplatesService({ db, repo: createTemplatesRepository(db), now: options.now });
  const guards = createAdminGuards(identity.sessions, identity.permissions, createMenuAccess(db));
  await api.register(async (scope) => {
    if (!scope.hasRequestDecorator('auth')) scope.decorateRequest('auth', null);
    await scope.register(templatesRoutes, { service: templates, guards });
  });
  return { templates };
}
