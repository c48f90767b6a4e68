import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps.js';
import type { IdentityServices } from '../auth/identity.module.js';
import { createAuditRepository } from '../audit/audit.repository.js';
import { auditRoutes } from '../audit/audit.routes.js';
import { createAuditService } from '../audit/audit.service.js';
import { createDictionaryRepository } from '../dictionary/dictionary.repository.js';
import { dictionaryRoutes } from '../dictionary/dictionary.routes.js';
import { createDictionaryService } from '../dictionary/dictionary.service.js';
import { createAdminGuards, createMenuAccess } from './admin.guard.js';
import { createDashboardRepository } from './dashboard/dashboard.repository.js';
import { dashboardRoutes } from './dashboard/dashboard.routes.js';
import { createDashboardService } from './dashboard/dashboard.service.js';
import { createPiiRepository } from './pii/pii.repository.js';
import { piiRoutes } from './pii/pii.routes.js';
import { createPiiService } from './pii/pii.service.js';
import { createRoleRepository } from './roles/roles.repository.js';
import { roleRoutes } from './roles/roles.routes.js';
import { createRoleService } from './roles/roles.service.js';
import { createSystemAccountRepository } from './system-accounts/system-accounts.repository.js';
import { systemAccountRoutes } from './system-accounts/system-accounts.routes.js';
import { createSystemAccountService } from './system-accounts/system-accounts.service.js';
import { trackRoutes } from './track.routes.js';
import { createSettingsRepository } from '../settings/settings.repository.js';
import { settingsRoutes } from '../settings/settings.routes.js';
import { createSettingsService } from '../settings/settings.service.js';
import { createUserRepository } from './users/users.repository.js';
import { userRoutes } from './users/users.routes.js';
import { createUserService } from './users/users.service.js';

/**
 * The admin console's calls (docs/rules/admin.md, docs/api-admin.md): system accounts, roles, data dictionary (and its public
 * reads under /dic), registered users, my account, behaviour auditing, console tracking, the home's dashboard, the reveal of personal information. See docs/api-admin.md.
 */
export async function registerAdmin(api: FastifyInstance, deps: AppDeps, identity: IdentityServices): Promise<void> {
  const db = deps.database.db;
  const { sessions, permissions } = identity;
  const guards = createAdminGuards(sessions, permissions, createMenuAccess(db));

  await api.register(async (scope) => {
    scope.decorateRequest('auth', null);
    await scope.register(systemAccountRoutes, { guards, service: createSystemAccountService({ db, repo: createSystemAccountRepository(db), sessions }) });
    await scope.register(roleRoutes, { guards, service: createRoleService({ db, repo: createRoleRepository(db) }) });
    await scope.register(dictionaryRoutes, {
      service: createDictionaryService({ db, repo: createDictionaryRepository(db) }),
      canRead: guards.menu('dataField'),
      canEdit: guards.button('dict:edit'),
    });
    await scope.register(userRoutes, { guards, service: createUserService({ db, repo: createUserRepository(db), sessions }) });
    await scope.register(auditRoutes, { guards, service: createAuditService(createAuditRepository(db)) });
    await scope.register(trackRoutes, { guards });
    await scope.register(dashboardRoutes, { guards, service: createDashboardService(createDashboardRepository(db)) });
    await scope.register(settingsRoutes, { guards, service: createSettingsService({ db, repo: createSettingsRepository(db) }) });
    await scope.register(piiRoutes, { guards, service: createPiiService({ db, repo: createPiiRepository(db) }) });
  });
}
