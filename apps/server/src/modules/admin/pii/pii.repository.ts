import { and, eq } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { accounts, expertConflicts, feedback, prelimDocs, teams } from '../../../db/schema.js';

/** The stored personal information of one record of each kind the reveal call serves (GET /admin/pii/:kind/:id). */
export function createPiiRepository(db: Db) {
  const one = async <T>(rows: Promise<T[]>): Promise<T | undefined> => (await rows)[0];
  return {
    participant: (id: string) =>
      one(
        db
          .select({ username: accounts.username, phone: accounts.phone, email: accounts.email, creditCode: teams.creditCode, leader: teams.leader })
          .from(accounts)
          .leftJoin(teams, eq(teams.ownerId, accounts.id))
          .where(and(eq(accounts.id, id), eq(accounts.realm, 'USER')))
          .limit(1),
      ),

    team: (id: string) =>
      one(
        db
          .select({ teamName: teams.teamName, creditCode: teams.creditCode, leader: teams.leader, members: teams.members, advisor: teams.advisor, ownerPhone: accounts.phone })
          .from(teams)
          .innerJoin(accounts, eq(accounts.id, teams.ownerId))
          .where(eq(teams.id, id))
          .limit(1),
      ),

    prelim: (id: string) =>
      one(
        db
          .select({ projectName: prelimDocs.projectName, ownerPhone: accounts.phone })
          .from(prelimDocs)
          .innerJoin(accounts, eq(accounts.id, prelimDocs.ownerId))
          .where(eq(prelimDocs.id, id))
          .limit(1),
      ),

    expert: (id: string) =>
      one(
        db
          .select({ code: accounts.code, name: accounts.name, phone: accounts.phone, orgCreditCode: expertConflicts.orgCreditCode, declaredOrgs: expertConflicts.declaredOrgs })
          .from(accounts)
          .leftJoin(expertConflicts, eq(expertConflicts.accountId, accounts.id))
          .where(and(eq(accounts.id, id), eq(accounts.realm, 'EXPERT')))
          .limit(1),
      ),

    feedback: (id: string) =>
      one(
        db
          .select({ username: accounts.username, contact: feedback.contact, ownerPhone: accounts.phone })
          .from(feedback)
          .innerJoin(accounts, eq(accounts.id, feedback.ownerId))
          .where(eq(feedback.id, id))
          .limit(1),
      ),

    operator: (id: string) =>
      one(
        db
          .select({ username: accounts.username, phone: accounts.phone, email: accounts.email })
          .from(accounts)
          .where(and(eq(accounts.id, id), eq(accounts.realm, 'ADMIN')))
          .limit(1),
      ),
  };
}
export type PiiRepository = ReturnType<typeof createPiiRepository>;
