import { and, eq } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { accountsView } from '../../auth/auth.read-model.js';
import { expertConflictsView } from '../../experts/experts.read-model.js';
import { feedbackView } from '../../feedback/feedback.read-model.js';
import { prelimDocsView } from '../../prelim/prelim.read-model.js';
import { teamsView } from '../../team/team.read-model.js';

/** The stored personal information of one record of each kind the reveal call serves (GET /admin/pii/:kind/:id). */
export function createPiiRepository(db: Db) {
  const one = async <T>(rows: Promise<T[]>): Promise<T | undefined> => (await rows)[0];
  return {
    participant: (id: string) =>
      one(
        db
          .select({ username: accountsView.username, phone: accountsView.phone, email: accountsView.email, creditCode: teamsView.creditCode, leader: teamsView.leader })
          .from(accountsView)
          .leftJoin(teamsView, eq(teamsView.ownerId, accountsView.id))
          .where(and(eq(accountsView.id, id), eq(accountsView.realm, 'USER')))
          .limit(1),
      ),

    team: (id: string) =>
      one(
        db
          .select({ teamName: teamsView.teamName, creditCode: teamsView.creditCode, leader: teamsView.leader, members: teamsView.members, advisor: teamsView.advisor, ownerPhone: accountsView.phone })
          .from(teamsView)
          .innerJoin(accountsView, eq(accountsView.id, teamsView.ownerId))
          .where(eq(teamsView.id, id))
          .limit(1),
      ),

    prelim: (id: string) =>
      one(
        db
          .select({ projectName: prelimDocsView.projectName, ownerPhone: accountsView.phone })
          .from(prelimDocsView)
          .innerJoin(accountsView, eq(accountsView.id, prelimDocsView.ownerId))
          .where(eq(prelimDocsView.id, id))
          .limit(1),
      ),

    expert: (id: string) =>
      one(
        db
          .select({ code: accountsView.code, name: accountsView.name, phone: accountsView.phone, orgCreditCode: expertConflictsView.orgCreditCode, declaredOrgs: expertConflictsView.declaredOrgs })
          .from(accountsView)
          .leftJoin(expertConflictsView, eq(expertConflictsView.accountId, accountsView.id))
          .where(and(eq(accountsView.id, id), eq(accountsView.realm, 'EXPERT')))
          .limit(1),
      ),

    feedback: (id: string) =>
      one(
        db
          .select({ username: accountsView.username, contact: feedbackView.contact, ownerPhone: accountsView.phone })
          .from(feedbackView)
          .innerJoin(accountsView, eq(accountsView.id, feedbackView.ownerId))
          .where(eq(feedbackView.id, id))
          .limit(1),
      ),

    operator: (id: string) =>
      one(
        db
          .select({ username: accountsView.username, phone: accountsView.phone, email: accountsView.email })
          .from(accountsView)
          .where(and(eq(accountsView.id, id), eq(accountsView.realm, 'ADMIN')))
          .limit(1),
      ),
  };
}
export type PiiRepository = ReturnType<typeof createPiiRepository>;
