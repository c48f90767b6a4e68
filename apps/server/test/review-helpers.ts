import { randomBytes } from 'node:crypto';
import type { ReviewRound } from '@contest/shared';
import { accounts, expertConflicts, expertProfiles, finalEntries, prelimDocs, reviewAssignments, reviewGroupExperts, reviewGroups, teams, type DeclaredOrg } from '../src/db/schema.js';
import { createSessionService } from '../src/modules/auth/session.service.js';
import type { TestApp } from './helpers.js';
import { TEST_PASSWORD, type SignedIn } from './sign-in.js';
import { hashPassword } from '../src/lib/password.js';

/**
 * Seeding for the review tests (docs/rules/review.md): projects (approved materials of approved teams),
 * experts (with profile, organisation and declared conflicts) and groups, written straight into
 * the database so each test builds exactly the situation it checks.
 */

const tag = () => randomBytes(4).toString('hex');
let passwordHash: string | undefined;

export interface ProjectSpec {
  projectName?: string;
  orgName?: string;
  creditCode?: string | null;
  track?: string;
  /** Also put it in the final round (final entry IN). */
  final?: boolean;
}

/** Approved projects; answers their ids (prelim_docs.id) in the order given. */
export async function seedProjects(t: TestApp, specs: ProjectSpec[] | number): Promise<string[]> {
  const list: ProjectSpec[] = typeof specs === 'number' ? Array.from({ length: specs }, () => ({})) : specs;
  if (list.length === 0) return [];
  const db = t.database.db;
  const k = tag();
  const owners = await db
    .insert(accounts)
    .values(list.map((_, i) => ({ realm: 'USER' as const, username: `rp${k}${i}`, roleCode: 'USER' as const, passwordHash: 'x' })))
    .returning({ id: accounts.id });
  const teamRows = await db
    .insert(teams)
    .values(
      owners.map((o, i) => ({
        ownerId: o.id,
        status: 'APPROVED' as const,
        orgName: list[i]!.orgName ?? `参赛单位${k}-${i}`,
        creditCode: list[i]!.creditCode ?? null,
        teamName: `团队${k}-${i}`,
        track: list[i]!.track ?? 'SMART_SUPERVISION',
        members: [{ name: `成员${k}${i}`, organization: list[i]!.orgName ?? `参赛单位${k}-${i}`, title: 'SENIOR', phone: '13800000002', email: 'm@example.com', role: 'DEVELOPER' }],
        leader: { name: `负责人${k}${i}`, phone: '13800000001', email: 'l@example.com', title: 'SENIOR' },
      })),
    )
    .returning({ id: teams.id, ownerId: teams.ownerId });
  const docs = await db
    .insert(prelimDocs)
    .values(
      teamRows.map((team, i) => ({
        teamId: team.id,
        ownerId: team.ownerId,
        status: 'APPROVED' as const,
        projectName: list[i]!.projectName ?? `项目${k}-${String(i).padStart(4, '0')}`,
        track: list[i]!.track ?? 'SMART_SUPERVISION',
        summary: '项目简介',
        keywords: ['医保'],
        submittedAt: new Date(),
        auditedAt: new Date(),
      })),
    )
    .returning({ id: prelimDocs.id });
  const finals = docs.filter((_, i) => list[i]!.final);
  if (finals.length) await db.insert(finalEntries).values(finals.map((d) => ({ prelimId: d.id, status: 'IN' as const })));
  return docs.map((d) => d.id);
}

export interface ExpertSpec {
  name?: string;
  organization?: string;
  orgCreditCode?: string | null;
  declaredOrgs?: DeclaredOrg[];
  tracks?: string[];
  enabled?: boolean;
  /** Accepted the review agreement (default true). */
  agreed?: boolean;
}

export interface SeededExpert extends SignedIn {
  code: string;
  name: string;
}

/** Experts with a live session each (headers ready for /api/expert calls). */
export async function seedExperts(t: TestApp, specs: ExpertSpec[] | number): Promise<SeededExpert[]> {
  const list: ExpertSpec[] = typeof specs === 'number' ? Array.from({ length: specs }, () => ({})) : specs;
  const db = t.database.db;
  passwordHash ??= await hashPassword(TEST_PASSWORD);
  const sessions = createSessionService(db);
  const out: SeededExpert[] = [];
  for (const spec of list) {
    const k = tag();
    const code = `E${String(parseInt(k, 16) % 100_000_000).padStart(8, '0')}`;
    const name = spec.name ?? `专家${k}`;
    const [account] = await db
      .insert(accounts)
      .values({ realm: 'EXPERT', username: `e${k}`, code, name, phone: null, roleCode: 'EXPERT', passwordHash, enabled: spec.enabled ?? true, agreedAt: spec.agreed === false ? null : new Date() })
      .returning({ id: accounts.id });
    await db.insert(expertProfiles).values({ accountId: account!.id, organization: spec.organization ?? `专家单位${k}`, title: '教授', tracks: spec.tracks ?? ['SMART_SUPERVISION'] });
    await db.insert(expertConflicts).values({ accountId: account!.id, orgCreditCode: spec.orgCreditCode ?? null, declaredOrgs: spec.declaredOrgs ?? [] });
    const session = await sessions.create({ accountId: account!.id, realm: 'EXPERT' });
    out.push({ token: session.token, accountId: account!.id, username: `e${k}`, headers: { authorization: `Bearer ${session.token}` }, code, name });
  }
  return out;
}

/** A group of the round with these experts and projects (placed MANUAL, reason 'test'). Answers its id. */
export async function seedGroup(t: TestApp, round: ReviewRound, expertIds: string[], projectIds: string[], name = `组${tag()}`): Promise<string> {
  const db = t.database.db;
  const [group] = await db.insert(reviewGroups).values({ round, name }).returning({ id: reviewGroups.id });
  if (expertIds.length) await db.insert(reviewGroupExperts).values(expertIds.map((expertId) => ({ groupId: group!.id, round, expertId })));
  if (projectIds.length) await db.insert(reviewAssignments).values(projectIds.map((prelimId) => ({ round, prelimId, groupId: group!.id, source: 'MANUAL' as const, reason: 'test' })));
  return group!.id;
}
