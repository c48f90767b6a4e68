import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { REVIEW_MSG as M, projectCodeOf, type ExpertOverview, type ExpertProjectDetail, type ExpertProjectRow, type Page } from '@contest/shared';
import { accounts, attachments, finalEntries, operationRecords, prelimDocs, reviewExtraExperts, scoreSheets } from '../../db/schema.js';
import { createSessionService } from '../auth/session.service.js';
import { api, openWindow, setSetting, upload } from '../../../test/contest-helpers.js';
import { makePdf } from '../../../test/blind-helpers.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { seedExperts, seedGroup, seedProjects, type SeededExpert } from '../../../test/review-helpers.js';
import { signIn, type SignedIn } from '../../../test/sign-in.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());
beforeEach(async () => {
  await setSetting(t, 'contest.phases', { prelimReview: openWindow(), finalReview: openWindow() });
});

const db = () => t.database.db;
const base = '/api/expert/review';
const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const full = { innovation: 20, feasibility: 20, value: 20, completeness: 20 };

const get = <T>(who: { headers: Record<string, string> } | null, url: string) => api<T>(t, 'GET', url, { headers: who?.headers });
const save = (who: { headers: Record<string, string> } | null, id: string, body: unknown = { scores: { innovation: 1 } }) =>
  api(t, 'PUT', `${base}/prelim/${id}/sheet`, { headers: who?.headers, body });
const submit = (who: { headers: Record<string, string> } | null, id: string, body: unknown = { scores: full, comment: '好' }) =>
  api(t, 'POST', `${base}/prelim/${id}/sheet/submit`, { headers: who?.headers, body });
// Experts read materials as the review page does: a preview (downloads are off by default, docs/security.md "Blind review").
const stream = (who: { headers: Record<string, string> } | null, uniqueNo: string) =>
  t.app.inject({ method: 'GET', url: `/api/attachment/stream/${uniqueNo}?preview=1`, headers: who?.headers });

/** The project's application PDF, uploaded by its owner as a participant does. */
async function attachApplication(prelimId: string): Promise<string> {
  const [doc] = await db().select({ ownerId: prelimDocs.ownerId }).from(prelimDocs).where(eq(prelimDocs.id, prelimId));
  const session = await createSessionService(db()).create({ accountId: doc!.ownerId, realm: 'USER' });
  const owner: SignedIn = { token: session.token, accountId: doc!.ownerId, username: '', headers: { authorization: `Bearer ${session.token}` } };
  // A real PDF: under blind review an expert gets a copy made from it (metadata stripped).
  const uniqueNo = await upload(t, owner, 'PRELIM', '申报书.pdf', await makePdf(['plan']));
  const [file] = await db().select({ id: attachments.id }).from(attachments).where(eq(attachments.uniqueNo, uniqueNo));
  await db().update(prelimDocs).set({ applicationFileId: file!.id }).where(eq(prelimDocs.id, prelimId));
  return uniqueNo;
}

describe('who may call', () => {
  it('expert calls: 401 for anonymous, participants and admins', async () => {
    const [p1] = await seedProjects(t, 1);
    const user = await signIn(t, { realm: 'USER' });
    const superAdmin = await signIn(t, { realm: 'ADMIN', roleCode: 'SUPER_ADMIN' });
    const calls: ['GET' | 'PUT' | 'POST', string][] = [
      ['GET', `${base}/overview`],
      ['GET', `${base}/prelim/list`],
      ['GET', `${base}/final/list`],
      ['GET', `${base}/prelim/${p1}`],
      ['PUT', `${base}/prelim/${p1}/sheet`],
      ['POST', `${base}/final/${p1}/sheet/submit`],
    ];
    for (const [method, url] of calls) {
      for (const who of [null, user, superAdmin]) {
        const res = await api(t, method, url, { headers: who?.headers, body: { scores: full, comment: '好' } });
        expect(res.statusCode, `${method} ${url}`).toBe(401);
      }
    }
    expect(await db().select().from(scoreSheets).where(eq(scoreSheets.prelimId, p1!))).toEqual([]);
  });

  it('admin calls: 401 for experts and participants, 403 without the round’s return button', async () => {
    const [p1] = await seedProjects(t, [{ final: true }]);
    const [expert] = await seedExperts(t, 1);
    const user = await signIn(t, { realm: 'USER' });
    const noButton = await signIn(t, { realm: 'ADMIN', buttons: ['score:export', 'group:edit'] });
    const prelimOnly = await signIn(t, { realm: 'ADMIN', buttons: ['score:return'] });
    const body = { reason: '复核', mode: 'RETURN_ALL' };
    for (const slug of ['prelim', 'final']) {
      for (const url of [`/api/admin/review/${slug}/sheets/${UNKNOWN}/return`, `/api/admin/review/${slug}/projects/${p1}/rereview`]) {
        expect((await api(t, 'POST', url, { body })).statusCode).toBe(401);
        expect((await api(t, 'POST', url, { headers: expert!.headers, body })).statusCode).toBe(401);
        expect((await api(t, 'POST', url, { headers: user.headers, body })).statusCode).toBe(401);
        expect((await api(t, 'POST', url, { headers: noButton.headers, body })).statusCode).toBe(403);
        expect((await api(t, 'POST', url, { headers: prelimOnly.headers, body })).statusCode).toBe(slug === 'prelim' ? (url.includes('sheets') ? 404 : 400) : 403);
      }
    }
  });
});

describe('the agreement', () => {
  it('before it: overview answers agreed false; list, detail, save and submit answer 403', async () => {
    const [p1] = await seedProjects(t, 1);
    const [expert] = await seedExperts(t, [{ agreed: false }]);
    await seedGroup(t, 'PRELIMINARY', [expert!.accountId], [p1!]);
    const ov = await get<ExpertOverview>(expert!, `${base}/overview`);
    expect(ov.statusCode).toBe(200);
    expect(ov.body.data.agreed).toBe(false);
    expect(ov.body.data.rounds.map((r) => r.round)).toEqual(['PRELIMINARY', 'FINAL']);
    for (const res of [await get(expert!, `${base}/prelim/list`), await get(expert!, `${base}/prelim/${p1}`), await save(expert!, p1!), await submit(expert!, p1!)]) {
      expect(res.statusCode).toBe(403);
      expect(res.body.message).toBe(M.agreementRequired);
      expect(res.body.data).toMatchObject({ reason: 'AGREEMENT_REQUIRED' });
    }
    expect(await db().select().from(scoreSheets).where(eq(scoreSheets.prelimId, p1!))).toEqual([]);

    // Accepting takes effect at once.
    await db().update(accounts).set({ agreedAt: new Date() }).where(eq(accounts.id, expert!.accountId));
    expect((await get(expert!, `${base}/prelim/${p1}`)).statusCode).toBe(200);
    expect((await get<ExpertOverview>(expert!, `${base}/overview`)).body.data.agreed).toBe(true);
  });

  it("before it: the project's files answer 404 too (stream and signed-link issuer); after it they open", async () => {
    const [p1] = await seedProjects(t, 1);
    const [expert] = await seedExperts(t, [{ agreed: false }]);
    await seedGroup(t, 'PRELIMINARY', [expert!.accountId], [p1!]);
    const uniqueNo = await attachApplication(p1!);
    expect((await stream(expert!, uniqueNo)).statusCode).toBe(404);
    expect((await get(expert!, `/api/attachment/accessUrl?filePath=${uniqueNo}`)).statusCode).toBe(404);

    await db().update(accounts).set({ agreedAt: new Date() }).where(eq(accounts.id, expert!.accountId));
    expect((await stream(expert!, uniqueNo)).statusCode).toBe(200);
    expect((await get(expert!, `/api/attachment/accessUrl?filePath=${uniqueNo}`)).statusCode).toBe(200);
  });
});

describe('what an expert sees', () => {
  /**
   * One project with its application file, in one group with an assigned expert and three
   * experts in conflict with it (by a variant of the organisation's name, by credit code, by a
   * declared organisation); an expert of another group; a disabled expert of the group.
   */
  async function situation() {
    const k = Math.random().toString(36).slice(2, 8);
    const orgName = `北京${k}医疗科技有限公司`;
    const creditCode = `91110000${k.toUpperCase().padEnd(9, '0')}X`.slice(0, 18);
    const [project, other] = await seedProjects(t, [{ orgName, creditCode }, {}]);
    const [assigned, byName, byCode, byDeclared, elsewhere, disabled] = await seedExperts(t, [
      {},
      { organization: `北京${k}医疗科技（有限公司）` },
      { organization: '另一家单位', orgCreditCode: creditCode },
      { declaredOrgs: [{ name: `北京 ${k} 医疗科技` }] },
      {},
      { enabled: false },
    ]);
    await seedGroup(t, 'PRELIMINARY', [assigned, byName, byCode, byDeclared, disabled].map((e) => e!.accountId), [project!, other!]);
    await seedGroup(t, 'PRELIMINARY', [elsewhere!.accountId], []);
    const uniqueNo = await attachApplication(project!);
    return { project: project!, other: other!, assigned: assigned!, conflicted: [byName!, byCode!, byDeclared!], elsewhere: elsewhere!, disabled: disabled!, uniqueNo, orgName };
  }

  const expect404 = async (who: SeededExpert, id: string, uniqueNo: string | null) => {
    const d = await get(who, `${base}/prelim/${id}`);
    expect(d.statusCode).toBe(404);
    expect(d.body.message).toBe(M.sheetNotFound);
    for (const res of [await save(who, id), await submit(who, id)]) {
      expect(res.statusCode).toBe(404);
      expect(res.body.message).toBe(M.sheetNotFound);
    }
    if (uniqueNo) expect((await stream(who, uniqueNo)).statusCode).toBe(404);
  };

  it('the assigned expert sees the project and streams its file', async () => {
    const s = await situation();
    const d = await get<ExpertProjectDetail>(s.assigned, `${base}/prelim/${s.project}`);
    expect(d.statusCode).toBe(200);
    // Blind review: the file is named by project code and kind, never by its upload name.
    expect(d.body.data.application).toEqual({ uniqueNo: s.uniqueNo, name: `${projectCodeOf(s.project)}-申报书.pdf`, extension: 'pdf', size: expect.any(Number), filePath: `/api/attachment/stream/${s.uniqueNo}` });
    expect(JSON.stringify(d.body)).not.toContain(s.orgName);
    const file = await stream(s.assigned, s.uniqueNo);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await get<Page<ExpertProjectRow>>(s.assigned, `${base}/prelim/list`)).body.data.total).toBe(2);
  });

  it('conflicted experts (name variant, credit code, declared organisation): 404 on detail, save, submit and the file; absent from the list', async () => {
    const s = await situation();
    for (const expert of s.conflicted) {
      await expect404(expert, s.project, s.uniqueNo);
      const rows = (await get<Page<ExpertProjectRow>>(expert, `${base}/prelim/list`)).body.data;
      expect(rows.list.map((r) => r.id)).toEqual([s.other]);
      expect((await get<ExpertOverview>(expert, `${base}/overview`)).body.data.rounds[0]!.assigned).toBe(1);
      // The other project of the group is theirs to score.
      expect((await get(expert, `${base}/prelim/${s.other}`)).statusCode).toBe(200);
    }
    expect(await db().select().from(scoreSheets).where(eq(scoreSheets.prelimId, s.project))).toEqual([]);
  });

  it('an expert of another group, an unknown project, and a project of another round: the same 404', async () => {
    const s = await situation();
    await expect404(s.elsewhere, s.project, s.uniqueNo);
    await expect404(s.assigned, UNKNOWN, null);
    // In the preliminary group only: nothing in the final round.
    expect((await get(s.assigned, `${base}/final/${s.project}`)).statusCode).toBe(404);
    expect((await get<Page<ExpertProjectRow>>(s.elsewhere, `${base}/prelim/list`)).body.data.total).toBe(0);
    expect((await get(s.assigned, `${base}/prelim/not-a-uuid`)).statusCode).toBe(400);
  });

  it('the file: an expert added for re-review streams it unless in conflict; a final group only once the project is in the final', async () => {
    const s = await situation();
    const [added, finalist] = await seedExperts(t, 2);
    const addedInConflict = s.conflicted[0]!;
    await seedGroup(t, 'FINAL', [finalist!.accountId], []);
    // Re-review additions: the outsider gets the file, the conflicted expert still does not.
    expect((await stream(s.elsewhere, s.uniqueNo)).statusCode).toBe(404);
    await db().insert(reviewExtraExperts).values([
      { round: 'PRELIMINARY', prelimId: s.project, expertId: s.elsewhere.accountId, reason: '复评' },
      { round: 'PRELIMINARY', prelimId: s.project, expertId: addedInConflict.accountId, reason: '复评' },
    ]);
    expect((await stream(s.elsewhere, s.uniqueNo)).statusCode).toBe(200);
    expect((await stream(addedInConflict, s.uniqueNo)).statusCode).toBe(404);
    // A final-round addition counts only while the project is in the final round.
    await db().insert(reviewExtraExperts).values({ round: 'FINAL', prelimId: s.project, expertId: finalist!.accountId, reason: '复评' });
    expect((await stream(finalist!, s.uniqueNo)).statusCode).toBe(404);
    await db().insert(finalEntries).values({ prelimId: s.project, status: 'IN' });
    expect((await stream(finalist!, s.uniqueNo)).statusCode).toBe(200);
    expect((await stream(added!, s.uniqueNo)).statusCode).toBe(404);
  });

  it('a disabled expert sees nothing', async () => {
    const s = await situation();
    for (const res of [
      await get(s.disabled, `${base}/overview`),
      await get(s.disabled, `${base}/prelim/list`),
      await get(s.disabled, `${base}/prelim/${s.project}`),
      await save(s.disabled, s.project),
    ]) {
      expect(res.statusCode).toBe(401);
    }
    expect((await stream(s.disabled, s.uniqueNo)).statusCode).not.toBe(200);
    // Disabled after signing in: the session dies with it.
    await db().update(accounts).set({ enabled: false }).where(eq(accounts.id, s.assigned.accountId));
    expect((await get(s.assigned, `${base}/prelim/${s.project}`)).statusCode).toBe(401);
    expect((await stream(s.assigned, s.uniqueNo)).statusCode).not.toBe(200);
  });

  it('one expert never sees another’s sheet', async () => {
    const [p1] = await seedProjects(t, 1);
    const [a, b] = await seedExperts(t, 2);
    await seedGroup(t, 'PRELIMINARY', [a!.accountId, b!.accountId], [p1!]);
    expect((await submit(a!, p1!, { scores: full, comment: 'A 的评语' })).statusCode).toBe(200);
    const seen = await get<ExpertProjectDetail>(b!, `${base}/prelim/${p1}`);
    expect(seen.body.data.sheet).toBeNull();
    expect(JSON.stringify(seen.body)).not.toContain('A 的评语');
    // b's own save creates b's own sheet; a's stays as submitted.
    expect((await save(b!, p1!, { scores: { innovation: 3 }, comment: 'B' })).statusCode).toBe(200);
    const rows = await db().select().from(scoreSheets).where(eq(scoreSheets.prelimId, p1!));
    expect(rows.map((r) => [r.expertId, r.status]).sort()).toEqual(
      [
        [a!.accountId, 'SUBMITTED'],
        [b!.accountId, 'DRAFT'],
      ].sort(),
    );
    expect((await get<ExpertProjectDetail>(a!, `${base}/prelim/${p1}`)).body.data.sheet!.comment).toBe('A 的评语');
    // Expert writes are recorded as the expert's operations.
    const ops = await db().select().from(operationRecords).where(eq(operationRecords.accountId, b!.accountId));
    expect(ops.map((o) => [o.realm, o.action])).toEqual([['EXPERT', 'review:save']]);
  });
});
