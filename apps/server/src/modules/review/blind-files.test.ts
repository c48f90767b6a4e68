import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EXPERT_DOWNLOAD_REASONS, EXPERT_FILE_MSG, maskAccountName, maskPersonName, projectCodeOf, type ExpertProjectDetail, type FileAccessUrl } from '@contest/shared';
import { accounts, attachments, operationRecords, prelimDocs } from '../../db/schema.js';
import { createSessionService } from '../auth/session.service.js';
import { api, openWindow, setSetting, upload } from '../../../test/contest-helpers.js';
import { makeDocx, makePdf, officeXml, pdfMetadata, pdfPageTexts } from '../../../test/blind-helpers.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { seedExperts, seedGroup, seedProjects, type SeededExpert } from '../../../test/review-helpers.js';
import { signIn, type SignedIn } from '../../../test/sign-in.js';

/**
 * Blind review of files (docs/security.md, "Blind review"): what an expert receives
 * names no team (file names, headers, metadata), downloads follow 专家下载材料 and carry the
 * expert's watermark, and an expert's signed link works for that expert's session only.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());
beforeEach(async () => {
  await setSetting(t, 'contest.phases', { prelimReview: openWindow(), finalReview: openWindow() });
  await setSetting(t, 'review.blind', undefined);
  await setSetting(t, 'review.expertDownload', undefined);
});

const db = () => t.database.db;
const ORIGINAL = '智审先锋队申报书.pdf';
const TEAM = 'Zhishen Pioneers';
type Who = { headers: Record<string, string> } | null;

const stream = (who: Who, uniqueNo: string, query = '', headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url: `/api/attachment/stream/${uniqueNo}${query}`, headers: { ...who?.headers, ...headers } });

interface Project {
  prelimId: string;
  owner: SignedIn;
  pdf: string;
  pdfBytes: Buffer;
  docx: string;
  expert: SeededExpert;
  other: SeededExpert;
}

/** A project in review with an application PDF and a docx attachment naming the team, and two experts on it. */
async function project(): Promise<Project> {
  const [prelimId] = await seedProjects(t, 1);
  const [expert, other] = await seedExperts(t, 2);
  await seedGroup(t, 'PRELIMINARY', [expert!.accountId, other!.accountId], [prelimId!]);
  const [doc] = await db().select({ ownerId: prelimDocs.ownerId }).from(prelimDocs).where(eq(prelimDocs.id, prelimId!));
  const session = await createSessionService(db()).create({ accountId: doc!.ownerId, realm: 'USER' });
  const owner: SignedIn = { token: session.token, accountId: doc!.ownerId, username: '', headers: { authorization: `Bearer ${session.token}` } };
  const pdfBytes = await makePdf(['Page one of the plan', 'Page two', 'Page three'], {
    author: TEAM,
    title: `${TEAM} plan`,
    subject: TEAM,
    keywords: TEAM,
    creator: TEAM,
    producer: TEAM,
  });
  const pdf = await upload(t, owner, 'PRELIM', ORIGINAL, pdfBytes);
  const docx = await upload(t, owner, 'PRELIM', '智审先锋队附件.docx', await makeDocx({ author: TEAM, company: TEAM, title: TEAM, custom: TEAM }));
  const idOf = async (uniqueNo: string) => (await db().select({ id: attachments.id }).from(attachments).where(eq(attachments.uniqueNo, uniqueNo)))[0]!.id;
  await db()
    .update(prelimDocs)
    .set({ applicationFileId: await idOf(pdf), otherFileIds: [await idOf(docx)] })
    .where(eq(prelimDocs.id, prelimId!));
  return { prelimId: prelimId!, owner, pdf, pdfBytes, docx, expert: expert!, other: other! };
}

const decoded = (header: unknown) => decodeURIComponent(String(header));

describe('blind review: names', () => {
  it('the expert sees project code + kind in the detail, the signed-link answer and every download header; never the upload name', async () => {
    const p = await project();
    const code = projectCodeOf(p.prelimId);
    const detail = await api<ExpertProjectDetail>(t, 'GET', `/api/expert/review/prelim/${p.prelimId}`, { headers: p.expert.headers });
    expect(detail.statusCode).toBe(200);
    expect(detail.body.data.application!.name).toBe(`${code}-申报书.pdf`);
    expect(detail.body.data.others.map((f) => f.name)).toEqual([`${code}-附件1.docx`]);
    expect(detail.body.data.download).toBe('none');
    expect(JSON.stringify(detail.body)).not.toContain('智审先锋队');

    const link = await api<FileAccessUrl>(t, 'GET', `/api/attachment/accessUrl?filePath=${p.pdf}`, { headers: p.expert.headers });
    expect(link.body.data.name).toBe(`${code}-申报书.pdf`);
    expect(JSON.stringify(link.body)).not.toContain('智审先锋队');

    const viaToken = await stream(p.expert, p.pdf, '?preview=1');
    expect(viaToken.statusCode).toBe(200);
    expect(decoded(viaToken.headers['content-disposition'])).toContain(`${code}-申报书.pdf`);
    const cookie = String(link.headers['set-cookie']).split(';')[0]!;
    const viaLink = await t.app.inject({ method: 'GET', url: `${link.body.data.url}&preview=1`, headers: { cookie } });
    expect(viaLink.statusCode).toBe(200);
    for (const res of [viaToken, viaLink]) {
      expect(JSON.stringify(res.headers)).not.toContain(encodeURIComponent('智审先锋队'));
      expect(decoded(res.headers['content-disposition'])).not.toContain('智审先锋队');
    }
  });

  it('with blind review off the expert sees the upload name (and the team), and gets the stored bytes to preview', async () => {
    const p = await project();
    await setSetting(t, 'review.blind', false);
    const detail = await api<ExpertProjectDetail>(t, 'GET', `/api/expert/review/prelim/${p.prelimId}`, { headers: p.expert.headers });
    expect(detail.body.data.application!.name).toBe(ORIGINAL);
    const res = await stream(p.expert, p.pdf, '?preview=1');
    expect(decoded(res.headers['content-disposition'])).toContain(ORIGINAL);
    expect(res.rawPayload.equals(p.pdfBytes)).toBe(true);
  });
});

describe('blind review: metadata', () => {
  it('the PDF an expert previews has no Info dictionary and no XMP; a Range request gets the whole copy, never the stored bytes', async () => {
    const p = await project();
    const before = await pdfMetadata(p.pdfBytes);
    expect(before.info.author).toBe(TEAM);
    expect(before.xmp).toBe(true);

    const res = await stream(p.expert, p.pdf, '?preview=1');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const after = await pdfMetadata(res.rawPayload);
    expect(after.info).toEqual({ author: undefined, title: undefined, subject: undefined, keywords: undefined, creator: undefined, producer: undefined });
    expect(after.xmp).toBe(false);
    expect(after.text).not.toContain(TEAM);
    expect(await pdfPageTexts(res.rawPayload)).toEqual(await pdfPageTexts(p.pdfBytes));

    const ranged = await stream(p.expert, p.pdf, '?preview=1', { range: 'bytes=0-99' });
    expect(ranged.statusCode).toBe(200);
    expect(ranged.headers['content-range']).toBeUndefined();
    expect(ranged.rawPayload.equals(res.rawPayload)).toBe(true);
    expect(ranged.rawPayload.toString('latin1')).not.toContain(TEAM);
  });

  it('the docx an expert downloads (downloads: all) has no author, company, title, custom properties or revision authors', async () => {
    const p = await project();
    await setSetting(t, 'review.expertDownload', 'all');
    const res = await stream(p.expert, p.docx);
    expect(res.statusCode).toBe(200);
    expect(decoded(res.headers['content-disposition'])).toContain(`${projectCodeOf(p.prelimId)}-附件1.docx`);
    const xml = await officeXml(res.rawPayload);
    expect(xml).not.toContain(TEAM);
    expect(xml).toContain('方案正文');
  });

  it('a PDF that cannot be copied (unreadable) is refused, never sent as stored', async () => {
    const p = await project();
    const broken = await upload(t, p.owner, 'PRELIM', '智审先锋队附录.pdf', Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.from(`/Author (${TEAM})`), randomBytes(500)]));
    const [file] = await db().select({ id: attachments.id }).from(attachments).where(eq(attachments.uniqueNo, broken));
    await db().update(prelimDocs).set({ otherFileIds: [file!.id] }).where(eq(prelimDocs.id, p.prelimId));
    const res = await stream(p.expert, broken, '?preview=1');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: EXPERT_FILE_MSG.blindCopyFailed, data: { reason: 'BLIND_COPY_FAILED' } });
    expect(res.body).not.toContain(TEAM);
  });

  it('admins and the owning team still get the stored file under its own name', async () => {
    const p = await project();
    const admin = await signIn(t, { realm: 'ADMIN', roleCode: 'SUPER_ADMIN' });
    for (const who of [admin, p.owner]) {
      const res = await stream(who, p.pdf);
      expect(res.statusCode).toBe(200);
      expect(decoded(res.headers['content-disposition'])).toContain(ORIGINAL);
      expect(res.rawPayload.equals(p.pdfBytes)).toBe(true);
      const link = await api<FileAccessUrl>(t, 'GET', `/api/attachment/accessUrl?filePath=${p.pdf}`, { headers: who.headers });
      expect(link.body.data.name).toBe(ORIGINAL);
      expect(link.headers['set-cookie']).toBeUndefined();
    }
  });
});

describe('expert downloads (专家下载材料)', () => {
  it('off by default: a download is 403 with the reason, a preview works', async () => {
    const p = await project();
    for (const [uniqueNo, query] of [
      [p.pdf, ''],
      [p.docx, ''],
      // A docx cannot be previewed: asking for a preview of it is a download.
      [p.docx, '?preview=1'],
      [p.pdf, '?redirect=1'],
    ] as const) {
      const res = await stream(p.expert, uniqueNo, query);
      expect(res.statusCode, `${uniqueNo}${query}`).toBe(403);
      expect(res.json()).toMatchObject({ message: EXPERT_FILE_MSG.downloadOff, data: { reason: EXPERT_DOWNLOAD_REASONS.off } });
    }
    expect((await stream(p.expert, p.pdf, '?preview=1')).statusCode).toBe(200);
  });

  it("'pdf': a PDF comes stamped on every page with the expert's code, masked name and the time; other kinds are 403", async () => {
    const p = await project();
    await setSetting(t, 'review.expertDownload', 'pdf');
    const res = await stream(p.expert, p.pdf);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment;/);
    const pages = await pdfPageTexts(res.rawPayload, { wholePlane: true });
    expect(pages).toHaveLength(3);
    for (const text of pages) {
      // Tiled: the page is covered, not marked once in a corner.
      expect(text.split(p.expert.code).length - 1).toBeGreaterThanOrEqual(9);
      expect(text).toContain(maskPersonName(p.expert.name));
      expect(text).not.toContain(p.expert.name);
      expect(text).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\+8/);
    }
    expect((await pdfMetadata(res.rawPayload)).info.author).toBeUndefined();

    const docx = await stream(p.expert, p.docx);
    expect(docx.statusCode).toBe(403);
    expect(docx.json().data).toEqual({ reason: EXPERT_DOWNLOAD_REASONS.kind });
  });

  it('an expert without a name is stamped with the masked account instead', async () => {
    const p = await project();
    await db().update(accounts).set({ name: null }).where(eq(accounts.id, p.expert.accountId));
    await setSetting(t, 'review.expertDownload', 'pdf');
    const res = await stream(p.expert, p.pdf);
    expect(res.statusCode).toBe(200);
    const [text] = await pdfPageTexts(res.rawPayload, { wholePlane: true });
    expect(text).toContain(p.expert.code);
    expect(text).toContain(maskAccountName(p.expert.username));
  });

  it('the setting is validated and audited like the others', async () => {
    const admin = await signIn(t, { realm: 'ADMIN', roleCode: 'SUPER_ADMIN' });
    await setSetting(t, 'contest.phases', undefined);
    const current = await api<{ review: Record<string, unknown> }>(t, 'GET', '/api/admin/settings', { headers: admin.headers });
    expect(current.body.data.review.expertDownload).toBe('none');
    const bad = await api(t, 'PUT', '/api/admin/settings', { headers: admin.headers, body: { ...current.body.data, review: { ...current.body.data.review, expertDownload: 'everything' } } });
    expect(bad.statusCode).toBe(400);
    expect(bad.body.message).toBe('专家下载材料应为：不允许、仅 PDF 或全部');
    const good = await api(t, 'PUT', '/api/admin/settings', { headers: admin.headers, body: { ...current.body.data, review: { ...current.body.data.review, expertDownload: 'pdf' } } });
    expect(good.statusCode).toBe(200);
    const after = await api<{ review: Record<string, unknown> }>(t, 'GET', '/api/admin/settings', { headers: admin.headers });
    expect(after.body.data.review.expertDownload).toBe('pdf');
    const ops = await db().select().from(operationRecords).where(eq(operationRecords.targetId, 'review.expertDownload'));
    expect(ops.map((o) => o.summary)).toEqual(['修改专家下载材料（review.expertDownload）："none" -> "pdf"']);
  });
});

describe("an expert's signed link", () => {
  it('works for that expert (own token, or the cookie handed with it); another expert and an anonymous caller get 403', async () => {
    const p = await project();
    const link = await api<FileAccessUrl>(t, 'GET', `/api/attachment/accessUrl?filePath=${p.pdf}`, { headers: p.expert.headers });
    const url = `${link.body.data.url}&preview=1`;
    expect(url).toContain('sid=');
    const setCookie = String(link.headers['set-cookie']);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    expect(setCookie).toMatch(/Path=\/api\/attachment\/stream/);
    const cookie = setCookie.split(';')[0]!;
    const otherLink = await api<FileAccessUrl>(t, 'GET', `/api/attachment/accessUrl?filePath=${p.pdf}`, { headers: p.other.headers });
    const otherCookie = String(otherLink.headers['set-cookie']).split(';')[0]!;

    const use = (headers: Record<string, string | undefined>) => t.app.inject({ method: 'GET', url, headers });
    expect((await use({ cookie })).statusCode).toBe(200);
    expect((await use(p.expert.headers)).statusCode).toBe(200);
    for (const headers of [{}, p.other.headers, { cookie: otherCookie }, { cookie: `${cookie}x` }, p.owner.headers]) {
      const res = await use(headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
    }
    // Dropping the session from the link breaks its signature.
    const unbound = new URL(url, 'http://x');
    unbound.searchParams.delete('sid');
    expect((await t.app.inject({ method: 'GET', url: `${unbound.pathname}?${unbound.searchParams}`, headers: { cookie } })).statusCode).toBe(403);
  });

  it('stops working when the session ends', async () => {
    const p = await project();
    const link = await api<FileAccessUrl>(t, 'GET', `/api/attachment/accessUrl?filePath=${p.pdf}`, { headers: p.expert.headers });
    const cookie = String(link.headers['set-cookie']).split(';')[0]!;
    expect((await api(t, 'POST', '/api/logout', { headers: p.expert.headers })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `${link.body.data.url}&preview=1`, headers: { cookie } })).statusCode).toBe(403);
  });
});

describe('abstaining (docs/rules/review.md, "Abstaining")', () => {
  it("an expert who abstained from the project reads none of its files; the other expert still does", async () => {
    const p = await project();
    expect((await stream(p.expert, p.pdf, '?preview=1')).statusCode).toBe(200);
    const res = await api(t, 'POST', `/api/expert/review/prelim/${p.prelimId}/abstain`, { headers: p.expert.headers, body: { reason: '与团队有合作' } });
    expect(res.statusCode).toBe(200);
    expect((await stream(p.expert, p.pdf, '?preview=1')).statusCode).toBe(404);
    expect((await stream(p.other, p.pdf, '?preview=1')).statusCode).toBe(200);
  });
});
