import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEMPLATE_EVENTS, TEMPLATE_EVENT_CODES, fillTemplate, type MessageTemplateItem, type PromotionPreview, type TemplateEventCode } from '@contest/shared';
import { accounts, messageRecipients, messages, noticeOutbox, prelimDocs, promotions, scoreSheets, statusHistory, teams, resultEntries, resultVersions } from '../../db/schema.js';
import { createSessionService } from '../auth/session.service.js';
import { runDailyVerify } from '../score-log/daily-verify.js';
import type { Reply } from '../../../test/admin-helpers.js';
import { api, completeTeam, makePdf, openWindow, seedDictionary, setSetting, upload, withContest } from '../../../test/contest-helpers.js';
import { fakeFile } from '../../../test/files-helpers.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { seedExperts, seedGroup, seedProjects, type SeededExpert } from '../../../test/review-helpers.js';
import { signIn, type SignedIn } from '../../../test/sign-in.js';
import { startSmtpSink, type SmtpSink } from '../../../test/smtp-sink.js';

/**
 * Every event notice goes through its template and the outbox (docs/rules/content.md, "Message templates"): the whole app, with
 * its SMTP pointed at a local sink, so what an administrator edits is what participants and
 * experts receive, in the inbox and by email.
 */

let t: TestApp;
let sink: SmtpSink;
let admin: SignedIn;

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await createTestApp({ SMTP_HOST: '127.0.0.1', SMTP_PORT: String(sink.port), SMTP_SECURE: 'false', SMTP_FROM: '智慧医保大赛 <noreply@contest.test>' });
  await withContest(t);
  await seedDictionary(t);
  admin = await signIn(t, { realm: 'ADMIN', roleCode: 'SUPER_ADMIN', name: '通知管理员' });
  await setSetting(t, 'contest.phases', { signUp: openWindow(), prelimSubmission: openWindow(), prelimReview: openWindow(), finalReview: openWindow() });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

const db = () => t.database.db;

const inbox = (accountId: string) =>
  db()
    .select({ title: messages.title, body: messages.body, senderId: messages.senderId })
    .from(messageRecipients)
    .innerJoin(messages, eq(messages.id, messageRecipients.messageId))
    .where(eq(messageRecipients.accountId, accountId))
    .orderBy(asc(messages.createdAt));
const outboxOf = (accountId: string, channel?: 'SMS' | 'EMAIL') =>
  db()
    .select()
    .from(noticeOutbox)
    .where(and(eq(noticeOutbox.accountId, accountId), channel ? eq(noticeOutbox.channel, channel) : undefined));
const emailOf = async (accountId: string) => (await db().select({ email: accounts.email }).from(accounts).where(eq(accounts.id, accountId)))[0]!.email!;

/** A participant whose sign-up waits for the audit (written directly: team-admin.test covers the calls). */
async function submittedTeam(): Promise<{ user: SignedIn; teamId: string; teamName: string }> {
  const user = await signIn(t, { realm: 'USER' });
  const teamName = `通知队${user.username.slice(-4)}`;
  const [team] = await db()
    .insert(teams)
    .values({ ownerId: user.accountId, status: 'SUBMITTED', teamName, orgName: '示例医院', track: 'SMART_SUPERVISION', submittedAt: new Date() })
    .returning({ id: teams.id });
  return { user, teamId: team!.id, teamName };
}

const auditTeam = (id: string, body: unknown) => api(t, 'POST', `/api/admin/team/${id}/audit`, { headers: admin.headers, body });
const template = (code: string) => api<MessageTemplateItem>(t, 'GET', `/api/admin/templates/${code}`, { headers: admin.headers });

describe('an edited template is what the next notice sends', () => {
  it('TEAM_REVISING edited through the console: the next return delivers the new title and body with the reason; disabled, nothing is delivered but the return still succeeds', async () => {
    const current = (await template('TEAM_REVISING')).body.data;
    const saved = await api<MessageTemplateItem>(t, 'PUT', '/api/admin/templates/TEAM_REVISING', {
      headers: admin.headers,
      body: {
        name: current.name,
        channels: ['INSITE'],
        subject: '请修改报名：{teamName}',
        body: '「{teamName}」的报名需要修改（{status}）。\n原因：{reason}',
        smsText: '',
        smsTemplateId: null,
        version: current.version,
      },
    });
    expect(saved.statusCode, JSON.stringify(saved.body)).toBe(200);

    const first = await submittedTeam();
    const res = await auditTeam(first.teamId, { outcome: 'REVISING', reason: '承诺书未盖章 <请补>' });
    expect(res.statusCode, JSON.stringify(res.body)).toBe(200);
    expect(await inbox(first.user.accountId)).toEqual([
      {
        title: `请修改报名：${first.teamName}`,
        body: `「${first.teamName}」的报名需要修改（退回修改）。<br>原因：承诺书未盖章 &lt;请补&gt;`,
        senderId: admin.accountId,
      },
    ]);

    const disabled = await api(t, 'PUT', '/api/admin/templates/TEAM_REVISING/enabled', { headers: admin.headers, body: { enabled: false } });
    expect(disabled.statusCode).toBe(200);
    const second = await submittedTeam();
    const quiet = await auditTeam(second.teamId, { outcome: 'REVISING', reason: '缺少推荐函' });
    expect(quiet.statusCode, JSON.stringify(quiet.body)).toBe(200);
    expect((await db().select().from(teams).where(eq(teams.id, second.teamId)))[0]).toMatchObject({ status: 'REVISING', auditReason: '缺少推荐函' });
    expect(await db().select().from(statusHistory).where(and(eq(statusHistory.subjectId, second.teamId), eq(statusHistory.toStatus, 'REVISING')))).toHaveLength(1);
    expect(await inbox(second.user.accountId)).toEqual([]);
    expect(await outboxOf(second.user.accountId)).toEqual([]);

    // Back to the defaults: the old text, word for word.
    expect((await api(t, 'DELETE', '/api/admin/templates/TEAM_REVISING', { headers: admin.headers })).statusCode).toBe(200);
    const third = await submittedTeam();
    expect((await auditTeam(third.teamId, { outcome: 'REVISING', reason: '缺少推荐函' })).statusCode).toBe(200);
    expect(await inbox(third.user.accountId)).toEqual([
      { title: '报名信息需修改', body: `您的团队「${third.teamName}」报名审核结果：退回修改。审核意见：缺少推荐函`, senderId: admin.accountId },
    ]);
  });
});

describe('email notices', () => {
  it('with 邮件通知 on an approval reaches the team owner by email; off, nothing is queued', async () => {
    await setSetting(t, 'notify.email', true);
    const on = await submittedTeam();
    const address = await emailOf(on.user.accountId);
    expect((await auditTeam(on.teamId, { outcome: 'APPROVED' })).statusCode).toBe(200);
    await sink.waitFor(1);
    const deadline = Date.now() + 5_000;
    while (!sink.mails.some((m) => m.to.includes(address)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const mails = sink.mails.filter((m) => m.to.includes(address));
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({
      to: [address],
      from: 'noreply@contest.test',
      subject: '报名审核通过',
      text: `您的团队「${on.teamName}」报名审核已通过，请在初赛材料提交时间内提交初赛材料。`,
    });
    const [row] = await outboxOf(on.user.accountId, 'EMAIL');
    expect(row).toMatchObject({ recipient: address, templateKey: 'TEAM_APPROVED' });
    // 短信通知 is off: no SMS, though the template has the channel.
    expect(await outboxOf(on.user.accountId, 'SMS')).toEqual([]);

    await setSetting(t, 'notify.email', false);
    const off = await submittedTeam();
    const offAddress = await emailOf(off.user.accountId);
    expect((await auditTeam(off.teamId, { outcome: 'APPROVED' })).statusCode).toBe(200);
    expect((await inbox(off.user.accountId)).map((m) => m.title)).toEqual(['报名审核通过']);
    expect(await outboxOf(off.user.accountId)).toEqual([]);
    // Absence needs a positive signal, not a fixed delay: switch email back on, approve a later
    // team and wait for its mail; once it has arrived, anything sent for the earlier approval
    // would have arrived before it.
    await setSetting(t, 'notify.email', true);
    const later = await submittedTeam();
    const laterAddress = await emailOf(later.user.accountId);
    expect((await auditTeam(later.teamId, { outcome: 'APPROVED' })).statusCode).toBe(200);
    const laterDeadline = Date.now() + 5_000;
    while (!sink.mails.some((m) => m.to.includes(laterAddress)) && Date.now() < laterDeadline) await new Promise((r) => setTimeout(r, 20));
    expect(sink.mails.filter((m) => m.to.includes(laterAddress))).toHaveLength(1);
    expect(sink.mails.filter((m) => m.to.includes(offAddress))).toEqual([]);
    await setSetting(t, 'notify.email', undefined);
  });
});

/** Materials of an approved team waiting for the formal check (or a draft), written directly. */
async function materials(status: 'SUBMITTED' | 'DRAFT'): Promise<{ user: SignedIn; docId: string }> {
  const { user, teamId } = await submittedTeam();
  await db().update(teams).set({ status: 'APPROVED' }).where(eq(teams.id, teamId));
  const [doc] = await db().insert(prelimDocs).values({ teamId, ownerId: user.accountId, status, projectName: `项目${user.username.slice(-4)}`, submittedAt: new Date() }).returning({ id: prelimDocs.id });
  return { user, docId: doc!.id };
}

/** Gives seeded accounts (experts, project owners of review-helpers) an address, so email reaches them. */
async function withEmail(ids: string[]): Promise<void> {
  for (const id of ids) await db().update(accounts).set({ email: `n${id.slice(0, 8)}@example.com` }).where(eq(accounts.id, id));
}
const ownerOf = async (prelimId: string) => (await db().select({ id: prelimDocs.ownerId }).from(prelimDocs).where(eq(prelimDocs.id, prelimId)))[0]!.id;

/** A review round: one project in a group of two experts, one sheet submitted; a third expert outside. */
async function reviewRound() {
  const [project] = await seedProjects(t, 1);
  const experts = await seedExperts(t, 3);
  await withEmail([...experts.map((e) => e.accountId), await ownerOf(project!)]);
  const [scorer, late, extra] = experts as [SeededExpert, SeededExpert, SeededExpert];
  await seedGroup(t, 'PRELIMINARY', [scorer.accountId, late.accountId], [project!]);
  const [sheet] = await db()
    .insert(scoreSheets)
    .values({ round: 'PRELIMINARY', prelimId: project!, expertId: scorer.accountId, status: 'SUBMITTED', scores: { innovation: 20, feasibility: 20, value: 20, completeness: 10 }, total: 140, comment: '好', submittedAt: new Date() })
    .returning({ id: scoreSheets.id });
  return { project: project!, sheetId: sheet!.id, scorer, late, extra };
}

const ok = async <T,>(res: Promise<Reply<T>>): Promise<Reply<T>> => {
  const r = await res;
  expect(r.statusCode, JSON.stringify(r.body)).toBe(200);
  return r;
};

/**
 * The flow that sends each event, through the app's calls; each answers the accounts that must
 * have received it. A new event in the catalogue needs its flow here, or the test below fails.
 */
const FLOWS: Array<{ code: TemplateEventCode; run: () => Promise<string[]> }> = [
  {
    code: 'TEAM_SUBMITTED',
    run: async () => {
      const user = await signIn(t, { realm: 'USER' });
      await ok(api(t, 'POST', '/api/team/my/submit', { headers: user.headers, body: await completeTeam(t, user) }));
      return [user.accountId];
    },
  },
  ...(['APPROVED', 'REVISING', 'REJECTED'] as const).map((outcome) => ({
    code: `TEAM_${outcome}` as const,
    run: async () => {
      const team = await submittedTeam();
      await ok(auditTeam(team.teamId, { outcome, reason: outcome === 'APPROVED' ? '' : '材料不全' }));
      return [team.user.accountId];
    },
  })),
  {
    code: 'TEAM_DRAFT_REMIND',
    run: async () => {
      const user = await signIn(t, { realm: 'USER' });
      const [draft] = await db().insert(teams).values({ ownerId: user.accountId, status: 'DRAFT', teamName: '草稿队', orgName: '示例医院' }).returning({ id: teams.id });
      const res = await ok(api(t, 'POST', '/api/admin/team/draft/remind', { headers: admin.headers, body: { ids: [draft!.id] } }));
      expect(res.body.data).toMatchObject({ reminded: 1 });
      return [user.accountId];
    },
  },
  {
    code: 'PRELIM_SUBMITTED',
    run: async () => {
      const user = await signIn(t, { realm: 'USER' });
      await db().insert(teams).values({ ownerId: user.accountId, status: 'APPROVED', teamName: '材料队', orgName: '示例医院', track: 'SMART_SUPERVISION' });
      const body = {
        projectName: '医保智能审核',
        track: 'SMART_SUPERVISION',
        summary: '基于规则与模型的智能审核。',
        keywords: ['医保'],
        application: await upload(t, user, 'PRELIM', '申报书.pdf', makePdf([['Smart review']])),
        presentation: await upload(t, user, 'PRELIM', '演示.pptx', fakeFile.zip(800)),
        video: null,
        others: [],
      };
      await ok(api(t, 'POST', '/api/prelim-doc/my/submit', { headers: user.headers, body }));
      return [user.accountId];
    },
  },
  ...(['APPROVED', 'REVISING', 'REJECTED'] as const).map((outcome) => ({
    code: `PRELIM_${outcome}` as const,
    run: async () => {
      const { user, docId } = await materials('SUBMITTED');
      await ok(api(t, 'POST', `/api/admin/prelim-doc/${docId}/audit`, { headers: admin.headers, body: { outcome, reason: outcome === 'APPROVED' ? '' : '材料不全' } }));
      return [user.accountId];
    },
  })),
  {
    code: 'PRELIM_DRAFT_REMIND',
    run: async () => {
      const { user, docId } = await materials('DRAFT');
      const res = await ok(api(t, 'POST', '/api/admin/prelim-doc/draft/remind', { headers: admin.headers, body: { ids: [docId] } }));
      expect(res.body.data).toMatchObject({ reminded: 1 });
      return [user.accountId];
    },
  },
  {
    code: 'FINAL_PROMOTED',
    run: async () => {
      // Picked by hand: no ranking needed.
      const [project] = await seedProjects(t, 1);
      await withEmail([await ownerOf(project!)]);
      const previewed = await ok(api<PromotionPreview>(t, 'POST', '/api/admin/final/promotion/preview', { headers: admin.headers, body: { mode: 'PICKED', ids: [project] } }));
      const token = previewed.body.data.token;
      await ok(api(t, 'POST', '/api/admin/final/promotion/confirm', { headers: admin.headers, body: { mode: 'PICKED', ids: [project], token } }));
      return [await ownerOf(project!)];
    },
  },
  {
    code: 'FEEDBACK_REPLIED',
    run: async () => {
      const user = await signIn(t, { realm: 'USER' });
      const question = await ok(api<{ id: string }>(t, 'POST', '/api/feedback', { headers: user.headers, body: { type: 'CONSULT', content: '请问决赛时间？' } }));
      await ok(api(t, 'POST', `/api/admin/feedback/${question.body.data.id}/reply`, { headers: admin.headers, body: { reply: '十一月。' } }));
      return [user.accountId];
    },
  },
  {
    code: 'REVIEW_REMIND',
    run: async () => {
      const { late } = await reviewRound();
      const res = await ok(api(t, 'POST', '/api/admin/review/prelim/monitor/remind', { headers: admin.headers, body: { expertIds: [late.accountId] } }));
      expect(res.body.data).toMatchObject({ reminded: 1 });
      return [late.accountId];
    },
  },
  {
    code: 'REVIEW_CALIBRATION_NOTE',
    run: async () => {
      // A private note to one expert of the round from 评审质量 (docs/rules/judging-quality.md).
      const { scorer } = await reviewRound();
      await ok(api(t, 'POST', '/api/admin/review/prelim/calibration/note', { headers: admin.headers, body: { expertId: scorer.accountId, text: '您的评分整体偏高，请参照评分细则。' } }));
      return [scorer.accountId];
    },
  },
  {
    code: 'SCORE_ABSTAINED',
    run: async () => {
      // An expert abstains from an assigned project: every enabled super admin is told (docs/rules/review.md, "Abstaining").
      const { project, late } = await reviewRound();
      const supers = (await db().select({ id: accounts.id }).from(accounts).where(and(eq(accounts.realm, 'ADMIN'), eq(accounts.roleCode, 'SUPER_ADMIN'), eq(accounts.enabled, true)))).map((r) => r.id);
      await withEmail(supers);
      await ok(api(t, 'POST', `/api/expert/review/prelim/${project}/abstain`, { headers: late.headers, body: { reason: '与项目负责人曾合作' } }));
      return supers;
    },
  },
  {
    code: 'SCORE_RETURNED',
    run: async () => {
      const { sheetId, scorer } = await reviewRound();
      await ok(api(t, 'POST', `/api/admin/review/prelim/sheets/${sheetId}/return`, { headers: admin.headers, body: { reason: '评分依据不足' } }));
      return [scorer.accountId];
    },
  },
  {
    code: 'REREVIEW_INVITED',
    run: async () => {
      const { project, extra } = await reviewRound();
      await ok(api(t, 'POST', `/api/admin/review/prelim/projects/${project}/rereview`, { headers: admin.headers, body: { mode: 'ADD_EXPERTS', expertIds: [extra.accountId], reason: '分歧较大' } }));
      return [extra.accountId];
    },
  },
  // Results publication and appeals (docs/rules/results.md): one preliminary round published, three appeals.
  {
    code: 'RESULT_PUBLISHED',
    run: async () => {
      // A promotion of nobody (written directly: the promotion's own notice is FINAL_PROMOTED's flow).
      await db().insert(promotions).values({ mode: 'PICKED', rule: {}, ranking: [], promotedIds: [], actorName: '通知管理员' });
      const owners = (await db().select({ id: prelimDocs.ownerId }).from(prelimDocs).where(eq(prelimDocs.status, 'APPROVED'))).map((r) => r.id);
      await withEmail(owners);
      await ok(api(t, 'POST', '/api/admin/results/prelim/publish', { headers: admin.headers, body: {} }));
      return owners;
    },
  },
  {
    code: 'APPEAL_RECEIVED',
    run: async () => {
      const docs = await db().select({ id: prelimDocs.id, ownerId: prelimDocs.ownerId }).from(prelimDocs).where(eq(prelimDocs.status, 'APPROVED')).limit(2);
      appellants.length = 0;
      for (const doc of docs) {
        const { token } = await createSessionService(db()).create({ realm: 'USER', accountId: doc.ownerId });
        const filed = await ok(api<{ id: string; version: number }>(t, 'POST', '/api/results/prelim/appeal', { headers: { authorization: `Bearer ${token}` }, body: { reason: '申诉理由' } }));
        appellants.push({ appealId: filed.body.data.id, projectId: doc.id, ownerId: doc.ownerId });
      }
      return appellants.map((a) => a.ownerId);
    },
  },
  {
    code: 'APPEAL_REJECTED',
    run: async () => {
      const [first] = appellants;
      await ok(api(t, 'POST', `/api/admin/appeals/${first!.appealId}/reject`, { headers: admin.headers, body: { reply: '维持原结果', version: 1 } }));
      return [first!.ownerId];
    },
  },
  {
    code: 'APPEAL_ACCEPTED',
    run: async () => {
      const second = appellants[1]!;
      // An added expert without an address: the invitation stays in-site (REREVIEW_INVITED's flow covers it).
      const [expert] = await seedExperts(t, 1);
      await ok(api(t, 'POST', `/api/admin/appeals/${second.appealId}/accept`, { headers: admin.headers, body: { reply: '予以复评', version: 1, mode: 'ADD_EXPERTS', expertIds: [expert!.accountId] } }));
      await db()
        .insert(scoreSheets)
        .values({ round: 'PRELIMINARY', prelimId: second.projectId, expertId: expert!.accountId, status: 'SUBMITTED', scores: { innovation: 20, feasibility: 20, value: 20, completeness: 10 }, total: 140, comment: '复评', submittedAt: new Date() });
      return [second.ownerId];
    },
  },
  {
    code: 'RESULT_REVISED',
    run: async () => {
      await ok(api(t, 'POST', '/api/admin/results/prelim/versions', { headers: admin.headers, body: { reason: '复评结束' } }));
      // The teams whose line changed, and the appellant whose re-review ended.
      const compared = await ok(api<CompareAnswer>(t, 'GET', '/api/admin/results/prelim/versions/compare?a=1&b=2&changedOnly=true', { headers: admin.headers }));
      const projects = new Set([...compared.body.data.rows.filter((r) => r.movement !== 'REMOVED').map((r) => r.projectId), appellants[1]!.projectId]);
      return Promise.all([...projects].map(ownerOf));
    },
  },
  {
    code: 'CERTIFICATES_READY',
    run: async () => {
      // The preliminary result's current version (RESULT_REVISED's): each of its teams gets its promotion
      // notice or participation certificate, and its owner is told (docs/certificates.md, "Issuing").
      for (const kind of ['PROMOTION', 'PARTICIPATION'] as const) {
        await ok(api(t, 'POST', '/api/admin/certificates/templates', { headers: admin.headers, body: { name: `通知流程${kind}`, kind, fields: [{ key: 'team', x: 0.1, y: 0.4, width: 0.8 }] } }));
      }
      const owners = (
        await db()
          .selectDistinct({ id: teams.ownerId })
          .from(resultEntries)
          .innerJoin(resultVersions, eq(resultVersions.id, resultEntries.versionId))
          .innerJoin(teams, eq(teams.id, resultEntries.teamId))
          .where(and(eq(resultVersions.round, 'PRELIMINARY'), eq(resultVersions.status, 'PUBLISHED')))
      ).map((r) => r.id);
      expect(owners.length).toBeGreaterThan(0);
      await withEmail(owners);
      await ok(api(t, 'POST', '/api/admin/certificates/prelim/issue', { headers: admin.headers, body: { kinds: ['PROMOTION', 'PARTICIPATION'] } }));
      await t.app.deps.jobs.runDue();
      return owners;
    },
  },
  {
    code: 'SCORE_LOG_MISMATCH',
    run: async () => {
      // APPEAL_ACCEPTED's flow wrote a submitted sheet beside the log: the daily check names it to
      // every enabled super admin (docs/security.md "Score log: anchors and receipts").
      const supers = (await db().select({ id: accounts.id }).from(accounts).where(and(eq(accounts.realm, 'ADMIN'), eq(accounts.roleCode, 'SUPER_ADMIN'), eq(accounts.enabled, true)))).map((r) => r.id);
      await withEmail(supers);
      expect(await runDailyVerify(db())).toEqual({ ok: false, notified: supers.length });
      return supers;
    },
  },
  // Personal data requests (docs/retention.md).
  {
    code: 'DATA_EXPORT_READY',
    run: async () => {
      const user = await signIn(t, { realm: 'USER' });
      await ok(api(t, 'POST', '/api/my-data/export', { headers: user.headers }));
      await t.app.deps.jobs.runDue();
      const mine = await ok(api<{ export: { status: string } }>(t, 'GET', '/api/my-data', { headers: user.headers }));
      expect(mine.body.data.export.status).toBe('READY');
      return [user.accountId];
    },
  },
  {
    code: 'DATA_DELETE_REJECTED',
    run: async () => {
      const user = await signIn(t, { realm: 'USER' });
      const asked = await ok(api<{ id: string; version: number }>(t, 'POST', '/api/my-data/deletion', { headers: user.headers, body: { reason: '不再参赛' } }));
      await ok(api(t, 'POST', `/api/admin/data-requests/${asked.body.data.id}/decide`, { headers: admin.headers, body: { decision: 'REJECT', reply: '比赛尚未结束', version: asked.body.data.version } }));
      return [user.accountId];
    },
  },
  {
    code: 'DATA_DELETE_WAITING',
    run: async () => {
      // A sign-up waiting for its audit keeps the deletion waiting.
      const { user } = await submittedTeam();
      const asked = await ok(api<{ id: string; version: number }>(t, 'POST', '/api/my-data/deletion', { headers: user.headers, body: { reason: '不再参赛' } }));
      const decided = await ok(
        api<{ status: string; waitReason: string }>(t, 'POST', `/api/admin/data-requests/${asked.body.data.id}/decide`, {
          headers: admin.headers,
          body: { decision: 'APPROVE', reply: '同意', version: asked.body.data.version },
        }),
      );
      expect(decided.body.data).toMatchObject({ status: 'WAITING', waitReason: 'SIGN_UP_OPEN' });
      return [user.accountId];
    },
  },
  {
    code: 'DATA_DELETE_APPROVED',
    run: async () => {
      const user = await signIn(t, { realm: 'USER' });
      const asked = await ok(api<{ id: string; version: number }>(t, 'POST', '/api/my-data/deletion', { headers: user.headers, body: { reason: '不再参赛' } }));
      await ok(api(t, 'POST', `/api/admin/data-requests/${asked.body.data.id}/decide`, { headers: admin.headers, body: { decision: 'APPROVE', reply: '同意', version: asked.body.data.version } }));
      return [user.accountId];
    },
  },
];
const appellants: { appealId: string; projectId: string; ownerId: string }[] = [];
type CompareAnswer = { rows: { projectId: string; movement: string }[] };

describe('the event catalogue', () => {
  it('every catalogued event is sent by its flow, in-site and by email, to the right accounts', async () => {
    // Email on: each notice leaves an EMAIL outbox row keyed by its event, whatever its text.
    await setSetting(t, 'notify.email', true);
    try {
      const sent = new Set<TemplateEventCode>();
      for (const flow of FLOWS) {
        const before = new Set((await db().select({ id: noticeOutbox.id }).from(noticeOutbox)).map((r) => r.id));
        const recipients = await flow.run();
        const fresh = (await db().select().from(noticeOutbox).where(eq(noticeOutbox.channel, 'EMAIL'))).filter((r) => !before.has(r.id));
        // Exactly its event, to exactly its recipients; by email unless the event is in-site only
        // by default (a private note to an expert stays in the portal).
        const byEmail = (TEMPLATE_EVENTS[flow.code].defaults.channels as readonly string[]).includes('EMAIL');
        expect(fresh.map((r) => [r.templateKey, r.accountId]).sort(), flow.code).toEqual(byEmail ? recipients.map((id) => [flow.code, id]).sort() : []);
        for (const id of recipients) {
          const titles = (await inbox(id)).map((m) => m.title);
          expect(titles, `${flow.code} in-site`).toContain(fillTemplate(TEMPLATE_EVENTS[flow.code].defaults.subject, { round: '初赛' }));
        }
        sent.add(flow.code);
      }
      // A catalogued event that no flow sends fails here: add its flow to FLOWS with its service.
      expect(TEMPLATE_EVENT_CODES.filter((code) => !sent.has(code)), 'catalogued events no flow sends').toEqual([]);
    } finally {
      await setSetting(t, 'notify.email', undefined);
    }
  }, 90_000);
});
