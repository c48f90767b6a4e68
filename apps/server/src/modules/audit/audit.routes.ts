import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AUDIT_MENU_OF_REALM, type Realm } from '@contest/shared';
import { forbidden } from '../../lib/errors.js';
import { ok } from '../../plugins/envelope.js';
import type { ZodTypeProvider } from '../../plugins/zod.js';
import type { AdminGuards } from '../admin/admin.guard.js';
import { loginRecordSortedQuerySchema, operationRecordSortedQuerySchema } from './audit.query.js';
import type { AuditService } from './audit.service.js';

/**
 * /admin/audit: read-only (GET only; no call edits or deletes records). Each realm's records
 * belong to its behaviour-auditing page, so reading them needs that page's menu.
 */
export async function auditRoutes(base: FastifyInstance, { guards, service }: { guards: AdminGuards; service: AuditService }): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const checkRealm = async (request: FastifyRequest, realm: Realm) => {
    if (!(await guards.menus.holdsAny(request.auth!, [AUDIT_MENU_OF_REALM[realm]]))) throw forbidden();
  };

  app.get('/admin/audit/login-records', { onRequest: guards.any, schema: { querystring: loginRecordSortedQuerySchema } }, async (request) => {
    await checkRealm(request, request.query.realm);
    return ok(await service.loginRecords(request.query, await guards.pii(request)));
  });
  app.get('/admin/audit/operation-records', { onRequest: guards.any, schema: { querystring: operationRecordSortedQuerySchema } }, async (request) => {
    await checkRealm(request, request.query.realm);
    return ok(await service.operationRecords(request.query));
  });
}
