import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrelimAdminDetail } from '@contest/shared';
import { attachments, prelimDocs, teams } from '../../db/schema.js';
import { createSessionService } from '../auth/session.service.js';
import { makePdf, type DocMeta } from '../../../test/blind-helpers.js';
import { api, upload } from '../../../test/contest-helpers.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { seedProjects } from '../../../test/review-helpers.js';
import { signIn, type SignedIn } from '../../../test/sign-in.js';

/**
 * The formal check's blind-review warning (docs/security.md, "Blind review"): the admin's audit
 * detail says where the application's text or metadata names the team's organisation or team
 * name, so the operator can return it. A warning only: the audit itself is not blocked.
 */
let t: TestApp;
let auditor: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  auditor = await signIn(t, { realm: 'ADMIN', buttons: ['preliminary:view', 'preliminary:audit'] });
});
afterAll(async () => t?.close());

const db = () => t.database.db;
const ORG = 'Zhishen Health Technology Co., Ltd.';
const TEAM = 'Pioneer Squad';

/** A submitted project of the organisation ORG (team TEAM) whose application PDF has these pages and metadata. */
async function projectWith(pages: string[], meta: DocMeta = {}): Promise<string> {
  const [prelimId] = await seedProjects(t, 1);
  const [doc] = await db().select({ ownerId: prelimDocs.ownerId, teamId: prelimDocs.teamId }).from(prelimDocs).where(eq(prelimDocs.id, prelimId!));
  await db().update(teams).set({ orgName: ORG, teamName: TEAM }).where(eq(teams.id, doc!.teamId));
  const session = await createSessionService(db()).create({ accountId: doc!.ownerId, realm: 'USER' });
  const owner: SignedIn = { token: session.token, accountId: doc!.ownerId, username: '', headers: { authorization: `Bearer ${session.token}` } };
  const uniqueNo = await upload(t, owner, 'PRELIM', 'application.pdf', await makePdf(pages, meta));
  const [file] = await db().select({ id: attachments.id }).from(attachments).where(eq(attachments.uniqueNo, uniqueNo));
  await db().update(prelimDocs).set({ applicationFileId: file!.id, status: 'SUBMITTED' }).where(eq(prelimDocs.id, prelimId!));
  return prelimId!;
}

const detail = (id: string) => api<PrelimAdminDetail>(t, 'GET', `/api/admin/prelim-doc/${id}`, { headers: auditor.headers });

describe('formal check: the blind-review warning', () => {
  it("warns when the application's text names the organisation (folded: case, spaces, legal suffix)", async () => {
    const id = await projectWith(['Our plan for claims review', 'Prepared by ZHISHEN  health technology, Beijing']);
    const res = await detail(id);
    expect(res.statusCode).toBe(200);
    expect(res.body.data.blindWarnings).toEqual([{ where: 'text', name: 'orgName', value: ORG }]);
  });

  it('warns when the metadata names the team (Author) or the organisation (Producer)', async () => {
    const id = await projectWith(['A neutral plan'], { author: TEAM, producer: `${ORG} office suite` });
    const warnings = (await detail(id)).body.data.blindWarnings;
    expect(warnings).toContainEqual({ where: 'Author', name: 'teamName', value: TEAM });
    expect(warnings).toContainEqual({ where: 'Producer', name: 'orgName', value: ORG });
    expect(warnings.some((w) => w.where === 'text')).toBe(false);
  });

  it('says nothing for an application that names neither, and the audit is not blocked', async () => {
    const id = await projectWith(['A neutral plan about claims review', 'Zhishen is a common word here'], { author: 'Someone', title: 'Plan' });
    const res = await detail(id);
    expect(res.body.data.blindWarnings).toEqual([]);
    const withWarning = await projectWith(['Prepared by Zhishen Health Technology']);
    const before = await detail(withWarning);
    expect(before.body.data.blindWarnings).toHaveLength(1);
    const audit = await api(t, 'POST', `/api/admin/prelim-doc/${withWarning}/audit`, { headers: auditor.headers, body: { outcome: 'APPROVED', reason: '', version: before.body.data.version } });
    expect(audit.statusCode).toBe(200);
  });
});
