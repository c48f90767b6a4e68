/**
 * Test fixtures of the results module (docs/rules/results.md): a round of projects whose owners can sign in,
 * experts of one group scoring every project with one total each (so every aggregate equals
 * it), a promotion confirmed through the API. Not a test file: imported by the *.test.ts here.
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { ReviewRound } from '@contest/shared';
import { prelimDocs, scoreSheets } from '../../db/schema.js';
import { createSessionService } from '../auth/session.service.js';
import { api } from '../../../test/contest-helpers.js';
import type { TestApp } from '../../../test/helpers.js';
import { seedExperts, seedGroup, seedProjects, type SeededExpert } from '../../../test/review-helpers.js';
import type { SignedIn } from '../../../test/sign-in.js';

export interface SeededTeam {
  /** prelim_docs.id */
  id: string;
  teamId: string;
  ownerId: string;
  name: string;
  /** The owner's participant session. */
  headers: { authorization: string };
}

/** Criteria points adding up to `total` (default rubric keys; the final's adds `defense`). */
export function split(total: number, round: ReviewRound = 'PRELIMINARY'): Record<string, number> {
  const half = (v: number) => Math.floor(v * 2) / 2;
  if (round === 'FINAL') {
    const p = { innovation: half(total * 0.2), feasibility: half(total * 0.2), value: half(total * 0.25), completeness: half(total * 0.15) };
    return { ...p, defense: total - p.innovation - p.feasibility - p.value - p.completeness };
  }
  const p = { innovation: half(total * 0.25), feasibility: half(total * 0.25), value: half(total * 0.3) };
  return { ...p, completeness: total - p.innovation - p.feasibility - p.value };
}

/** Approved projects named as given, each with a signed-in owner. */
export async function seedTeams(t: TestApp, names: string[], opts: { final?: boolean } = {}): Promise<Record<string, SeededTeam>> {
  const ids = await seedProjects(
    t,
    names.map((projectName) => ({ projectName, final: opts.final })),
  );
  const rows = await t.database.db.select({ id: prelimDocs.id, teamId: prelimDocs.teamId, ownerId: prelimDocs.ownerId }).from(prelimDocs).where(inArray(prelimDocs.id, ids));
  const sessions = createSessionService(t.database.db);
  const out: Record<string, SeededTeam> = {};
  for (const [i, name] of names.entries()) {
    const row = rows.find((r) => r.id === ids[i])!;
    const { token } = await sessions.create({ realm: 'USER', accountId: row.ownerId });
    out[name] = { id: row.id, teamId: row.teamId, ownerId: row.ownerId, name, headers: { authorization: `Bearer ${token}` } };
  }
  return out;
}

/** One group of `experts` for the projects, and every expert's submitted sheet with the project's total. */
export async function seedScores(t: TestApp, round: ReviewRound, experts: SeededExpert[], totals: Record<string, number>, teams: Record<string, SeededTeam>): Promise<void> {
  const ids = Object.keys(totals).map((n) => teams[n]!.id);
  await seedGroup(t, round, experts.map((x) => x.accountId), ids);
  const at = new Date();
  await t.database.db.insert(scoreSheets).values(
    Object.entries(totals).flatMap(([n, total]) =>
      experts.map((x) => ({ round, prelimId: teams[n]!.id, expertId: x.accountId, status: 'SUBMITTED' as const, scores: split(total, round), total: total * 2, submittedAt: at })),
    ),
  );
}

/** Every sheet of a project re-submitted with a new total (what the experts of a re-review do). */
export async function rescore(t: TestApp, round: ReviewRound, projectId: string, total: number): Promise<void> {
  await t.database.db
    .update(scoreSheets)
    .set({ status: 'SUBMITTED', scores: split(total, round), total: total * 2, submittedAt: new Date(), returnReason: null })
    .where(and(eq(scoreSheets.round, round), eq(scoreSheets.prelimId, projectId)));
}

/** Promotion to the final through the console calls (preview, then confirm with its token). */
export async function promote(t: TestApp, who: SignedIn, body: { mode: 'TOP_OVERALL' | 'TOP_PER_TRACK' | 'PICKED'; n?: number; ids?: string[] }): Promise<void> {
  const preview = await api(t, 'POST', '/api/admin/final/promotion/preview', { headers: who.headers, body });
  if (preview.statusCode !== 200) throw new Error(`promotion preview: ${JSON.stringify(preview.body)}`);
  const confirm = await api(t, 'POST', '/api/admin/final/promotion/confirm', { headers: who.headers, body: { ...body, token: preview.body.data.token } });
  if (confirm.statusCode !== 200) throw new Error(`promotion confirm: ${JSON.stringify(confirm.body)}`);
}

export { seedExperts };
