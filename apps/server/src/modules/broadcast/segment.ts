import { and, asc, eq, gt, inArray, isNotNull, or, sql, type SQL } from 'drizzle-orm';
import type { Segment } from '@contest/shared';
import type { Db } from '../../db/client.js';
import { accountsView } from '../auth/auth.read-model.js';
import { finalEntriesView } from '../final-entries/final-entries.read-model.js';
import { prelimDocsView } from '../prelim/prelim.read-model.js';
import { resultEntriesView, resultVersionsView } from '../results/results.read-model.js';
import { teamsView } from '../team/team.read-model.js';

/**
 * The SQL of a segment (shared/content/broadcast.ts describes them): a condition on `accounts`.
 * Every segment is of enabled participant accounts; a team's messages go to its owner (the
 * account that signed it up), who is also the owner of its materials.
 */
export function segmentCondition(segment: Segment): SQL {
  const participant = and(eq(accountsView.realm, 'USER'), eq(accountsView.enabled, true))!;
  const ownsTeam = (where: SQL) => sql`exists (select 1 from ${teamsView} where ${teamsView.ownerId} = ${accountsView.id} and ${where})`;
  switch (segment.kind) {
    case 'ALL':
      return participant;
    case 'TEAM_STATUS':
      return and(participant, ownsTeam(inArray(teamsView.status, segment.values)))!;
    case 'TRACK':
      return and(participant, ownsTeam(inArray(teamsView.track, segment.values)))!;
    case 'ACCOUNTS':
      return and(participant, inArray(accountsView.id, segment.values))!;
    case 'FINALIST':
      // A project in the final round: its final entry is IN (the materials' owner is the team's).
      return and(
        participant,
        sql`exists (select 1 from ${finalEntriesView} inner join ${prelimDocsView} on ${prelimDocsView.id} = ${finalEntriesView.prelimId} where ${prelimDocsView.ownerId} = ${accountsView.id} and ${finalEntriesView.status} = 'IN')`,
      )!;
    case 'RESULT': {
      // The team's line in the round's current (PUBLISHED) version has one of the outcomes.
      const pairs = segment.values.map((v) => {
        const [round, outcome] = v.split(':') as [string, string];
        return sql`(${resultVersionsView.round} = ${round} and ${resultEntriesView.outcome} = ${outcome})`;
      });
      return and(
        participant,
        ownsTeam(
          sql`exists (select 1 from ${resultEntriesView} inner join ${resultVersionsView} on ${resultVersionsView.id} = ${resultEntriesView.versionId} where ${resultEntriesView.teamId} = ${teamsView.id} and ${resultVersionsView.status} = 'PUBLISHED' and (${sql.join(pairs, sql` or `)}))`,
        ),
      )!;
    }
    case 'PRELIM_STATUS': {
      const saved = segment.values.filter((v) => v !== 'NOT_FILLED') as Array<(typeof prelimDocsView.status.enumValues)[number]>;
      const terms: SQL[] = [];
      if (saved.length) terms.push(sql`exists (select 1 from ${prelimDocsView} where ${prelimDocsView.ownerId} = ${accountsView.id} and ${inArray(prelimDocsView.status, saved)})`);
      // NOT_FILLED (docs/rules/prelim.md): an approved team that has no materials row yet.
      if (saved.length !== segment.values.length) {
        terms.push(ownsTeam(sql`${teamsView.status} = 'APPROVED' and not exists (select 1 from ${prelimDocsView} where ${prelimDocsView.teamId} = ${teamsView.id})`));
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
  reach === 'PHONE' ? and(isNotNull(accountsView.phone), sql`${accountsView.phone} <> ''`) : reach === 'EMAIL' ? and(isNotNull(accountsView.email), sql`${accountsView.email} <> ''`) : undefined;

/** Counts of a segment: everyone, and those an SMS or an email reaches. */
export async function countSegment(db: Db, segment: Segment): Promise<{ total: number; withPhone: number; withEmail: number }> {
  const [row] = await db
    .select({
      total: sql<number>`count(*)::int`,
      withPhone: sql<number>`(count(*) filter (where ${reachCondition('PHONE')}))::int`,
      withEmail: sql<number>`(count(*) filter (where ${reachCondition('EMAIL')}))::int`,
    })
    .from(accountsView)
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
      id: accountsView.id,
      username: accountsView.username,
      name: accountsView.name,
      phone: accountsView.phone,
      email: accountsView.email,
      teamName: teamsView.teamName,
      orgName: teamsView.orgName,
      projectName: prelimDocsView.projectName,
    })
    .from(accountsView)
    .leftJoin(teamsView, eq(teamsView.ownerId, accountsView.id))
    .leftJoin(prelimDocsView, eq(prelimDocsView.ownerId, accountsView.id))
    .where(and(segmentCondition(segment), reachCondition(opts.reach), opts.afterId ? gt(accountsView.id, opts.afterId) : undefined))
    .orderBy(asc(accountsView.id))
    .limit(opts.limit);
}
