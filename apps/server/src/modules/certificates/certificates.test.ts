import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { and, count, eq, inArray } from 'drizzle-orm';
import jsQR from 'jsqr';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CERTIFICATE_MSG as M,
  CERTIFICATE_SERIAL_PATTERN,
  type CertificateDocumentRow,
  type CertificateJobView,
  type CertificateTemplateBodyInput,
  type CertificateTemplateDetail,
  type CertificateVerification,
  type MyCertificate,
  type Page,
} from '@contest/shared';
import {
  certificateRuns,
  certificateTemplateVersions,
  certificateTemplates,
  certificates,
  jobs,
  messageRecipients,
  messages,
  operationRecords,
  resultEntries,
  resultVersions,
  scoreLog,
  teams,
  prelimDocs,
} from '../../db/schema.js';
import { api } from '../../../test/admin-helpers.js';
import { pdfPageTexts } from '../../../test/blind-helpers.js';
import { upload } from '../../../test/contest-helpers.js';
import { fakeFile } from '../../../test/files-helpers.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { seedExperts, seedGroup, seedProjects, type SeededExpert } from '../../../test/review-helpers.js';
import { ensureMenusAndButtons, signIn, type SignedIn } from '../../../test/sign-in.js';
import { createSessionService } from '../auth/session.service.js';
import { verifyScoreLog } from '../score-log/score-log.js';
import { anonymiseCertificateHolders, initialsOf } from './certificates.retention.js';
import { newCertificateSerial } from './serial.js';

/**
 * Certificates and letters (docs/certificates.md): templates and their versions, previews, issuing
 * over a published result (idempotent, superseding, revoking), the PDFs' text and QR code,
 * downloads and who may make them, the public verification.
 */

const ORIGIN = 'https://cert.example.org';
let t: TestApp;
let admin: SignedIn;
let noButton: SignedIn;
let projects: string[];
let experts: SeededExpert[];
const db = () => t.database.db;

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: ORIGIN });
  await t.app.ready();
  await ensureMenusAndButtons(t);
  admin = await signIn(t, { realm: 'ADMIN', roleCode: 'SUPER_ADMIN', name: '证书管理员' });
  noButton = await signIn(t, { realm: 'ADMIN', buttons: [], menus: ['certificateManage', 'certificateTemplate'] });
  projects = await seedProjects(t, [
    { projectName: '医保基金智能监管平台', final: true },
    { projectName: '慢病用药精准报销系统', final: true },
    { projectName: '跨省异地就医结算助手', final: true },
  ]);
  experts = await seedExperts(t, [{ name: '王建国' }, { name: '李秀英' }]);
  await seedGroup(t, 'FINAL', experts.map((e) => e.accountId), projects);
}, 120_000);
afterAll(async () => t?.close());

const H = () => admin.headers;

/** A real PNG (pdfkit reads its pixels), drawn on a canvas. */
function pngBackground(): Buffer {
  const canvas = createCanvas(300, 212);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#fdf6e3';
  ctx.fillRect(0, 0, 300, 212);
  ctx.strokeStyle = '#b58900';
  ctx.lineWidth = 8;
  ctx.strokeRect(6, 6, 288, 200);
  return canvas.toBuffer('image/png');
}

const FIELDS: CertificateTemplateBodyInput['fields'] = [
  { key: 'contest', x: 0.1, y: 0.12, width: 0.8, fontSize: 22, align: 'center', bold: true, color: '#8b0000' },
  { key: 'text', x: 0.1, y: 0.25, width: 0.8, fontSize: 16, align: 'center', text: '荣誉证书' },
  { key: 'team', x: 0.1, y: 0.38, width: 0.8, fontSize: 18, align: 'center' },
  { key: 'project', x: 0.1, y: 0.48, width: 0.8, fontSize: 14, align: 'center' },
  { key: 'award', x: 0.1, y: 0.58, width: 0.8, fontSize: 20, align: 'center', bold: true },
  { key: 'members', x: 0.1, y: 0.68, width: 0.6, fontSize: 10 },
  { key: 'serial', x: 0.05, y: 0.92, width: 0.5, fontSize: 9 },
  { key: 'date', x: 0.6, y: 0.92, width: 0.35, fontSize: 9, align: 'right' },
  { key: 'qr', x: 0.8, y: 0.68, width: 0.15 },
];

const templateBody = (over: Partial<CertificateTemplateBodyInput> = {}): CertificateTemplateBodyInput => ({
  name: '获奖证书（通用）',
  kind: 'AWARD',
  pageSize: 'A4',
  orientation: 'LANDSCAPE',
  fields: FIELDS,
  ...over,
});

const createTemplate = async (body: CertificateTemplateBodyInput) => {
  const res = await api<CertificateTemplateDetail>(t, 'POST', '/api/admin/certificates/templates', { headers: H(), body });
  expect(res.statusCode, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
};

/** Publishes version n of a round's result directly (the results module's own tests cover publishing). */
async function publish(round: 'PRELIMINARY' | 'FINAL', n: number, lines: Array<{ prelimId: string; outcome: 'PROMOTED' | 'NOT_PROMOTED' | 'AWARDED' | 'NONE'; award?: [string, string] }>) {
  const later = new Date(Date.now() + 5 * 86_400_000);
  await db().update(resultVersions).set({ status: 'SUPERSEDED', supersededAt: new Date() }).where(and(eq(resultVersions.round, round), eq(resultVersions.status, 'PUBLISHED')));
  const [version] = await db()
    .insert(resultVersions)
    .values({ round, version: n, status: 'PUBLISHED', rule: {}, reason: n > 1 ? '复评' : null, actorName: 'admin', publishedAt: new Date(), periodEndsAt: later, appealEndsAt: later })
    .returning({ id: resultVersions.id });
  for (const [i, line] of lines.entries()) {
    const [p] = await db()
      .select({ teamId: teams.id, teamName: teams.teamName, orgName: teams.orgName, projectName: prelimDocs.projectName })
      .from(prelimDocs)
      .innerJoin(teams, eq(teams.id, prelimDocs.teamId))
      .where(eq(prelimDocs.id, line.prelimId));
    await db()
      .insert(resultEntries)
      .values({ versionId: version!.id, prelimId: line.prelimId, teamId: p!.teamId, projectName: p!.projectName, teamName: p!.teamName, orgName: p!.orgName, rank: i + 1, score: 90 - i, outcome: line.outcome, awardCode: line.award?.[0] ?? null, awardName: line.award?.[1] ?? null });
  }
  return version!.id;
}

async function issue(round: 'prelim' | 'final', body: unknown, headers = H()) {
  return api<{ jobId: string; resultVersion: number; alreadyRunning: boolean }>(t, 'POST', `/api/admin/certificates/${round}/issue`, { headers, body });
}

async function issueAndRun(round: 'prelim' | 'final', body: unknown): Promise<CertificateJobView> {
  const res = await issue(round, body);
  expect(res.statusCode, JSON.stringify(res.body)).toBe(200);
  await t.app.deps.jobs.runDue();
  const job = await api<CertificateJobView>(t, 'GET', `/api/admin/certificates/jobs/${res.body.data.jobId}`, { headers: H() });
  expect(job.body.data.status, JSON.stringify(job.body.data)).toBe('DONE');
  return job.body.data;
}

const docsOf = (prelimId: string) => db().select().from(certificates).where(eq(certificates.subjectId, prelimId));
const teamOf = async (prelimId: string) => (await db().select({ teamName: teams.teamName, ownerId: teams.ownerId }).from(prelimDocs).innerJoin(teams, eq(teams.id, prelimDocs.teamId)).where(eq(prelimDocs.id, prelimId)))[0]!;
const sessionOf = async (accountId: string) => {
  const { token } = await createSessionService(db()).create({ realm: 'USER', accountId });
  return { authorization: `Bearer ${token}` };
};

async function pdfOf(url: string, headers: Record<string, string>): Promise<Buffer> {
  const res = await t.app.inject({ method: 'GET', url, headers });
  expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
  expect(res.headers['content-type']).toBe('application/pdf');
  return res.rawPayload;
}

const PDFJS_DIR = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));

/** The page rendered by pdf.js on a @napi-rs/canvas, then the QR code read off the pixels. */
async function qrOf(pdf: Buffer): Promise<string | null> {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await getDocument({ data: new Uint8Array(pdf), standardFontDataUrl: `${join(PDFJS_DIR, 'standard_fonts')}/`, isEvalSupported: false, verbosity: 0 }).promise;
  const page = await doc.getPage(1);
  const viewport = page.getViewport({ scale: 2 });
  // pdf.js draws glyphs with the Path2D of its own copy of @napi-rs/canvas: its canvas must come from that copy too.
  const pdfjsCanvas = createRequire(join(PDFJS_DIR, 'package.json'))('@napi-rs/canvas') as typeof import('@napi-rs/canvas');
  const canvas = pdfjsCanvas.createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
  const ctx = canvas.getContext('2d');
  await page.render({ canvasContext: ctx as never, canvas: canvas as never, viewport }).promise;
  const image = ctx.getImageData(0, 0, canvas.width, canvas.height);
  await doc.destroy();
  return jsQR(new Uint8ClampedArray(image.data.buffer, image.data.byteOffset, image.data.byteLength), image.width, image.height)?.data ?? null;
}

describe('serials', () => {
  it('are the year and 80 random bits in Crockford base32, never repeating', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const s = newCertificateSerial(2026);
      expect(s).toMatch(CERTIFICATE_SERIAL_PATTERN);
      expect(s.startsWith('2026-')).toBe(true);
      seen.add(s);
    }
    expect(seen.size).toBe(2000);
  });

  it('initials for the retention snapshot', () => {
    expect(initialsOf('王小明')).toBe('王某');
    expect(initialsOf('王某')).toBe('王某');
    expect(initialsOf('John Smith')).toBe('J. S.');
  });
});

describe('templates', () => {
  let award: CertificateTemplateDetail;

  it('saves a template with a background as version 1, every save as a new version, all kept', async () => {
    const bg = await upload(t, admin, 'CERT', '底图.png', pngBackground());
    award = await createTemplate(templateBody({ background: bg }));
    expect(award).toMatchObject({ version: 1, kind: 'AWARD', awardLevel: null, enabled: true, background: { uniqueNo: bg } });
    expect(award.fields.find((f) => f.key === 'team')).toMatchObject({ fontSize: 18, align: 'center', bold: false, color: '#000000' });

    const saved = await api<CertificateTemplateDetail>(t, 'PUT', `/api/admin/certificates/templates/${award.id}`, {
      headers: H(),
      body: { ...templateBody({ background: bg, name: '获奖证书' }), baseVersion: 1 },
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.body.data).toMatchObject({ version: 2, name: '获奖证书' });
    const versions = await api<Array<{ version: number; name: string }>>(t, 'GET', `/api/admin/certificates/templates/${award.id}/versions`, { headers: H() });
    expect(versions.body.data.map((v) => [v.version, v.name])).toEqual([[2, '获奖证书'], [1, '获奖证书（通用）']]);
    const v1 = await api<{ name: string; version: number }>(t, 'GET', `/api/admin/certificates/templates/${award.id}/versions/1`, { headers: H() });
    expect(v1.body.data).toMatchObject({ name: '获奖证书（通用）', version: 1 });
    award = saved.body.data;

    // An editor who loaded version 1 saves after version 2 was written: refused, nothing written.
    const stale = await api(t, 'PUT', `/api/admin/certificates/templates/${award.id}`, { headers: H(), body: { ...templateBody(), baseVersion: 1 } });
    expect(stale.statusCode).toBe(400);
    expect(stale.body).toMatchObject({ message: M.templateChanged, data: { reason: 'STALE', version: 2 } });
    expect(await db().select({ n: count() }).from(certificateTemplateVersions).where(eq(certificateTemplateVersions.templateId, award.id))).toEqual([{ n: 2 }]);
  });

  it('refuses bad templates with clear messages and writes nothing', async () => {
    const before = await db().select({ n: count() }).from(certificateTemplates);
    const newsImage = await upload(t, admin, 'NEWS', '新闻.png', fakeFile.png(2000));
    const cases: Array<[Partial<CertificateTemplateBodyInput>, string]> = [
      [{ name: ' ' }, M.nameRequired],
      [{ kind: 'DIPLOMA' as never }, M.kindInvalid],
      [{ kind: 'PARTICIPATION', awardLevel: '一等奖' }, M.awardLevelOnlyForAward],
      [{ pageSize: 'A3' as never }, M.pageSizeInvalid],
      [{ fields: [] }, M.fieldsRequired],
      [{ fields: [{ key: 'team', x: 1.5, y: 0.1, width: 0.2 }] }, M.fieldPositionInvalid],
      [{ fields: [{ key: 'team', x: 0.5, y: 0.1, width: 0.8 }] }, M.fieldOutsidePage],
      [{ fields: [{ key: 'team', x: 0.1, y: 0.1, width: 0.5, fontSize: 2 }] }, M.fieldFontSizeInvalid],
      [{ fields: [{ key: 'team', x: 0.1, y: 0.1, width: 0.5, color: 'red' }] }, M.fieldColorInvalid],
      [{ fields: [{ key: 'text', x: 0.1, y: 0.1, width: 0.5 }] }, M.fieldTextRequired],
      [{ fields: [{ key: 'nickname' as never, x: 0.1, y: 0.1, width: 0.5 }] }, M.fieldKeyInvalid],
      [{ fields: [{ key: 'expertName', x: 0.1, y: 0.1, width: 0.5 }] }, M.fieldKeyNotForKind],
      [{ fields: [{ key: 'qr', x: 0.1, y: 0.1, width: 0.1 }, { key: 'qr', x: 0.5, y: 0.1, width: 0.1 }] }, M.fieldQrDuplicate],
      [{ background: newsImage }, M.backgroundNotFound],
      [{ background: 'no-such-file' }, M.backgroundNotFound],
    ];
    for (const [over, message] of cases) {
      const res = await api(t, 'POST', '/api/admin/certificates/templates', { headers: H(), body: templateBody(over) });
      expect(res.statusCode, JSON.stringify(over)).toBe(400);
      expect(res.body.message, JSON.stringify(over)).toBe(message);
    }
    expect(await db().select({ n: count() }).from(certificateTemplates)).toEqual(before);
  });

  it('takes only png or jpeg backgrounds of origin CERT, uploaded with certificate:manage', async () => {
    const pdfAsBackground = await upload(t, admin, 'CERT', '底图.pdf', fakeFile.pdf(2000)).catch((e: Error) => e.message);
    expect(String(pdfAsBackground)).toContain('400');
    const participant = await signIn(t, { realm: 'USER' });
    await expect(upload(t, participant, 'CERT', '底图.png', pngBackground())).rejects.toThrow(/403|上传/);
    await expect(upload(t, noButton, 'CERT', '底图.png', pngBackground())).rejects.toThrow(/403|上传/);
  });

  it('previews a draft for a real project: the Chinese text is in the PDF and the QR code reads the verify address; nothing is stored', async () => {
    const team = await teamOf(projects[0]!);
    const before = await db().select({ n: count() }).from(certificates);
    const res = await t.app.inject({ method: 'POST', url: '/api/admin/certificates/templates/preview', headers: H(), payload: { template: templateBody({ awardLevel: '特等奖' }), recordId: projects[0] } });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const [text] = await pdfPageTexts(res.rawPayload);
    expect(text).toContain(team.teamName);
    expect(text).toContain('医保基金智能监管平台');
    expect(text).toContain('特等奖');
    expect(text).toContain('荣誉证书');
    const year = new Date(Date.now() + 8 * 3600_000).getUTCFullYear();
    expect(await qrOf(res.rawPayload)).toBe(`${ORIGIN}/verify/${year}-0000-0000-0000-0000`);
    expect(await db().select({ n: count() }).from(certificates)).toEqual(before);

    const unknown = await api(t, 'POST', '/api/admin/certificates/templates/preview', { headers: H(), body: { template: templateBody(), recordId: experts[0]!.accountId } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body.message).toBe(M.recordNotFound);
    const version = await t.app.inject({ method: 'GET', url: `/api/admin/certificates/templates/${award.id}/versions/1/preview?recordId=${projects[1]}`, headers: H() });
    expect(version.statusCode).toBe(200);
    expect((await pdfPageTexts(version.rawPayload))[0]).toContain('慢病用药精准报销系统');
  }, 60_000);
});

describe('issuing, superseding, revoking', () => {
  let first: CertificateDocumentRow[];

  it('refuses a round whose result is not published, and writes nothing', async () => {
    const res = await issue('final', { kinds: ['AWARD'] });
    expect(res.statusCode).toBe(400);
    expect(res.body).toMatchObject({ message: M.notPublished, data: { reason: 'NOT_PUBLISHED' } });
    expect(await db().select({ n: count() }).from(certificateRuns)).toEqual([{ n: 0 }]);
    expect(await db().select({ n: count() }).from(jobs).where(eq(jobs.kind, 'certificates.issue'))).toEqual([{ n: 0 }]);
  });

  it('refuses bad issue requests with clear messages', async () => {
    await publish('FINAL', 1, [
      { prelimId: projects[0]!, outcome: 'AWARDED', award: ['L1', '一等奖'] },
      { prelimId: projects[1]!, outcome: 'AWARDED', award: ['L2', '二等奖'] },
      { prelimId: projects[2]!, outcome: 'NONE' },
    ]);
    const cases: Array<[unknown, string]> = [
      [{}, M.kindsRequired],
      [{ kinds: [] }, M.kindsRequired],
      [{ kinds: ['PROMOTION'] }, M.kindNotForRound],
      [{ kinds: ['AWARD', 'AWARD'] }, M.kindsRequired],
      [{ kinds: ['EXPERT_THANKS'] }, M.templateMissing],
      [{ kinds: ['AWARD'], templateIds: ['00000000-0000-4000-8000-000000000000'] }, M.templateNotFound],
    ];
    for (const [body, message] of cases) {
      const res = await issue('final', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.body.message, JSON.stringify(body)).toBe(message);
    }
    expect((await issue('final', { kinds: ['AWARD'], templateIds: ['nope'] })).statusCode).toBe(400);
    // Two templates for every level: which one is meant?
    const twin = await createTemplate(templateBody({ name: '获奖证书（副本）' }));
    const ambiguous = await issue('final', { kinds: ['AWARD'] });
    expect(ambiguous.body).toMatchObject({ message: M.templateAmbiguous, data: { reason: 'TEMPLATE_AMBIGUOUS', kind: 'AWARD' } });
    await api(t, 'PUT', `/api/admin/certificates/templates/${twin.id}/enabled`, { headers: H(), body: { enabled: false } });
    expect(await db().select({ n: count() }).from(certificateRuns)).toEqual([{ n: 0 }]);
  });

  it('issues award and participation certificates and expert letters from the published version', async () => {
    await createTemplate(templateBody({ name: '参赛证书', kind: 'PARTICIPATION', fields: FIELDS.filter((f) => f.key !== 'award') }));
    await createTemplate({
      name: '专家聘书',
      kind: 'EXPERT_APPOINTMENT',
      fields: [
        { key: 'expertName', x: 0.1, y: 0.4, width: 0.8, fontSize: 20, align: 'center' },
        { key: 'organisation', x: 0.1, y: 0.5, width: 0.8, fontSize: 12, align: 'center' },
        { key: 'qr', x: 0.8, y: 0.7, width: 0.15 },
      ],
    });
    const job = await issueAndRun('final', { kinds: ['AWARD', 'PARTICIPATION', 'EXPERT_APPOINTMENT'] });
    expect(job.summary).toEqual({ issued: 5, unchanged: 0, superseded: 0, revoked: 0 });
    expect(job.progress.done).toBe(job.progress.total);

    const list = await api<Page<CertificateDocumentRow>>(t, 'GET', '/api/admin/certificates/documents?round=FINAL&size=50&sort=serial', { headers: H() });
    first = list.body.data.list;
    expect(first).toHaveLength(5);
    expect(first.every((d) => CERTIFICATE_SERIAL_PATTERN.test(d.serial) && d.status === 'VALID' && d.resultVersion === 1)).toBe(true);
    const byProject = (i: number) => first.find((d) => d.projectId === projects[i])!;
    expect([byProject(0).kind, byProject(0).award]).toEqual(['AWARD', '一等奖']);
    expect([byProject(1).kind, byProject(1).award]).toEqual(['AWARD', '二等奖']);
    expect(byProject(2).kind).toBe('PARTICIPATION');
    expect(first.filter((d) => d.kind === 'EXPERT_APPOINTMENT').map((d) => d.holderName).sort()).toEqual(['李秀英', '王建国']);
    // Documents name the template version they were made from.
    expect(byProject(0).templateVersion).toBe(2);

    // The PDF: Chinese team, project and award text, and a QR code leading to its verify page.
    const team = await teamOf(projects[0]!);
    const pdf = await pdfOf(`/api/admin/certificates/documents/${byProject(0).id}/pdf`, H());
    const [text] = await pdfPageTexts(pdf);
    expect(text).toContain(team.teamName);
    expect(text).toContain('医保基金智能监管平台');
    expect(text).toContain('一等奖');
    expect(text).toContain(byProject(0).serial);
    expect(await qrOf(pdf)).toBe(`${ORIGIN}/verify/${byProject(0).serial}`);

    // The score log records the run, and still verifies.
    const entries = await db().select().from(scoreLog).where(eq(scoreLog.kind, 'CERTIFICATES_ISSUED'));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ round: 'FINAL', subjectType: 'result_version' });
    expect((entries[0]!.payload as { issued: unknown[] }).issued).toHaveLength(5);
    expect(await verifyScoreLog(db())).toMatchObject({ ok: true });

    // Each team's owner is told.
    const inbox = await db()
      .select({ title: messages.title })
      .from(messageRecipients)
      .innerJoin(messages, eq(messages.id, messageRecipients.messageId))
      .where(eq(messageRecipients.accountId, team.ownerId));
    expect(inbox.map((m) => m.title)).toContain('决赛证书已颁发');
  }, 120_000);

  it('issuing again changes nothing', async () => {
    const job = await issueAndRun('final', { kinds: ['AWARD', 'PARTICIPATION', 'EXPERT_APPOINTMENT'] });
    expect(job.summary).toEqual({ issued: 0, unchanged: 5, superseded: 0, revoked: 0 });
    expect(await db().select({ n: count() }).from(certificates).where(eq(certificates.round, 'FINAL'))).toEqual([{ n: 5 }]);
    // Nothing changed: no new score-log entry.
    expect(await db().select({ n: count() }).from(scoreLog).where(eq(scoreLog.kind, 'CERTIFICATES_ISSUED'))).toEqual([{ n: 1 }]);
  }, 60_000);

  it('a later version supersedes changed awards, revokes lost ones and replaces participation by an award', async () => {
    await publish('FINAL', 2, [
      { prelimId: projects[2]!, outcome: 'AWARDED', award: ['L1', '一等奖'] },
      { prelimId: projects[0]!, outcome: 'AWARDED', award: ['L2', '二等奖'] },
      { prelimId: projects[1]!, outcome: 'NONE' },
    ]);
    const job = await issueAndRun('final', { kinds: ['AWARD', 'PARTICIPATION'] });
    // New: P0's 二等奖, P2's 一等奖, P1's participation; ended: P0's 一等奖 (superseded), P2's participation (superseded), P1's award (revoked).
    expect(job.summary).toEqual({ issued: 3, unchanged: 0, superseded: 2, revoked: 1 });

    const old0 = first.find((d) => d.projectId === projects[0])!;
    const old1 = first.find((d) => d.projectId === projects[1])!;
    const old2 = first.find((d) => d.projectId === projects[2])!;
    const now0 = (await docsOf(projects[0]!)).find((d) => d.status === 'VALID')!;
    const now2 = (await docsOf(projects[2]!)).find((d) => d.status === 'VALID')!;
    expect(now0).toMatchObject({ kind: 'AWARD', award: '二等奖', resultVersion: 2 });
    expect(now2).toMatchObject({ kind: 'AWARD', award: '一等奖', resultVersion: 2 });

    const verify = (serial: string) => api<CertificateVerification>(t, 'GET', `/api/certificates/verify/${encodeURIComponent(serial)}`);
    expect((await verify(old0.serial)).body.data).toMatchObject({ status: 'SUPERSEDED', successorSerial: now0.serial, award: '一等奖', resultVersion: 1 });
    expect((await verify(old2.serial)).body.data).toMatchObject({ status: 'SUPERSEDED', successorSerial: now2.serial, kind: 'PARTICIPATION' });
    expect((await verify(old1.serial)).body.data).toMatchObject({ status: 'REVOKED', successorSerial: null });
    const current = await verify(now0.serial.toLowerCase().replace(/-/g, ' '));
    expect(current.body.data).toMatchObject({ status: 'VALID', holderType: 'TEAM', projectName: '医保基金智能监管平台', round: 'FINAL', resultVersion: 2 });
    // No phone, e-mail or ID in the public answer.
    expect(JSON.stringify(current.body.data)).not.toMatch(/1[3-9]\d{9}|@example\.com/);
    // Expert letters were not asked for: left as they were.
    expect(await db().select({ n: count() }).from(certificates).where(and(eq(certificates.kind, 'EXPERT_APPOINTMENT'), eq(certificates.status, 'VALID')))).toEqual([{ n: 2 }]);
    expect(await verifyScoreLog(db())).toMatchObject({ ok: true });
  }, 120_000);

  it('two admins issuing at once start one job and make one set of documents', async () => {
    await publish('PRELIMINARY', 1, [
      { prelimId: projects[0]!, outcome: 'PROMOTED' },
      { prelimId: projects[1]!, outcome: 'NOT_PROMOTED' },
    ]);
    await createTemplate(templateBody({ name: '晋级通知书', kind: 'PROMOTION', fields: FIELDS.filter((f) => f.key !== 'award') }));
    const other = await signIn(t, { realm: 'ADMIN', roleCode: 'SUPER_ADMIN' });
    const [a, b] = await Promise.all([issue('prelim', { kinds: ['PROMOTION', 'PARTICIPATION'] }), issue('prelim', { kinds: ['PROMOTION', 'PARTICIPATION'] }, other.headers)]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(a.body.data.jobId).toBe(b.body.data.jobId);
    expect([a.body.data.alreadyRunning, b.body.data.alreadyRunning].sort()).toEqual([false, true]);
    await t.app.deps.jobs.runDue();
    const rows = await db().select().from(certificates).where(eq(certificates.round, 'PRELIMINARY'));
    expect(rows.map((r) => [r.subjectId, r.kind]).sort()).toEqual(
      [
        [projects[0]!, 'PROMOTION'],
        [projects[1]!, 'PARTICIPATION'],
      ].sort(),
    );
    expect(await db().select({ n: count() }).from(certificateRuns).where(eq(certificateRuns.round, 'PRELIMINARY'))).toEqual([{ n: 1 }]);
  }, 60_000);
});

describe('downloads and who may make them', () => {
  it('a participant lists and downloads their team\'s documents, never another team\'s', async () => {
    const owner = (await teamOf(projects[0]!)).ownerId;
    const other = (await teamOf(projects[1]!)).ownerId;
    const headers = await sessionOf(owner);
    const mine = await api<MyCertificate[]>(t, 'GET', '/api/certificates/mine', { headers });
    expect(mine.statusCode).toBe(200);
    expect(mine.body.data.length).toBeGreaterThanOrEqual(3);
    expect(new Set(mine.body.data.map((d) => d.projectName))).toEqual(new Set(['医保基金智能监管平台']));
    const valid = mine.body.data.find((d) => d.status === 'VALID' && d.round === 'FINAL')!;
    const pdf = await pdfOf(valid.downloadPath, headers);
    expect((await pdfPageTexts(pdf))[0]).toContain('二等奖');

    const foreign = (await docsOf(projects[1]!))[0]!;
    const refused = await api(t, 'GET', `/api/certificates/${foreign.id}/pdf`, { headers });
    expect(refused.statusCode).toBe(404);
    expect(refused.body.message).toBe(M.documentNotFound);
    expect((await api(t, 'GET', `/api/certificates/${foreign.id}/pdf`, { headers: await sessionOf(other) })).statusCode).toBe(200);
    expect((await api(t, 'GET', `/api/certificates/${foreign.id}/pdf`)).statusCode).toBe(401);
    expect((await api(t, 'GET', `/api/certificates/${foreign.id}/pdf`, { headers: H() })).statusCode).toBe(401);
  }, 60_000);

  it('an expert lists and downloads their own letters only', async () => {
    const [e0, e1] = experts as [SeededExpert, SeededExpert];
    const mine = await api<MyCertificate[]>(t, 'GET', '/api/expert/certificates/mine', { headers: e0.headers });
    expect(mine.body.data.map((d) => [d.kind, d.holderName])).toEqual([['EXPERT_APPOINTMENT', '王建国']]);
    const pdf = await pdfOf(mine.body.data[0]!.downloadPath, e0.headers);
    expect((await pdfPageTexts(pdf))[0]).toContain('王建国');
    const letterOfE1 = (await db().select().from(certificates).where(eq(certificates.expertId, e1.accountId)))[0]!;
    expect((await api(t, 'GET', `/api/expert/certificates/${letterOfE1.id}/pdf`, { headers: e0.headers })).statusCode).toBe(404);
    expect((await api(t, 'GET', '/api/expert/certificates/mine', { headers: H() })).statusCode).toBe(401);
  });

  it('admins: list with filters, one PDF and a round\'s zip, permission-checked and recorded', async () => {
    const revoked = await api<Page<CertificateDocumentRow>>(t, 'GET', '/api/admin/certificates/documents?round=FINAL&status=REVOKED', { headers: H() });
    expect(revoked.body.data.total).toBe(1);
    const bad = await api(t, 'GET', '/api/admin/certificates/documents?status=LOST', { headers: H() });
    expect(bad.statusCode).toBe(400);
    expect(bad.body.message).toBe(M.statusInvalid);

    const zip = await t.app.inject({ method: 'GET', url: '/api/admin/certificates/final/zip', headers: H() });
    expect(zip.statusCode).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    const archive = await JSZip.loadAsync(zip.rawPayload);
    const files = Object.values(archive.files).filter((f) => !f.dir);
    const valid = await db().select().from(certificates).where(and(eq(certificates.round, 'FINAL'), eq(certificates.status, 'VALID')));
    expect(files).toHaveLength(valid.length);
    const one = await files[0]!.async('nodebuffer');
    expect(one.subarray(0, 5).toString()).toBe('%PDF-');
    const ops = await db().select().from(operationRecords).where(and(eq(operationRecords.accountId, admin.accountId), eq(operationRecords.action, 'certificate:download')));
    expect(ops.map((o) => o.summary).join('\n')).toContain(`打包下载决赛证书 ${valid.length} 份`);

    // The overview of both rounds and the template list.
    const overview = await api<{ rounds: Array<{ round: string; publishedVersion: number | null; issuedVersion: number | null; counts: Array<{ kind: string; status: string; count: number }>; lastJob: { status: string } | null }> }>(
      t,
      'GET',
      '/api/admin/certificates/overview',
      { headers: H() },
    );
    const final = overview.body.data.rounds.find((r) => r.round === 'FINAL')!;
    expect(final).toMatchObject({ publishedVersion: 2, issuedVersion: 2, lastJob: { status: 'DONE' } });
    expect(final.counts).toContainEqual({ kind: 'AWARD', status: 'REVOKED', count: 1 });
    const awards = await api<Page<{ name: string; kind: string; documentCount: number }>>(t, 'GET', '/api/admin/certificates/templates?kind=AWARD', { headers: H() });
    expect(awards.body.data.list.map((x) => [x.name, x.documentCount]).sort()).toEqual([['获奖证书', 4], ['获奖证书（副本）', 0]]);
    const records = await api<Array<{ id: string; label: string }>>(t, 'GET', `/api/admin/certificates/preview-records?kind=EXPERT_THANKS&keyword=${encodeURIComponent('王建')}`, { headers: H() });
    expect(records.body.data.map((r) => r.id)).toEqual([experts[0]!.accountId]);

    // The console's other callers: no button 403, no session 401, a participant 401.
    const any = valid[0]!;
    expect((await api(t, 'GET', `/api/admin/certificates/documents/${any.id}/pdf`, { headers: noButton.headers })).statusCode).toBe(403);
    expect((await api(t, 'GET', '/api/admin/certificates/final/zip', { headers: noButton.headers })).statusCode).toBe(403);
    expect((await issue('final', { kinds: ['AWARD'] }, noButton.headers)).statusCode).toBe(403);
    expect((await api(t, 'GET', '/api/admin/certificates/final/zip')).statusCode).toBe(401);
    expect((await api(t, 'GET', '/api/admin/certificates/documents', { headers: await sessionOf((await teamOf(projects[0]!)).ownerId) })).statusCode).toBe(401);
    expect((await api(t, 'GET', `/api/admin/certificates/documents/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}/pdf`, { headers: H() })).statusCode).toBe(404);
  }, 60_000);

  it('verification: unknown serial 404 with a clear message, malformed 400', async () => {
    const unknown = await api(t, 'GET', '/api/certificates/verify/2026-0000-0000-0000-0001');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body.message).toBe(M.serialUnknown);
    const malformed = await api(t, 'GET', '/api/certificates/verify/hello');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.body.message).toBe(M.serialInvalid);
  });

  it('retention turns holder names into initials (the verify page shows them) and hands back the PDFs to delete', async () => {
    const letter = (await db().select().from(certificates).where(eq(certificates.expertId, experts[0]!.accountId)))[0]!;
    const result = await db().transaction((tx) => anonymiseCertificateHolders(tx, { expertIds: [experts[0]!.accountId] }));
    expect(result).toEqual({ updated: 1, storageKeys: [letter.storageKey] });
    const shown = await api<CertificateVerification>(t, 'GET', `/api/certificates/verify/${letter.serial}`);
    expect(shown.body.data.holderName).toBe('王某');
    const untouched = await db().select({ name: certificates.holderName }).from(certificates).where(inArray(certificates.expertId, [experts[1]!.accountId]));
    expect(untouched.map((r) => r.name)).toEqual(['李秀英']);
  });
});
