import { and, count, desc, eq, gte, ilike, like, lt, or, type SQL } from 'drizzle-orm';
import type { LoginRecordQuery, OperationRecordQuery } from '@contest/shared';
import type { Db } from '../../db/client.js';
import { accounts, loginRecords, operationRecords } from '../../db/schema.js';
import { containsPattern, createCountCache, rangeEndExclusive, rangeStart } from '../admin/admin-util.js';

/** Read side of the audit tables. Nothing here writes: records are append-only. */
export function createAuditRepository(db: Db) {
  const loginTotals = createCountCache();
  const operationTotals = createCountCache();
  // The filters without paging: the key of a total.
  const filterKey = ({ page: _page, size: _size, ...filters }: { page: number; size: number }) => JSON.stringify(filters);
  return {
    async loginRecords(q: LoginRecordQuery) {
      const where: SQL[] = [eq(loginRecords.realm, q.realm)];
      if (q.username) {
        const pattern = containsPattern(q.username);
        where.push(or(ilike(loginRecords.identifier, pattern), ilike(accounts.username, pattern))!);
      }
      if (q.method) where.push(eq(loginRecords.method, q.method));
      if (q.result) where.push(eq(loginRecords.result, q.result));
      const from = rangeStart(q.from);
      const to = rangeEndExclusive(q.to);
      if (from) where.push(gte(loginRecords.createdAt, from));
      if (to) where.push(lt(loginRecords.createdAt, to));
      const cond = and(...where);
      const [rows, total] = await Promise.all([
        db
          .select({ record: loginRecords, username: accounts.username, name: accounts.name })
          .from(loginRecords)
          .leftJoin(accounts, eq(accounts.id, loginRecords.accountId))
          .where(cond)
          .orderBy(desc(loginRecords.createdAt), desc(loginRecords.id))
          .limit(q.size)
          .offset((q.page - 1) * q.size),
        loginTotals(filterKey(q), async () =>
          (await db.select({ n: count() }).from(loginRecords).leftJoin(accounts, eq(accounts.id, loginRecords.accountId)).where(cond))[0]?.n ?? 0,
        ),
      ]);
      return { rows, total };
    },

    async operationRecords(q: OperationRecordQuery) {
      const where: SQL[] = [eq(operationRecords.realm, q.realm)];
      if (q.username) where.push(ilike(operationRecords.username, containsPattern(q.username)));
      if (q.action) {
        where.push(q.action.endsWith(':') ? like(operationRecords.action, `${q.action.replace(/[\\%_]/g, (c) => `\\${c}`)}%`) : eq(operationRecords.action, q.action));
      }
      if (q.result) where.push(eq(operationRecords.result, q.result));
      const from = rangeStart(q.from);
      const to = rangeEndExclusive(q.to);
      if (from) where.push(gte(operationRecords.createdAt, from));
      if (to) where.push(lt(operationRecords.createdAt, to));
      const cond = and(...where);
      const [rows, total] = await Promise.all([
        db
          .select()
          .from(operationRecords)
          .where(cond)
          .orderBy(desc(operationRecords.createdAt), desc(operationRecords.id))
          .limit(q.size)
          .offset((q.page - 1) * q.size),
        operationTotals(filterKey(q), async () => (await db.select({ n: count() }).from(operationRecords).where(cond))[0]?.n ?? 0),
      ]);
      return { rows, total };
    },
  };
}
export type AuditRepository = ReturnType<typeof createAuditRepository>;
