import { and, asc, count, gt, sql, type SQL } from 'drizzle-orm';
import type { ScoreLogExportQuery, ScoreLogQuery } from '@contest/shared';
import type { Db } from '../../db/client.js';
import { scoreLog } from '../../db/schema/score-log.js';
import { contains, createListQuery, dateRange, equals, type Filters } from '../../lib/list-query.js';
import type { ScoreLogRow } from './score-log.js';

type Filter = Omit<ScoreLogExportQuery, 'format'> | ScoreLogQuery;

/** The search fields as SQL: exact kind, round, seq and subject id; keyword in subject, actor or payload; time range. */
export function scoreLogFilters(q: Filter): Filters {
  return [
    equals(scoreLog.kind, q.kind),
    equals(scoreLog.round, q.round),
    equals(scoreLog.seq, q.seq),
    equals(scoreLog.subjectId, q.subjectId),
    // The payload's text holds the project names, reasons and ids an inspector searches for.
    contains([scoreLog.subjectId, scoreLog.actorName, sql`${scoreLog.payload}::text`], q.keyword),
    dateRange(scoreLog.at, q.from, q.to),
  ];
}

/** Read side of `score_log` (append-only: nothing here writes). */
export function createScoreLogRepository(db: Db) {
  const list = createListQuery({
    rows: () => db.select().from(scoreLog).$dynamic(),
    count: () => db.select({ n: count() }).from(scoreLog).$dynamic(),
    sortable: { seq: scoreLog.seq },
    // Newest first: what happened last is what an admin looks for.
    defaultOrder: [{ column: scoreLog.seq, order: 'desc' }],
    tiebreak: { column: scoreLog.seq, order: 'desc' },
  });
  return {
    page: (q: ScoreLogQuery) => list.page(scoreLogFilters(q), q),
    count: (q: Filter) => list.count(scoreLogFilters(q)),
    /** The next `limit` matching entries after `afterSeq`, in chain order (keyset on the primary key). */
    async batchAfter(q: Filter, afterSeq: number, limit: number): Promise<ScoreLogRow[]> {
      const where: SQL | undefined = and(...(scoreLogFilters(q).filter(Boolean) as SQL[]), gt(scoreLog.seq, afterSeq));
      return db.select().from(scoreLog).where(where).orderBy(asc(scoreLog.seq)).limit(limit);
    },
  };
}
export type ScoreLogRepository = ReturnType<typeof createScoreLogRepository>;
