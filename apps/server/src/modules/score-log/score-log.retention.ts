/**
 * The score log's part of retention (docs/retention.md, "The score log"). Form-2 entries hash
 * `v` and not `actorName` (docs/api-results.md, "The canonical form"), so an anonymised person's
 * name in them is replaced by the pseudonym and the chain still verifies; the expert code in
 * brackets stays (it names nobody once the account is anonymised). Form-1 entries hashed the name:
 * they keep it, or the chain and every published head would break; they are counted so the run
 * says how many.
 */
import { and, count, eq, gte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { scoreLog } from '../../db/schema/score-log.js';

export async function anonymiseScoreLogActor(tx: Db, accountId: string, alias: string): Promise<{ renamed: number; keptHashed: number }> {
  // "张三（E0001）" -> "专家#3（E0001）": the bracketed code kept, the name before it replaced.
  const renamed = await tx
    .update(scoreLog)
    .set({ actorName: sql`${alias}::text || coalesce(substring(${scoreLog.actorName} from '（[^（）]*）$'), '')` })
    .where(and(eq(scoreLog.actorId, accountId), gte(scoreLog.v, 2)))
    .returning({ seq: scoreLog.seq });
  const [kept] = await tx
    .select({ n: count() })
    .from(scoreLog)
    .where(and(eq(scoreLog.actorId, accountId), sql`${scoreLog.v} < 2`));
  return { renamed: renamed.length, keptHashed: kept?.n ?? 0 };
}
