import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { DICT_MODULE_NAMES, DICTIONARY_SEED } from '@contest/shared';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  attachments,
  dictItems,
  dictTypes,
  documents,
  feedback,
  finalEntries,
  appeals,
  dataRequests,
  retentionRuns,
  messageBatches,
  messageRecipients,
  messages,
  messageTemplates,
  news,
  prelimDocs,
  resultEntries,
  resultVersions,
  scoreLogAnchors,
  roles,
  scoreSheets,
  teams,
  liveDisplayLinks,
  liveSessionJudges,
  liveSessionProjects,
  liveSessions,
  certificateRuns,
  certificateTemplateVersions,
  certificateTemplates,
  certificates,
} from '../src/db/schema.js';
import { hashDisplayToken } from '../src/modules/live-final/live-final.service.js';
import { createStorage } from '../src/lib/storage/create-storage.js';
import type { GuardInfo } from '../src/modules/admin/admin.guard.js';
import { ACCESS_MATRIX, IDENTITIES, routeOf, type Cell, type GuardSpec, type Identity } from './access-matrix.table.js';
import { REACH_REASONS, isAccountOrRoleWrite, reachRequest, reachRows } from './access-matrix.reach.js';
import { operationsBy } from './admin-helpers.js';
import { openWindow, seedDictionary, setSetting, upload } from './contest-helpers.js';
import { makePdf } from './blind-helpers.js';
import { fakeFile, multipart } from './files-helpers.js';
import { createTestApp, type TestApp } from './helpers.js';
import { seedExperts, seedGroup, seedProjects } from './review-helpers.js';
import { ensureMenusAndButtons, signIn, type SignedIn } from './sign-in.js';

/**
 * The access matrix (docs/security.md, "V4 Access control"): every route of the app called as each identity of
 * access-matrix.table.ts, the answer checked against the table's cell. Fixtures are made once;
 * path ids point at participant A's records so that "own / another's" means something.
 */

let t: TestApp;
const db = () => t.database.db;

type Headers = Record<string, string>;
const who: Partial<Record<Identity, SignedIn>> = {};
const headersOf = (id: Identity): Headers => (id === 'anon' ? {} : { ...who[id]!.headers });
/** Each identity calls from its own address: per-IP limits (exports, logins) count per identity. */
const addressOf = (id: Identity) => `10.14.0.${IDENTITIES.indexOf(id) + 1}`;

const ORG_A = `甲方医疗科技有限公司${Math.random().toString(36).slice(2, 6)}`;

/** Ids of the records the walk names. */
const f = {} as {
  teamA: string;
  prelimA: string;
  fileA: string; // uniqueNo of A's application PDF (PRELIM)
  teamFileA: string; // uniqueNo of A's organisation certificate (TEAM)
  feedbackFileA: string; // uniqueNo of A's screenshot for feedback (FEEDBACK)
  pieceUploadA: string;
  feedbackA: string;
  messageA: string;
  appealA: string;
  exportA: string; // A's data export (queued)
  deletionA: string; // A's deletion request (pending)
  retentionRunDone: string;
  draftTeam: string;
  draftPrelim: string;
  spareProject: string;
  prelimSheet: string;
  finalSheet: string;
  spareGroupPrelim: string;
  spareGroupFinal: string;
  spareExpert: string;
  spareAdmin: string;
  spareUser: string;
  spareRole: string;
  roleToDelete: string;
  spareDictType: string;
  dictItem: string;
  newsPublished: string;
  newsDraft: string;
  newsSpare: string;
  publicFile: string; // uniqueNo of a news image
  dataFile: string; // uniqueNo of the data document's file
  docTemplateCode: string;
  docPublic: string;
  docData: string;
  docSpare: string;
  templateSpare: string;
  templateToDelete: string;
  batch: string;
  liveSession: string;
  liveSpare: string;
  liveLinkSpare: string;
  certTemplate: string;
  certJob: string;
  certA: string; // A's promotion notice
  certSerialA: string;
  certExp: string; // exp's appointment letter
};

/** The big screen's token of the access matrix's live session. */
const LIVE_TOKEN = 'accessMatrixLiveDisplayToken0123456789abcde';

const DOC_CODE = 'ACCESS_MATRIX_TPL';
/** A direct upload id nobody has (the matrix runs on the disk store, where direct upload is refused). */
const DIRECT_UPLOAD_ID = '00000000-0000-4000-8000-00000000d1ec';

async function attachmentId(uniqueNo: string): Promise<string> {
  const [row] = await db().select({ id: attachments.id }).from(attachments).where(eq(attachments.uniqueNo, uniqueNo));
  return row!.id;
}

async function buildFixtures() {
  await ensureMenusAndButtons(t);
  await seedDictionary(t);
  await setSetting(t, 'contest.phases', { signUp: openWindow(), prelimSubmission: openWindow(), prelimReview: openWindow(), finalReview: openWindow() });

  who.A = await signIn(t, { realm: 'USER' });
  who.B = await signIn(t, { realm: 'USER' });
  who.admin = await signIn(t, { realm: 'ADMIN', roleCode: 'SUPER_ADMIN' });
  who.noBtn = await signIn(t, { realm: 'ADMIN', buttons: [], menus: ['home'] });
  const [exp, expOther, expConf, expNew, spareExpert, sheetExpert] = await seedExperts(t, [{}, {}, { organization: ORG_A }, { agreed: false }, {}, {}]);
  Object.assign(who, { exp, expOther, expConf, expNew });
  f.spareExpert = spareExpert!.accountId;

  // A: approved team with its files, approved project in both rounds.
  const A = who.A;
  f.teamFileA = await upload(t, A, 'TEAM', '营业执照.pdf', fakeFile.pdf(2000));
  // A real PDF: experts get a blind copy made from it (docs/security.md, "Blind review").
  f.fileA = await upload(t, A, 'PRELIM', '申报书.pdf', await makePdf(['plan']));
  f.feedbackFileA = await upload(t, A, 'FEEDBACK', '截图.png', fakeFile.png(2000));
  const [team] = await db()
    .insert(teams)
    .values({
      ownerId: A.accountId,
      status: 'APPROVED',
      orgName: ORG_A,
      orgType: 'ENTERPRISE',
      teamName: '甲队',
      track: 'SMART_SUPERVISION',
      leader: { name: '张明', phone: '13800000001', email: 'a@example.com', title: 'SENIOR' },
      members: [{ name: '李华', organization: ORG_A, title: 'SENIOR', phone: '13800000002', email: 'm@example.com', role: 'DEVELOPER' }],
      certificateFileId: await attachmentId(f.teamFileA),
      submittedAt: new Date(),
      auditedAt: new Date(),
    })
    .returning({ id: teams.id });
  f.teamA = team!.id;
  const [prelim] = await db()
    .insert(prelimDocs)
    .values({
      teamId: f.teamA,
      ownerId: A.accountId,
      status: 'APPROVED',
      projectName: '甲项目',
      track: 'SMART_SUPERVISION',
      summary: '简介',
      keywords: ['医保'],
      applicationFileId: await attachmentId(f.fileA),
      submittedAt: new Date(),
      auditedAt: new Date(),
    })
    .returning({ id: prelimDocs.id });
  f.prelimA = prelim!.id;
  await db().insert(finalEntries).values({ prelimId: f.prelimA, status: 'IN' });

  // A's upload (one piece) under an id of A's choosing: the piece-status row asks about it.
  f.pieceUploadA = `acc${Math.random().toString(36).slice(2)}xxxxxxxxxxxx`.slice(0, 24);
  const piece = multipart({ origin: 'OTHER', id: f.pieceUploadA, name: '附件.pdf', chunks: 1, chunk: 0 }, { name: '附件.pdf', content: fakeFile.pdf(1000) });
  const pieceRes = await t.app.inject({ method: 'POST', url: '/api/attachment/piece/upload', payload: piece.payload, headers: { ...piece.headers, ...A.headers } });
  if (pieceRes.statusCode !== 200) throw new Error(`piece upload: ${pieceRes.body}`);

  // Groups: A's project with the assigned, conflicted and not-yet-agreed experts (both rounds);
  // another project with the other expert.
  const [spareProject, otherProject] = await seedProjects(t, [{ final: true }, { final: true }]);
  f.spareProject = spareProject!;
  for (const round of ['PRELIMINARY', 'FINAL'] as const) {
    await seedGroup(t, round, [exp!.accountId, expConf!.accountId, expNew!.accountId], [f.prelimA]);
    await seedGroup(t, round, [expOther!.accountId, sheetExpert!.accountId], [otherProject!, f.spareProject]);
  }
  // The live final: a LIVE session with A's project presenting; exp, expConf, expNew judges (exp expected).
  const [live, liveSpare] = await db()
    .insert(liveSessions)
    .values([
      { name: '答辩场次', venue: '会场', date: '2026-12-01', presentationMinutes: 8, qaMinutes: 5, status: 'LIVE', currentPrelimId: f.prelimA },
      { name: '备用场次', venue: '会场', date: '2026-12-02', presentationMinutes: 8, qaMinutes: 5 },
    ])
    .returning({ id: liveSessions.id });
  f.liveSession = live!.id;
  f.liveSpare = liveSpare!.id;
  await db().insert(liveSessionJudges).values([exp!, expConf!, expNew!].map((e, sort) => ({ sessionId: f.liveSession, expertId: e.accountId, sort })));
  await db().insert(liveSessionProjects).values({ sessionId: f.liveSession, prelimId: f.prelimA, sort: 0, status: 'PRESENTING', expectedJudgeIds: [exp!.accountId], presentingAt: new Date() });
  const links = await db()
    .insert(liveDisplayLinks)
    .values([
      { sessionId: f.liveSession, name: '主屏', tokenHash: hashDisplayToken(LIVE_TOKEN), tokenPrefix: LIVE_TOKEN.slice(0, 6) },
      { sessionId: f.liveSession, name: '备用', tokenHash: hashDisplayToken(`${LIVE_TOKEN}x`), tokenPrefix: 'spare0' },
    ])
    .returning({ id: liveDisplayLinks.id });
  f.liveLinkSpare = links[1]!.id;

  f.spareGroupPrelim = await seedGroup(t, 'PRELIMINARY', [], []);
  f.spareGroupFinal = await seedGroup(t, 'FINAL', [], []);
  const sheet = (round: 'PRELIMINARY' | 'FINAL') => ({
    round,
    prelimId: f.spareProject,
    expertId: sheetExpert!.accountId,
    status: 'SUBMITTED' as const,
    scores: { innovation: 10 },
    total: 20,
    submittedAt: new Date(),
  });
  const [s1] = await db().insert(scoreSheets).values(sheet('PRELIMINARY')).returning({ id: scoreSheets.id });
  const [s2] = await db().insert(scoreSheets).values(sheet('FINAL')).returning({ id: scoreSheets.id });
  f.prelimSheet = s1!.id;
  f.finalSheet = s2!.id;

  // Drafts for the console's draft pages: a draft team; an approved team with draft materials.
  const [draftOwner, draftPrelimOwner] = await Promise.all([signIn(t, { realm: 'USER' }), signIn(t, { realm: 'USER' })]);
  const [draftTeam] = await db().insert(teams).values({ ownerId: draftOwner.accountId, status: 'DRAFT', orgName: '草稿单位', teamName: '草稿队' }).returning({ id: teams.id });
  f.draftTeam = draftTeam!.id;
  const [approvedTeam] = await db().insert(teams).values({ ownerId: draftPrelimOwner.accountId, status: 'APPROVED', orgName: '乙单位', teamName: '乙队' }).returning({ id: teams.id });
  const [draftPrelim] = await db().insert(prelimDocs).values({ teamId: approvedTeam!.id, ownerId: draftPrelimOwner.accountId, status: 'DRAFT', projectName: '草稿项目' }).returning({ id: prelimDocs.id });
  f.draftPrelim = draftPrelim!.id;

  // Published results of both rounds naming A's project, and A's appeal against the preliminary one.
  const later = new Date(Date.now() + 5 * 86_400_000);
  for (const round of ['PRELIMINARY', 'FINAL'] as const) {
    const [version] = await db()
      .insert(resultVersions)
      .values({ round, version: 1, status: 'PUBLISHED', rule: {}, actorName: 'admin', publishedAt: new Date(), periodEndsAt: later, appealEndsAt: later })
      .returning({ id: resultVersions.id });
    // The head its notice would print (an empty log), so the team's receipt can be made.
    await db().insert(scoreLogAnchors).values({ round, resultVersionId: version!.id, version: 1, seq: 0, headHash: '0'.repeat(64), merkleRoot: createHash('sha256').digest('hex'), publishedAt: new Date() });
    await db().insert(resultEntries).values({
      versionId: version!.id,
      prelimId: f.prelimA,
      teamId: f.teamA,
      projectName: '甲项目',
      teamName: '甲队',
      orgName: ORG_A,
      track: 'SMART_SUPERVISION',
      rank: 1,
      score: 80,
      outcome: round === 'PRELIMINARY' ? 'PROMOTED' : 'AWARDED',
    });
    if (round === 'PRELIMINARY') {
      const [appeal] = await db()
        .insert(appeals)
        .values({ round, resultVersionId: version!.id, resultVersion: 1, teamId: f.teamA, prelimId: f.prelimA, ownerId: A.accountId, reason: '复核', dueAt: later })
        .returning({ id: appeals.id });
      f.appealA = appeal!.id;
    }
  }

  // Certificates (docs/certificates.md): a template, A's promotion notice and exp's letter (a stored PDF each), a run.
  const [certTpl] = await db().insert(certificateTemplates).values({ name: '矩阵模板', kind: 'PROMOTION' }).returning({ id: certificateTemplates.id });
  f.certTemplate = certTpl!.id;
  const certField = { key: 'team', x: 0.1, y: 0.3, width: 0.8, fontSize: 20, align: 'center' as const, bold: false, color: '#000000' };
  await db().insert(certificateTemplateVersions).values({ templateId: f.certTemplate, version: 1, name: '矩阵模板', kind: 'PROMOTION', pageSize: 'A5', orientation: 'LANDSCAPE', fields: [certField] });
  const certStore = createStorage(t.config.files.storage);
  const certPdf = await makePdf(['certificate']);
  const storeCert = async (key: string) => {
    await certStore.put(key, Readable.from([certPdf]), { size: certPdf.length, sha256: createHash('sha256').update(certPdf).digest('hex'), contentType: 'application/pdf' });
    return { storageKey: key, pdfSize: certPdf.length, pdfSha256: createHash('sha256').update(certPdf).digest('hex'), pdfCrc32: crc32(certPdf) };
  };
  f.certSerialA = '2026-AAAA-BBBB-CCCC-DDDD';
  const certRows = await db()
    .insert(certificates)
    .values([
      { serial: f.certSerialA, round: 'PRELIMINARY', kind: 'PROMOTION', holderType: 'TEAM', subjectId: f.prelimA, prelimId: f.prelimA, teamId: f.teamA, holderName: '甲队', projectName: '甲项目', award: '晋级决赛', fingerprint: 'PROMOTION||晋级决赛', resultVersion: 1, templateId: f.certTemplate, templateVersion: 1, issuedAt: new Date(), ...(await storeCert('certificates/matrix/team-a')) },
      { serial: '2026-EEEE-FFFF-GGGG-HHHH', round: 'PRELIMINARY', kind: 'EXPERT_APPOINTMENT', holderType: 'EXPERT', subjectId: exp!.accountId, expertId: exp!.accountId, holderName: '专家', fingerprint: 'EXPERT_APPOINTMENT||', resultVersion: 1, templateId: f.certTemplate, templateVersion: 1, issuedAt: new Date(), ...(await storeCert('certificates/matrix/exp')) },
    ])
    .returning({ id: certificates.id });
  [f.certA, f.certExp] = certRows.map((c) => c.id) as [string, string];
  f.certJob = randomUUID();
  await db().insert(certificateRuns).values({ round: 'PRELIMINARY', jobId: f.certJob, kinds: ['PROMOTION'], resultVersion: 1, actorName: 'admin' });

  // A's feedback and in-site message.
  const [fb] = await db().insert(feedback).values({ ownerId: A.accountId, type: 'OTHER', content: '反馈' }).returning({ id: feedback.id });
  f.feedbackA = fb!.id;
  // A's personal data requests and a finished retention run (docs/retention.md).
  const [exportA] = await db().insert(dataRequests).values({ accountId: A.accountId, kind: 'EXPORT', status: 'QUEUED' }).returning({ id: dataRequests.id });
  f.exportA = exportA!.id;
  const [deletionA] = await db().insert(dataRequests).values({ accountId: A.accountId, kind: 'DELETE', status: 'PENDING', reason: '不再参赛' }).returning({ id: dataRequests.id });
  f.deletionA = deletionA!.id;
  const [runDone] = await db().insert(retentionRuns).values({ status: 'DONE', dryRun: false }).returning({ id: retentionRuns.id });
  f.retentionRunDone = runDone!.id;
  const [msg] = await db().insert(messages).values({ title: '通知', body: '内容' }).returning({ id: messages.id });
  await db().insert(messageRecipients).values({ messageId: msg!.id, accountId: A.accountId });
  f.messageA = msg!.id;

  // Console records, spares for the calls that delete, disable or reset.
  f.spareAdmin = (await signIn(t, { realm: 'ADMIN', buttons: [] })).accountId;
  f.spareUser = (await signIn(t, { realm: 'USER' })).accountId;
  const spareRoles = await db()
    .insert(roles)
    .values([{ code: `R_SPARE_${Date.now()}`, name: '备用角色' }, { code: `R_DELETE_${Date.now()}`, name: '待删角色' }])
    .returning({ id: roles.id });
  [f.spareRole, f.roleToDelete] = spareRoles.map((x) => x.id) as [string, string];
  f.spareDictType = 'ACCESS_SPARE';
  await db().insert(dictTypes).values({ code: f.spareDictType, name: '备用', sort: 99 });
  const [item] = await db().select({ id: dictItems.id }).from(dictItems).limit(1);
  f.dictItem = item!.id;
  const newsRow = (title: string, status: 'DRAFT' | 'PUBLISHED') => ({ category: 'CONTEST_DYNAMIC' as const, title, status, publishAt: status === 'PUBLISHED' ? new Date(Date.now() - 60_000) : null });
  const newsRows = await db().insert(news).values([newsRow('已发布', 'PUBLISHED'), newsRow('草稿', 'DRAFT'), newsRow('备用', 'DRAFT')]).returning({ id: news.id });
  [f.newsPublished, f.newsDraft, f.newsSpare] = newsRows.map((n) => n.id) as [string, string, string];
  f.publicFile = await upload(t, who.admin, 'NEWS', 'cover.png', fakeFile.png(2000));
  const tplFile = await upload(t, who.admin, 'DOC', '承诺书模板.pdf', fakeFile.pdf(2000));
  f.dataFile = await upload(t, who.admin, 'DOC', '数据说明.pdf', fakeFile.pdf(2000));
  f.docTemplateCode = DOC_CODE;
  const docRows = await db()
    .insert(documents)
    .values([
      { code: DOC_CODE, title: '承诺书模板', attachmentId: await attachmentId(tplFile), category: 'TEMPLATE', audience: 'PUBLIC' },
      { title: '数据说明', attachmentId: await attachmentId(f.dataFile), category: 'DATA', audience: 'APPROVED' },
      { title: '备用文档', attachmentId: await attachmentId(tplFile), category: 'GUIDE', audience: 'PUBLIC' },
    ])
    .returning({ id: documents.id });
  [f.docPublic, f.docData, f.docSpare] = docRows.map((d) => d.id) as [string, string, string];
  const tpls = await db()
    .insert(messageTemplates)
    .values([{ name: '备用模板', subject: '主题', body: '正文' }, { name: '待删模板', subject: '主题', body: '正文' }])
    .returning({ id: messageTemplates.id });
  [f.templateSpare, f.templateToDelete] = tpls.map((x) => x.id) as [string, string];
  const [batch] = await db().insert(messageBatches).values({ channel: 'INSITE', title: '群发', body: '正文', segment: { kind: 'ALL', values: [] }, status: 'DONE' }).returning({ id: messageBatches.id });
  f.batch = batch!.id;
}

// ---- The requests ------------------------------------------------------------------------------

interface Req {
  /** Path params, query and body of the call; the path comes from the row key. */
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  multipart?: { payload: Buffer; headers: Record<string, string> };
}

const sheet = { scores: { innovation: 10 }, comment: '好' };

/**
 * A plausible request per row (rows not named here are called with no query or body: the
 * console's guards answer before validation, so a 400 there still shows the caller got through).
 * Writes that would change A's records or a shared fixture send an incomplete body (400 for
 * whoever is let in); calls without a body that delete, disable or reset name a spare record of
 * their own, so the walk does not depend on the order of the table's rows.
 */
const REQUESTS: Record<string, (id: Identity) => Req> = {
  'GET /api/captcha/check': () => ({ query: { imageKey: 'nope', slidingDistance: '10' } }),
  'POST /api/captcha/check': () => ({ body: { imageKey: 'nope', slidingDistance: 10, track: [] } }),
  'POST /api/login/send/sms': () => ({ body: { phone: '13912345678', smsKey: 'LOGIN_VERIFY_KEY' } }),
  // Sign-in calls get an empty password: their answer to real credentials is auth.test.ts's business,
  // and signing in as an identity would end its console session.
  'POST /api/login': () => ({ body: { username: 'nobody01', password: '' } }),
  'POST /api/admin/login': () => ({ body: { username: 'nobody01', password: '' } }),
  'POST /api/expert/login': () => ({ body: { username: 'nobody01', password: '' } }),
  'POST /api/login/register': () => ({ body: { username: 'x', password: 'x', email: 'x', phone: 'x', smsCode: 'x' } }),
  'POST /api/login/find/password': () => ({ body: { phone: '13912345678', smsCode: '123456', password: 'Newpass@2025' } }),
  // Wrong old password: a 400 for whoever is let in, nothing changes.
  'POST /api/login/change/password': () => ({ body: { oldPassword: 'Wrong@2025x', newPassword: 'Newpass@2025' } }),

  'POST /api/attachment/piece/upload': (id) =>
    ({ multipart: multipart({ origin: uploadOrigin(id), id: `m${Math.random().toString(36).slice(2)}xxxxxxxxxxxxxxxx`.slice(0, 24), name: uploadName(id), chunks: 1, chunk: 0 }, { name: uploadName(id), content: uploadContent(id) }) }),
  'GET /api/attachment/piece/status': () => ({ query: { id: f.pieceUploadA } }),
  'POST /api/attachment/direct/start': (id) => ({ body: { origin: uploadOrigin(id), name: uploadName(id), size: uploadContent(id).length, sha256: '0'.repeat(64) } }),
  'POST /api/attachment/direct/:id/parts': () => ({ params: { id: DIRECT_UPLOAD_ID }, body: { parts: [{ chunk: 0, sha256: `${'A'.repeat(43)}=` }] } }),
  'GET /api/attachment/direct/:id': () => ({ params: { id: DIRECT_UPLOAD_ID } }),
  'POST /api/attachment/direct/:id/complete': () => ({ params: { id: DIRECT_UPLOAD_ID } }),
  'POST /api/attachment/upload/public': (id) => ({ multipart: multipart({ origin: uploadOrigin(id), name: uploadName(id) }, { name: uploadName(id), content: uploadContent(id) }) }),
  'GET /api/attachment/accessUrl': () => ({ query: { filePath: `/api/attachment/stream/${f.fileA}` } }),
  // As the review page reads it (a preview): expert downloads are a setting, off by default.
  'GET /api/attachment/stream/:id': () => ({ params: { id: f.fileA }, query: { preview: '1' } }),
  'GET /api/attachment/stream/:id#team-file': () => ({ params: { id: f.teamFileA } }),
  'GET /api/attachment/stream/:id#data-document': () => ({ params: { id: f.dataFile } }),
  'GET /api/attachment/stream/:id#public-file': () => ({ params: { id: f.publicFile } }),
  'GET /api/attachment/speed': () => ({ query: { size: '16' } }),

  'GET /api/admin/team/draft/:id': () => ({ params: { id: f.draftTeam } }),
  'GET /api/admin/team/:id': () => ({ params: { id: f.teamA } }),
  'POST /api/admin/team/:id/audit': () => ({ params: { id: f.teamA }, body: {} }),
  'GET /api/admin/prelim-doc/draft/:id': () => ({ params: { id: f.draftPrelim } }),
  'GET /api/admin/prelim-doc/:id': () => ({ params: { id: f.prelimA } }),
  'POST /api/admin/prelim-doc/:id/audit': () => ({ params: { id: f.prelimA }, body: {} }),
  'GET /api/admin/final/:id': () => ({ params: { id: f.prelimA } }),
  'POST /api/admin/final/:id/add': () => ({ params: { id: f.prelimA }, body: {} }),
  'POST /api/admin/final/:id/remove': () => ({ params: { id: f.prelimA }, body: {} }),

  'GET /api/admin/expert/:id': () => ({ params: { id: who.exp!.accountId } }),
  'PUT /api/admin/expert/:id': () => ({ params: { id: f.spareExpert }, body: {} }),
  'PUT /api/admin/expert/:id/enabled': () => ({ params: { id: f.spareExpert }, body: { enabled: false } }),
  'POST /api/admin/expert/:id/reset-password': () => ({ params: { id: f.spareExpert } }),
  'PUT /api/admin/review/prelim/groups/:id': () => ({ params: { id: f.spareGroupPrelim }, body: {} }),
  'DELETE /api/admin/review/prelim/groups/:id': () => ({ params: { id: f.spareGroupPrelim } }),
  'POST /api/admin/review/prelim/projects/:id/move': () => ({ params: { id: f.spareProject }, body: {} }),
  'PUT /api/admin/review/final/groups/:id': () => ({ params: { id: f.spareGroupFinal }, body: {} }),
  'DELETE /api/admin/review/final/groups/:id': () => ({ params: { id: f.spareGroupFinal } }),
  'POST /api/admin/review/final/projects/:id/move': () => ({ params: { id: f.spareProject }, body: {} }),

  // Each caller declares for their own account; an organisation no project of the walk belongs to.
  'POST /api/expert/organisations': () => ({ body: { name: '权限矩阵回避单位' } }),
  'GET /api/expert/review/prelim/:id': () => ({ params: { id: f.prelimA } }),
  'PUT /api/expert/review/prelim/:id/sheet': () => ({ params: { id: f.prelimA }, body: sheet }),
  'POST /api/expert/review/prelim/:id/sheet/submit': () => ({ params: { id: f.prelimA }, body: sheet }),
  // A stale version: the walk never abstains (the expert stays a scorer of A for the calls after).
  'POST /api/expert/review/prelim/:id/abstain': () => ({ params: { id: f.prelimA }, body: { reason: '权限矩阵', version: -1 } }),
  'GET /api/expert/review/final/:id': () => ({ params: { id: f.prelimA } }),
  'PUT /api/expert/review/final/:id/sheet': () => ({ params: { id: f.prelimA }, body: sheet }),
  'POST /api/expert/review/final/:id/sheet/submit': () => ({ params: { id: f.prelimA }, body: sheet }),
  'POST /api/expert/review/final/:id/abstain': () => ({ params: { id: f.prelimA }, body: { reason: '权限矩阵', version: -1 } }),
  'POST /api/admin/review/prelim/sheets/:id/return': () => ({ params: { id: f.prelimSheet }, body: {} }),
  'POST /api/admin/review/prelim/projects/:id/rereview': () => ({ params: { id: f.spareProject }, body: {} }),
  'POST /api/admin/review/final/sheets/:id/return': () => ({ params: { id: f.finalSheet }, body: {} }),
  'POST /api/admin/review/final/projects/:id/rereview': () => ({ params: { id: f.spareProject }, body: {} }),
  'GET /api/admin/review/prelim/scores/:id': () => ({ params: { id: f.prelimA } }),
  'GET /api/admin/review/prelim/monitor/experts/:id': () => ({ params: { id: who.exp!.accountId } }),
  'GET /api/admin/review/final/scores/:id': () => ({ params: { id: f.prelimA } }),
  'GET /api/admin/review/final/monitor/experts/:id': () => ({ params: { id: who.exp!.accountId } }),

  'GET /api/admin/live/sessions/:id': () => ({ params: { id: f.liveSession } }),
  'PUT /api/admin/live/sessions/:id': () => ({ params: { id: f.liveSession }, body: {} }),
  'DELETE /api/admin/live/sessions/:id': () => ({ params: { id: f.liveSpare } }),
  'PUT /api/admin/live/sessions/:id/projects': () => ({ params: { id: f.liveSession }, body: {} }),
  'POST /api/admin/live/sessions/:id/projects/import': () => ({ params: { id: f.liveSession }, body: {} }),
  'GET /api/admin/live/sessions/:id/running-order': () => ({ params: { id: f.liveSession } }),
  'GET /api/admin/live/sessions/:id/displays': () => ({ params: { id: f.liveSession } }),
  'POST /api/admin/live/sessions/:id/displays': () => ({ params: { id: f.liveSession }, body: { name: 1 } }),
  'DELETE /api/admin/live/sessions/:id/displays/:linkId': () => ({ params: { id: f.liveSession, linkId: f.liveLinkSpare } }),
  'GET /api/admin/live/sessions/:id/chair': () => ({ params: { id: f.liveSession } }),
  'POST /api/admin/live/sessions/:id/actions': () => ({ params: { id: f.liveSession }, body: {} }),
  'GET /api/expert/live/sessions/:id': () => ({ params: { id: f.liveSession } }),
  // Scores left out: a 400 for whoever is let in (the judge's sheet is not written).
  'POST /api/expert/live/sessions/:id/projects/:projectId/score': () => ({
    params: { id: f.liveSession, projectId: f.prelimA },
    body: { scores: {}, comment: '好', key: '00000000-0000-4000-8000-0000000011fe' },
  }),
  'GET /api/live/display/:token': () => ({ params: { token: LIVE_TOKEN } }),

  'GET /api/admin/results/prelim/versions/compare': () => ({ query: { a: '1', b: '1' } }),
  'GET /api/admin/results/final/versions/compare': () => ({ query: { a: '1', b: '1' } }),
  'GET /api/admin/results/prelim/versions/:n/entries': () => ({ params: { n: '1' } }),
  'GET /api/admin/results/final/versions/:n/entries': () => ({ params: { n: '1' } }),
  'POST /api/results/prelim/appeal': () => ({ body: { reason: '请复核' } }),
  'POST /api/results/final/appeal': () => ({ body: { reason: '请复核' } }),
  'GET /api/admin/appeals/:id': () => ({ params: { id: f.appealA } }),
  'POST /api/admin/appeals/:id/reject': () => ({ params: { id: f.appealA }, body: {} }),
  'POST /api/admin/appeals/:id/accept': () => ({ params: { id: f.appealA }, body: {} }),
  'GET /api/admin/certificates/templates/:id': () => ({ params: { id: f.certTemplate } }),
  'PUT /api/admin/certificates/templates/:id': () => ({ params: { id: f.certTemplate }, body: {} }),
  'PUT /api/admin/certificates/templates/:id/enabled': () => ({ params: { id: f.certTemplate }, body: { enabled: 'no' } }),
  'GET /api/admin/certificates/templates/:id/versions': () => ({ params: { id: f.certTemplate } }),
  'GET /api/admin/certificates/templates/:id/versions/:n': () => ({ params: { id: f.certTemplate, n: '1' } }),
  'GET /api/admin/certificates/templates/:id/versions/:n/preview': () => ({ params: { id: f.certTemplate, n: '1' } }),
  'POST /api/admin/certificates/templates/preview': () => ({ body: {} }),
  'GET /api/admin/certificates/preview-records': () => ({ query: { kind: 'AWARD' } }),
  'GET /api/admin/certificates/jobs/:jobId': () => ({ params: { jobId: f.certJob } }),
  'GET /api/admin/certificates/documents/:id/pdf': () => ({ params: { id: f.certA } }),
  'POST /api/admin/certificates/prelim/issue': () => ({ body: {} }),
  'POST /api/admin/certificates/final/issue': () => ({ body: {} }),
  'GET /api/certificates/:id/pdf': () => ({ params: { id: f.certA } }),
  'GET /api/expert/certificates/:id/pdf': () => ({ params: { id: f.certExp } }),
  'GET /api/certificates/verify/:serial': () => ({ params: { serial: f.certSerialA } }),

  'GET /api/admin/system/account/:id': () => ({ params: { id: f.spareAdmin } }),
  'PUT /api/admin/system/account/:id': () => ({ params: { id: f.spareAdmin }, body: {} }),
  'PUT /api/admin/system/account/:id/roles': () => ({ params: { id: f.spareAdmin }, body: {} }),
  'PUT /api/admin/system/account/:id/status': () => ({ params: { id: f.spareAdmin }, body: { enabled: false } }),
  'POST /api/admin/system/account/:id/reset-password': () => ({ params: { id: f.spareAdmin } }),
  'GET /api/admin/role/list/:id': () => ({ params: { id: f.spareRole } }),
  'PUT /api/admin/role/:id': () => ({ params: { id: f.spareRole }, body: {} }),
  'DELETE /api/admin/role/:id': () => ({ params: { id: f.roleToDelete } }),
  'PUT /api/admin/dic/type/:code': () => ({ params: { code: f.spareDictType }, body: {} }),
  'DELETE /api/admin/dic/type/:code': () => ({ params: { code: f.spareDictType } }),
  'PUT /api/admin/dic/item/:id': () => ({ params: { id: f.dictItem }, body: {} }),
  'GET /api/admin/user/detail/:id': () => ({ params: { id: who.A!.accountId } }),
  'GET /api/admin/pii/:kind/:id': () => ({ params: { kind: 'user', id: who.A!.accountId } }),
  'PUT /api/admin/user/:id/status': () => ({ params: { id: f.spareUser }, body: { enabled: false } }),
  'POST /api/admin/user/:id/reset-password': () => ({ params: { id: f.spareUser } }),
  'GET /api/admin/audit/login-records': () => ({ query: { realm: 'USER' } }),
  'GET /api/admin/audit/operation-records': () => ({ query: { realm: 'ADMIN' } }),
  'GET /api/admin/track': () => ({ query: { path: '/admin/home' } }),

  'GET /api/news/:id': () => ({ params: { id: f.newsPublished } }),
  'GET /api/admin/news/:id/preview': () => ({ params: { id: f.newsDraft } }),
  'GET /api/admin/news/:id': () => ({ params: { id: f.newsDraft } }),
  'PUT /api/admin/news/:id': () => ({ params: { id: f.newsDraft }, body: {} }),
  'POST /api/admin/news/:id/publish': () => ({ params: { id: f.newsDraft }, body: { at: 'never' } }),
  'POST /api/admin/news/:id/offline': () => ({ params: { id: f.newsDraft } }),
  'PUT /api/admin/news/:id/pinned': () => ({ params: { id: f.newsDraft }, body: {} }),
  'DELETE /api/admin/news/:id': () => ({ params: { id: f.newsSpare } }),
  'GET /api/dic/module': () => ({ query: { module: DICT_MODULE_NAMES[0]! } }),
  'GET /api/admin/dic/item': () => ({ query: { typeCode: DICTIONARY_SEED[0]!.code } }),
  'GET /api/site/content': () => ({ query: { keys: 'sign-guide,home-intro' } }),
  'GET /api/site/content/:key': () => ({ params: { key: 'sign-guide' } }),
  'PUT /api/admin/site-content/:key': () => ({ params: { key: 'sign-guide' }, body: { title: 5 } }),
  'GET /api/template/public': () => ({ query: { code: f.docTemplateCode } }),
  'GET /api/documents/:id/file': () => ({ params: { id: f.docData } }),
  'GET /api/documents/:id/file#public-document': () => ({ params: { id: f.docPublic } }),
  'GET /api/admin/documents/:id': () => ({ params: { id: f.docPublic } }),
  'PUT /api/admin/documents/:id': () => ({ params: { id: f.docPublic }, body: {} }),
  'PUT /api/admin/documents/:id/enabled': () => ({ params: { id: f.docPublic }, body: { enabled: 'no' } }),
  'DELETE /api/admin/documents/:id': () => ({ params: { id: f.docSpare } }),

  'POST /api/admin/broadcast/insite/preview': () => ({ body: {} }),
  'POST /api/admin/broadcast/insite/send': () => ({ body: {} }),
  'POST /api/admin/broadcast/sms/preview': () => ({ body: {} }),
  'POST /api/admin/broadcast/sms/send': () => ({ body: {} }),
  'POST /api/admin/broadcast/email/preview': () => ({ body: {} }),
  'POST /api/admin/broadcast/email/send': () => ({ body: {} }),
  'GET /api/admin/broadcast': () => ({ query: { channel: 'INSITE' } }),
  'GET /api/admin/broadcast/:id': () => ({ params: { id: f.batch } }),
  'POST /api/admin/broadcast/:id/recall': () => ({ params: { id: f.batch } }),
  'GET /api/messages/:id': () => ({ params: { id: f.messageA } }),
  'POST /api/feedback': () => ({ body: { type: 'OTHER', content: '建议' } }),
  'POST /api/feedback#with-A-file': () => ({ body: { type: 'OTHER', content: '建议', attachments: [f.feedbackFileA] } }),
  'GET /api/feedback/:id': () => ({ params: { id: f.feedbackA } }),
  'GET /api/admin/retention/runs/:id': () => ({ params: { id: f.retentionRunDone } }),
  'POST /api/admin/retention/runs/:id/execute': () => ({ params: { id: f.retentionRunDone } }),
  'POST /api/admin/data-requests/:id/decide': () => ({ params: { id: f.deletionA }, body: {} }),
  'GET /api/my-data/export/:id/download': () => ({ params: { id: f.exportA } }),
  'POST /api/my-data/deletion': () => ({ body: {} }),
  'GET /api/admin/feedback/:id': () => ({ params: { id: f.feedbackA } }),
  'POST /api/admin/feedback/:id/reply': () => ({ params: { id: f.feedbackA }, body: {} }),
  'POST /api/admin/feedback/:id/close': () => ({ params: { id: f.feedbackA } }),
  'GET /api/admin/templates/:key': () => ({ params: { key: f.templateSpare } }),
  'PUT /api/admin/templates/:key': () => ({ params: { key: f.templateSpare }, body: {} }),
  'PUT /api/admin/templates/:key/enabled': () => ({ params: { key: f.templateSpare }, body: {} }),
  'DELETE /api/admin/templates/:key': () => ({ params: { key: f.templateToDelete } }),
};

/** Uploads as each realm would send them: participants their own kinds, admins a news image, experts (who upload nothing) a participant kind. */
const uploadOrigin = (id: Identity) => (id === 'admin' || id === 'noBtn' ? 'NEWS' : 'OTHER');
const uploadName = (id: Identity) => (uploadOrigin(id) === 'NEWS' ? 'img.png' : 'file.pdf');
const uploadContent = (id: Identity) => (uploadOrigin(id) === 'NEWS' ? fakeFile.png(1000) : fakeFile.pdf(1000));

/** Rows answered by a few calls rather than one. */
/** A server-sent-events stream: the status once the headers are out (the stream is left open; the app's close ends it). */
async function openStream(url: string, id: Identity): Promise<{ status: number; detail: string }> {
  const res = await t.app.inject({ method: 'GET', url, headers: headersOf(id), remoteAddress: addressOf(id), payloadAsStream: true });
  const detail = res.statusCode >= 400 ? (await res.stream().toArray()).join('').slice(0, 160) : '';
  return { status: res.statusCode, detail };
}

const CUSTOM: Record<string, (id: Identity) => Promise<{ status: number; detail: string }>> = {
  'GET /api/admin/live/sessions/:id/events': (id) => openStream(`/api/admin/live/sessions/${f.liveSession}/events`, id),
  'GET /api/expert/live/sessions/:id/events': (id) => openStream(`/api/expert/live/sessions/${f.liveSession}/events`, id),
  'GET /api/live/display/:token/events': (id) => openStream(`/api/live/display/${LIVE_TOKEN}/events`, id),
  /**
   * The caller asks for a signed link to A's file; with one, it is used without any header.
   * Without one, A's own link is re-pointed at the caller (acct swapped): a forged link, 403.
   */
  'GET /api/attachment/stream/:id#signed-link': async (id) => {
    const ask = async (caller: Identity) =>
      t.app.inject({ method: 'GET', url: `/api/attachment/accessUrl?filePath=${encodeURIComponent(f.fileA)}`, headers: headersOf(caller), remoteAddress: addressOf(caller) });
    const mine = await ask(id);
    let url: string;
    // An expert's link is bound to their session: their browser sends the cookie handed with it.
    let cookie: string | undefined;
    if (mine.statusCode === 200) {
      url = `${mine.json().data.url as string}&preview=1`;
      cookie = mine.headers['set-cookie'] ? String(mine.headers['set-cookie']).split(';')[0] : undefined;
    } else {
      const a = await ask('A');
      const link = new URL(a.json().data.url as string, 'http://x');
      link.searchParams.set('acct', id === 'anon' ? '-' : who[id]!.accountId);
      url = `${link.pathname}?${link.searchParams}`;
    }
    const res = await t.app.inject({ method: 'GET', url, remoteAddress: addressOf(id), headers: cookie ? { cookie } : {} });
    return { status: res.statusCode, detail: res.statusCode >= 400 ? res.body.slice(0, 160) : '' };
  },
};

/** Calls that end or change the caller's own session or standing: walked last, in this order. */
const LAST = ['PUT /api/user/agreement', 'POST /api/login/change/password', 'POST /api/logout'];
/** Callers likely refused go first, so a write let through later cannot change what they see; the super admin last. */
const CALL_ORDER: Identity[] = ['anon', 'B', 'noBtn', 'expOther', 'expConf', 'expNew', 'A', 'exp', 'admin'];

function urlOf(key: string, req: Req): string {
  const [, path] = routeOf(key).split(' ') as [string, string];
  const filled = path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = req.params?.[name];
    if (value === undefined) throw new Error(`${key}: no value for :${name}`);
    return encodeURIComponent(value);
  });
  const query = req.query ? `?${new URLSearchParams(req.query)}` : '';
  return filled + query;
}

async function call(key: string, id: Identity): Promise<{ status: number; detail: string }> {
  const custom = CUSTOM[key];
  if (custom) return custom(id);
  const req = REQUESTS[key]?.(id) ?? {};
  const method = routeOf(key).split(' ')[0] as InjectOptions['method'];
  const headers: Headers = { ...headersOf(id), ...(req.multipart?.headers ?? {}) };
  const res = await t.app.inject({
    method,
    url: urlOf(key, req),
    headers,
    payload: (req.multipart?.payload ?? req.body) as InjectOptions['payload'],
    remoteAddress: addressOf(id),
  });
  const json = String(res.headers['content-type'] ?? '').includes('json');
  return { status: res.statusCode, detail: json && res.statusCode >= 400 ? res.body.slice(0, 160) : '' };
}

/** `ok`: let through (any answer but a refusal or a server error); a number: exactly that. */
function matches(cell: Cell, status: number): boolean {
  if (cell === 'ok') return status < 500 && ![401, 403, 404, 409, 429].includes(status);
  return status === cell;
}

const guardOf = (hooks: unknown[]): GuardInfo | undefined => hooks.map((h) => (h as { guard?: GuardInfo }).guard).find((g) => g !== undefined);

function sameGuard(spec: GuardSpec, info: GuardInfo | undefined): boolean {
  if (!info || info.kind !== spec.kind) return false;
  if (spec.kind === 'button') return info.kind === 'button' && info.code === spec.code;
  if (spec.kind === 'menu') return info.kind === 'menu' && [...info.codes].sort().join() === [...spec.codes].sort().join();
  return true;
}

const routeKeys = () =>
  t.app.routeTable
    .flatMap((r) => (Array.isArray(r.method) ? r.method : [r.method]).map((method) => ({ key: `${method} ${r.url}`, route: r })))
    // HEAD routes are Fastify's copies of the GETs (same hooks, same handler): their GET row covers them.
    .filter(({ key }) => !key.startsWith('HEAD '))
    // Only the API: outside /api are the built web app's files (one route per file when a build
    // exists), public by construction and checked in plugins/web-app.test.ts.
    .filter(({ route }) => route.url.startsWith('/api'));

beforeAll(async () => {
  t = await createTestApp();
  await t.app.ready();
  await buildFixtures();
}, 120_000);
afterAll(async () => t?.close());

describe('access matrix', () => {
  it('has a row for every route, and no row for a route that is gone', () => {
    const routes = new Set(routeKeys().map((r) => r.key));
    const rows = new Set(Object.keys(ACCESS_MATRIX).map(routeOf));
    expect([...routes].filter((k) => !rows.has(k)), 'routes without a row in access-matrix.table.ts').toEqual([]);
    expect([...rows].filter((k) => !routes.has(k)), 'rows naming no route').toEqual([]);
    expect(Object.keys(REQUESTS).filter((k) => !(k in ACCESS_MATRIX)), 'requests for no row').toEqual([]);
  });

  it('names the permission each console route really checks', () => {
    const byKey = new Map(routeKeys().map((r) => [r.key, r.route]));
    const wrong = Object.entries(ACCESS_MATRIX)
      .filter(([key, row]) => row.guard && byKey.has(routeOf(key)) && !sameGuard(row.guard, guardOf(byKey.get(routeOf(key))!.onRequest)))
      .map(([key, row]) => `${key}: table ${JSON.stringify(row.guard)}, route ${JSON.stringify(guardOf(byKey.get(routeOf(key))!.onRequest))}`);
    expect(wrong).toEqual([]);
  });

  it('answers every identity as the table says', async () => {
    const keys = Object.keys(ACCESS_MATRIX).sort((a, b) => LAST.indexOf(routeOf(a)) - LAST.indexOf(routeOf(b)));
    const wrong: string[] = [];
    for (const key of keys) {
      const row = ACCESS_MATRIX[key]!;
      for (const id of CALL_ORDER) {
        const { status, detail } = await call(key, id);
        if (!matches(row.cells[id], status)) wrong.push(`${key} as ${id}: want ${row.cells[id]}, got ${status} ${detail}`);
      }
    }
    expect(wrong).toEqual([]);
  }, 180_000);
});

describe('access matrix: reach (docs/security.md "Accounts and reach")', () => {
  it('has a reach row for every console write on accounts and roles', () => {
    const rows = reachRows(t, () => who.admin!);
    expect(Object.keys(ACCESS_MATRIX).map(routeOf).filter(isAccountOrRoleWrite).filter((k) => !(k in rows))).toEqual([]);
  });

  it('refuses each on an account or role holding, or to hold, what the caller lacks; lets it through otherwise', async () => {
    const wrong: string[] = [];
    // Its own super admin: the walk above ends the table's sessions (logout is walked last).
    const boss = await signIn(t, { realm: 'ADMIN', roleCode: 'SUPER_ADMIN' });
    for (const [key, row] of Object.entries(reachRows(t, () => boss))) {
      const narrow = await signIn(t, { realm: 'ADMIN', ...row.caller });
      const wider = await signIn(t, { realm: 'ADMIN', ...row.wider });
      const out = await row.out();
      const refused = await t.app.inject(reachRequest(key, out, narrow.headers));
      const reason = String(refused.json().data?.reason);
      if (refused.statusCode !== 403 || !REACH_REASONS.includes(reason)) wrong.push(`${key} out of reach: want 403 reach, got ${refused.statusCode} ${refused.body.slice(0, 160)}`);
      if ((await operationsBy(t, narrow.accountId)).length) wrong.push(`${key} out of reach: an operation was recorded`);
      // The same request by a caller holding that too: the refusal was the reach, not the button.
      const through = await t.app.inject(reachRequest(key, out, wider.headers));
      if (through.statusCode >= 500 || [401, 403, 404].includes(through.statusCode)) wrong.push(`${key} wider caller: got ${through.statusCode} ${through.body.slice(0, 160)}`);
      if (row.in) {
        const within = await t.app.inject(reachRequest(key, await row.in(), narrow.headers));
        if (within.statusCode !== 200) wrong.push(`${key} within reach: got ${within.statusCode} ${within.body.slice(0, 160)}`);
      }
    }
    expect(wrong).toEqual([]);
  }, 120_000);
});
