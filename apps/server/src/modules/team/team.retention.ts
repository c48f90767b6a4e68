/**
 * The team module's part of retention (docs/retention.md): the people of a sign-up lose their
 * names, phones and e-mails; the team, its organisation and its results stay. Called by
 * modules/retention inside its transactions (this module owns the table).
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { teams, type TeamPerson } from '../../db/schema/team.js';

const strip = (p: TeamPerson, name: string): TeamPerson => {
  const { phone: _phone, email: _email, name: _name, ...rest } = p;
  return { ...rest, name };
};

/**
 * The sign-up of `ownerId`: leader = alias, members alias·成员n, advisor alias·指导老师; phones and
 * e-mails removed; the credit code (an ID-like field) cleared. Answers the team's id and the former
 * names (to replace them in other texts), or null when the participant has no sign-up. Idempotent.
 */
export async function anonymiseTeamOf(tx: Db, ownerId: string, alias: string): Promise<{ teamId: string; names: string[] } | null> {
  const [team] = await tx.select({ id: teams.id, leader: teams.leader, members: teams.members, advisor: teams.advisor }).from(teams).where(eq(teams.ownerId, ownerId)).for('update');
  if (!team) return null;
  const names = [team.leader?.name, ...team.members.map((m) => m.name), team.advisor?.name].filter((n): n is string => !!n);
  await tx
    .update(teams)
    .set({
      leader: team.leader ? strip(team.leader, alias) : null,
      members: team.members.map((m, i) => strip(m, `${alias}·成员${i + 1}`)),
      advisor: team.advisor ? strip(team.advisor, `${alias}·指导老师`) : null,
      creditCode: null,
    })
    .where(eq(teams.id, team.id));
  return { teamId: team.id, names };
}
