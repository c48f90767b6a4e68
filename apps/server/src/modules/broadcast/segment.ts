import { and, asc, eq, gt, inArray, isNotNull, or, sql, type SQL } from 'drizzle-orm';
import type { Segment } from '@contest/shared';
import type { Db } from '../../db/client.js';
import { accounts, prelimDocs, teams } from '../../db/schema.js';

/**
 * The SQL of a segment (shared/content/broadcast.ts describes them): a condition on `accounts`.
 * Every segment is of enabled participant accounts; a team's messages go to its owner (the
 * account that signed it up), who is also the owner of its materials.
 */
export function segmentCondition(segment: Segment): SQL {
  const participant = and(eq(accounts.realm, 'USER'), eq(accounts.enabled, true))!;
  const ownsTeam = (where: SQL) => sql`exists (select 1 from ${teams} where ${teams.ownerId} = ${accounts.id} and ${where})`;
  switch (segment.kind) {
    case 'ALL':
      return participant;
    case 'TEAM_STATUS':
      return and(participant, ownsTeam(inArray(teams.status, segment.values)))!;
    case 'TRACK':
      return and(participant, ownsTeam(inArray(teams.track, segment.values)))!;
    case 'ACCOUNTS':
      return and(participant, inArray(accounts.id, segment.values))!;
    case 'PRELIM_STATUS': {
      const saved = segment.values.filter((v) => v !== 'NOT_FILLED') as Array<(typeof prelimDocs.status.enumValues)[number]>;
      const terms: SQL[] = [];
      if (saved.length) terms.push(sql`exists (select 1 from ${prelimDocs} where ${prelimDocs.ownerId} = ${accounts.id} and ${inArray(prelimDocs.status, saved)})`);
      // NOT_FILLED (docs/rules/prelim.md): an approved team that has no materials row yet.
      if (saved.length !== segment.values.length) {
        terms.push(ownsTeam(sql`${teams.status} = 'APPROVED' and not exists (select 1 from ${prelimDocs} where ${prelimDocs.teamId} = ${teams.id})`));
      }
      return and(participant, or(...terms))!;
    }
  }
}

/** What a recipient's message needs: where to send it and the values of the text's variables. */
export interface Recipient {
  id: string;
  username: string;
  name: string | null;
  phone: string | null;
  email: string | null;
  teamName: string | null;
  orgName: string | null;
  projectName: string | null;
}

export type Reach = 'ALL' | 'PHONE' | 'EMAIL';

const reachCondition = (reach: Reach): SQL | undefined =>
  reach === 'PHONE' ? and(isNotNull(accounts.phone), sql`${accounts.phone} <> ''`) : reach === 'EMAIL' ? and(isNotNull(accounts.email), sql`${accounts.email} <> ''`) : undefined;

/** Counts of a segment: everyone, and those an SMS or an email reaches. */
export async function countSegment(db: Db, segment: Segment): Promise<{ total: number; withPhone: number; withEmail: number }> {
  const [row] = await db
    .select({
      total: sql<number>`count(*)::int`,
      withPhone: sql<number>`(count(*) filter (where ${reachCondition('PHONE')}))::int`,
      withEmail: sql<number>`(count(*) filter (where ${reachCondition('EMAIL')}))::int`,
    })
    .from(accounts)
    .where(segmentCondition(segment));
  return { total: row?.total ?? 0, withPhone: row?.withPhone ?? 0, withEmail: row?.withEmail ?? 0 };
}

/**
 * One slice of a segment's recipients in id order, after `afterId`: a bulk send walks the
 * segment slice by slice (keyset), so a large segment never sits in memory and a restart
 * walks the same order again.
 */
export function segmentSlice(db: Db, segment: Segment, opts: { reach: Reach; afterId?: string | null; limit: number }): Promise<Recipient[]> {
  return db
    .select({
      id: accounts.id,
      username: accounts.username,
      name: accounts.name,
      phone: accounts.phone,
      email: accounts.email,
      teamName: teams.teamName,
      orgName: teams.orgName,
      projectName: prelimDocs.projectName,
    })
    .from(accounts)
    .leftJoin(teams, eq(teams.ownerId, accounts.id))
    .leftJoin(prelimDocs, eq(prelimDocs.ownerId, accounts.id))
    .where(and(segmentCondition(segment), reachCondition(opts.reach), opts.afterId ? gt(accounts.id, opts.afterId) : undefined))
    .orderBy(asc(accounts.id))
    .limit(opts.limit);
}
