import { count, eq, or } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { operationRecords } from '../../db/schema/audit.js';
import { accountsView, loginRecordsView } from '../auth/auth.read-model.js';
import { fieldsOf } from '../../db/read-model.js';
import { contains, createListQuery, dateRange, equals, startsWith } from '../../lib/list-query.js';
import { piiSearch } from '../../lib/pii.js';
import type { AuditSortKey, LoginRecordSortedQuery, OperationRecordSortedQuery } from './audit.query.js';

/** Read side of the audit tables. Nothing here writes: records are append-only. */
export function createAuditRepository(db: Db) {
  const logins = createListQuery({
    rows: () =>
      db
        .select({ record: fieldsOf(loginRecordsView), username: accountsView.username, name: accountsView.name })
        .from(loginRecordsView)
        .leftJoin(accountsView, eq(accountsView.id, loginRecordsView.accountId))
        .$dynamic(),
    count: () => db.select({ n: count() }).from(loginRecordsView).leftJoin(accountsView, eq(accountsView.id, loginRecordsView.accountId)).$dynamic(),
    sortable: { createdAt: loginRecordsView.createdAt } satisfies Record<AuditSortKey, unknown>,
    defaultOrder: [{ column: loginRecordsView.createdAt, order: 'desc' }],
    tiebreak: { column: loginRecordsView.id, order: 'desc' },
  });
  const operations = createListQuery({
    rows: () => db.select().from(operationRecords).$dynamic(),
    count: () => db.select({ n: count() }).from(operationRecords).$dynamic(),
    sortable: { createdAt: operationRecords.createdAt } satisfies Record<AuditSortKey, unknown>,
    defaultOrder: [{ column: operationRecords.createdAt, order: 'desc' }],
    tiebreak: { column: operationRecords.id, order: 'desc' },
  });

  return {
    /**
     * `fullPii`: the caller may see phones in full. What was typed at login is a phone for SMS
     * sign-ins (shown masked): digits match part of it only for such a caller (lib/pii.ts).
     */
    loginRecords: (q: LoginRecordSortedQuery, fullPii: boolean) =>
      logins.page(
        [
          eq(loginRecordsView.realm, q.realm),
          // What was typed at login, or the username of the account it matched.
          q.username && /^\d+$/.test(q.username.trim()) && !fullPii
            ? or(contains(accountsView.username, q.username), piiSearch(loginRecordsView.identifier, q.username, false))
            : contains([loginRecordsView.identifier, accountsView.username], q.username),
          equals(loginRecordsView.method, q.method),
          equals(loginRecordsView.result, q.result),
          dateRange(loginRecordsView.createdAt, q.from, q.to),
        ],
        q,
      ),

    operationRecords: (q: OperationRecordSortedQuery) =>
      operations.page(
        [
          eq(operationRecords.realm, q.realm),
          contains(operationRecords.username, q.username),
          // `account:` is every action of that family; anything else one exact code.
          q.action?.endsWith(':') ? startsWith(operationRecords.action, q.action) : equals(operationRecords.action, q.action),
          equals(operationRecords.result, q.result),
          dateRange(operationRecords.createdAt, q.from, q.to),
        ],
        q,
      ),
  };
}
export type AuditRepository = ReturnType<typeof createAuditRepository>;
