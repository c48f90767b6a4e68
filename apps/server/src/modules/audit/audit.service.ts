import { PHONE_PATTERN, type LoginRecordView, type OperationRecordView, type Page } from '@contest/shared';
import { MASKED_PII, type Pii } from '../../lib/pii.js';
import type { LoginRecordSortedQuery, OperationRecordSortedQuery } from './audit.query.js';
import type { AuditRepository } from './audit.repository.js';

/** Behaviour auditing (docs/rules/admin.md): login and operation records per realm, newest first (or oldest, `order=asc`). */
export function createAuditService(repo: AuditRepository) {
  return {
    /** `pii`: the caller's view of personal information; identifiers are masked either way, it decides how they are searched. */
    async loginRecords(q: LoginRecordSortedQuery, pii: Pii): Promise<Page<LoginRecordView>> {
      const { rows, total } = await repo.loginRecords(q, pii.full);
      return {
        list: rows.map(({ record: r, username, name }) => ({
          id: r.id,
          realm: r.realm,
          accountId: r.accountId,
          // A phone typed at an SMS (or expert) sign-in is shown masked, like every phone of the console.
          identifier: PHONE_PATTERN.test(r.identifier) ? MASKED_PII.phone(r.identifier) : r.identifier,
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
