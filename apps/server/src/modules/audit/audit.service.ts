import type { LoginRecordView, OperationRecordView, Page } from '@contest/shared';
import type { LoginRecordSortedQuery, OperationRecordSortedQuery } from './audit.query.js';
import type { AuditRepository } from './audit.repository.js';

/** Behaviour auditing (product.md 7): login and operation records per realm, newest first (or oldest, `order=asc`). */
export function createAuditService(repo: AuditRepository) {
  return {
    async loginRecords(q: LoginRecordSortedQuery): Promise<Page<LoginRecordView>> {
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

    async operationRecords(q: OperationRecordSortedQuery): Promise<Page<OperationRecordView>> {
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
