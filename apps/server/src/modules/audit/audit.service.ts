import type { LoginRecordQuery, LoginRecordView, OperationRecordQuery, OperationRecordView, Page } from '@contest/shared';
import type { AuditRepository } from './audit.repository.js';

/** Behaviour auditing (product.md 7): login and operation records per realm, newest first. */
export function createAuditService(repo: AuditRepository) {
  return {
    async loginRecords(q: LoginRecordQuery): Promise<Page<LoginRecordView>> {
      const { rows, total } = await repo.loginRecords(q);
      return {
        list: rows.map(({ record: r, username, name }) => ({
          id: r.id,
          realm: r.realm,
          accountId: r.accountId,
          identifier: r.identifier,
          username,
          name,
          method: r.method,
          result: r.result,
          ip: r.ip,
          userAgent: r.userAgent,
          createdAt: r.createdAt.toISOString(),
        })),
        page: q.page,
        size: q.size,
        total,
      };
    },

    async operationRecords(q: OperationRecordQuery): Promise<Page<OperationRecordView>> {
      const { rows, total } = await repo.operationRecords(q);
      return {
        list: rows.map((r) => ({
          id: r.id,
          realm: r.realm,
          accountId: r.accountId,
          username: r.username,
          action: r.action,
          targetType: r.targetType,
          targetId: r.targetId,
          summary: r.summary,
          result: r.result,
          ip: r.ip,
          userAgent: r.userAgent,
          createdAt: r.createdAt.toISOString(),
        })),
        page: q.page,
        size: q.size,
        total,
      };
    },
  };
}
export type AuditService = ReturnType<typeof createAuditService>;
