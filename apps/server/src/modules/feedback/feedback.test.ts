import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { ADMIN_MSG, CONTENT_MSG, DICTIONARY_SEED, FEEDBACK_MSG, type AdminFeedbackItem, type FeedbackItem, type Page, type UploadedFile } from '@contest/shared';
import { dictItems, dictTypes, feedback, messageRecipients, messages, operationRecords } from '../../db/schema.js';
import { createContentTestApp } from '../../../test/content-app.js';
import { fakeFile, multipart } from '../../../test/files-helpers.js';
import type { TestApp } from '../../../test/helpers.js';
import { signIn, type SignedIn } from '../../../test/sign-in.js';
import { FEEDBACK_REPLIED_TITLE } from './feedback.service.js';

let t: TestApp;

beforeAll(async () => {
  t = await createContentTestApp();
  const type = DICTIONARY_SEED.find((d) => d.code === 'FEEDBACK_TYPE')!;
  await t.database.db.insert(dictTypes).values({ code: type.code, name: type.name }).onConflictDoNothing();
  await t.database.db
    .insert(dictItems)
    .values([...type.items.map((item, sort) => ({ typeCode: type.code, code: item.code, name: item.name, sort })), { typeCode: type.code, code: 'RETIRED', name: '旧类型', enabled: false }])
    .onConflictDoNothing();
});
afterAll(async () => {
  await t?.close();
});

async function upload(who: SignedIn, origin: string, name = 'shot.png'): Promise<UploadedFile> {
  const { payload, headers } = multipart({ origin, name }, { name, content: fakeFile.png(2048) });
  const res = await t.app.inject({ method: 'POST', url: '/api/attachment/upload/public', payload, headers: { ...headers, ...who.headers } });
  expect(res.statusCode).toBe(200);
  return res.json().data as UploadedFile;
}

const post = (url: string, who: SignedIn | null, payload: unknown) =>
  t.app.inject({ method: 'POST', url, payload: payload as object, headers: who?.headers ?? {} });
const get = (url: string, who: SignedIn | null) => t.app.inject({ method: 'GET', url, headers: who?.headers ?? {} });
const countOf = async (ownerId: string) =>
  ((await t.database.db.select({ n: sql<number>`count(*)::int` }).from(feedback).where(eq(feedback.ownerId, ownerId))) as [{ n: number }])[0].n;

describe('POST /api/feedback', () => {
  it('stores feedback with own FEEDBACK attachments (uniqueNo or filePath) and answers it', async () => {
    const me = await signIn(t, { realm: 'USER' });
    const a = await upload(me, 'FEEDBACK');
    const b = await upload(me, 'FEEDBACK', '说明.png');
    const res = await post('/api/feedback', me, { type: 'BUG', content: '  上传页面报错  ', contact: '13900000000', attachments: [a.uniqueNo, b.filePath] });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(CONTENT_MSG.feedbackSent);
    const item = res.json().data as FeedbackItem;
    expect(item).toMatchObject({ type: 'BUG', typeName: '系统问题', content: '上传页面报错', contact: '13900000000', status: 'OPEN', reply: null, repliedAt: null });
    expect(item.attachments).toEqual([
      { uniqueNo: a.uniqueNo, name: 'shot.png', size: 2048, filePath: a.filePath },
      { uniqueNo: b.uniqueNo, name: '说明.png', size: 2048, filePath: b.filePath },
    ]);
    const [row] = await t.database.db.select().from(feedback).where(eq(feedback.id, item.id));
    expect(row!.ownerId).toBe(me.accountId);
    expect(row!.attachmentIds).toHaveLength(2);

    const plain = await post('/api/feedback', me, { type: 'CONSULT', content: '请问报名截止时间？' });
    expect(plain.statusCode).toBe(200);
    expect(plain.json().data).toMatchObject({ contact: null, attachments: [] });
  });

  it('refuses bad input with its message and writes nothing', async () => {
    const me = await signIn(t, { realm: 'USER' });
    const cases: [unknown, string][] = [
      [{ content: 'x' }, CONTENT_MSG.feedbackTypeRequired],
      [{ type: 'NOPE', content: 'x' }, CONTENT_MSG.feedbackTypeInvalid],
      [{ type: 'RETIRED', content: 'x' }, CONTENT_MSG.feedbackTypeInvalid],
      [{ type: 'BUG' }, CONTENT_MSG.feedbackContentRequired],
      [{ type: 'BUG', content: '   ' }, CONTENT_MSG.feedbackContentRequired],
      [{ type: 'BUG', content: '字'.repeat(1001) }, CONTENT_MSG.feedbackContentTooLong],
      [{ type: 'BUG', content: 'x', contact: '1'.repeat(101) }, CONTENT_MSG.feedbackContactTooLong],
      [{ type: 'BUG', content: 'x', attachments: ['a', 'b', 'c', 'd'] }, CONTENT_MSG.feedbackAttachmentsTooMany],
      [{ type: 'BUG', content: 'x', attachments: ['../../etc/passwd'] }, CONTENT_MSG.feedbackAttachmentInvalid],
      [{ type: 'BUG', content: 'x', attachments: ['AAAAAAAAAAAAAAAAAAAAAA'] }, CONTENT_MSG.feedbackAttachmentInvalid],
    ];
    for (const [payload, message] of cases) {
      const res = await post('/api/feedback', me, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message).toBe(message);
    }
    expect((await post('/api/feedback', me, { type: 'BUG', content: '字'.repeat(1000) })).statusCode).toBe(200);
    expect(await countOf(me.accountId)).toBe(1);
  });

  it("refuses someone else's file and the caller's files of another origin, writing nothing", async () => {
    const me = await signIn(t, { realm: 'USER' });
    const other = await signIn(t, { realm: 'USER' });
    const theirs = await upload(other, 'FEEDBACK');
    const mineOther = await upload(me, 'OTHER', 'x.png');
    const mine = await upload(me, 'FEEDBACK');
    for (const attachments of [[theirs.uniqueNo], [mine.uniqueNo, mineOther.uniqueNo]]) {
      const res = await post('/api/feedback', me, { type: 'BUG', content: 'x', attachments });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ message: CONTENT_MSG.feedbackAttachmentInvalid, data: { field: 'attachments' } });
    }
    expect(await countOf(me.accountId)).toBe(0);
  });

  it('needs a participant session', async () => {
    expect((await post('/api/feedback', null, { type: 'BUG', content: 'x' })).statusCode).toBe(401);
    const admin = await signIn(t, { realm: 'ADMIN', roleCode: 'SUPER_ADMIN' });
    expect((await post('/api/feedback', admin, { type: 'BUG', content: 'x' })).statusCode).toBe(401);
  });
});

describe('own feedback', () => {
  it('lists only the caller\'s feedback newest first and hides others\' (404)', async () => {
    const me = await signIn(t, { realm: 'USER' });
    const other = await signIn(t, { realm: 'USER' });
    const first = (await post('/api/feedback', me, { type: 'BUG', content: 'first' })).json().data as FeedbackItem;
    await post('/api/feedback', me, { type: 'OTHER', content: 'second' });
    const theirs = (await post('/api/feedback', other, { type: 'BUG', content: 'theirs' })).json().data as FeedbackItem;
    const list = (await get('/api/feedback/my', me)).json().data as Page<FeedbackItem>;
    expect(list.list.map((f) => f.content)).toEqual(['second', 'first']);
    expect(list.total).toBe(2);
    expect((await get('/api/feedback/my?size=1&page=2', me)).json().data.list.map((f: FeedbackItem) => f.content)).toEqual(['first']);
    const own = await get(`/api/feedback/${first.id}`, me);
    expect(own.statusCode).toBe(200);
    expect(own.json().data.content).toBe('first');
    const foreign = await get(`/api/feedback/${theirs.id}`, me);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe(CONTENT_MSG.feedbackNotFound);
    expect((await get('/api/feedback/nope', me)).statusCode).toBe(404);
    expect((await get('/api/feedback/my', null)).statusCode).toBe(401);
  });
});

describe('admin reply', () => {
  it('replies, records the operation, tells the participant, who then sees the reply', async () => {
    const me = await signIn(t, { realm: 'USER' });
    const admin = await signIn(t, { realm: 'ADMIN', buttons: ['feedback:reply'] });
    const item = (await post('/api/feedback', me, { type: 'CONSULT', content: '何时公布结果？' })).json().data as FeedbackItem;

    const listed = (await get('/api/admin/feedback?status=OPEN&size=100', admin)).json().data as Page<AdminFeedbackItem>;
    expect(listed.list.find((f) => f.id === item.id)?.owner).toMatchObject({ id: me.accountId, username: me.username });

    const res = await post(`/api/admin/feedback/${item.id}/reply`, admin, { reply: '  预计十一月公布。 ' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: CONTENT_MSG.replied, data: { id: item.id, status: 'REPLIED', reply: '预计十一月公布。' } });

    const seen = (await get(`/api/feedback/${item.id}`, me)).json().data as FeedbackItem;
    expect(seen).toMatchObject({ status: 'REPLIED', reply: '预计十一月公布。', repliedAt: expect.any(String) });
    const ops = await t.database.db.select().from(operationRecords).where(eq(operationRecords.targetId, item.id));
    expect(ops).toHaveLength(1);
    expect(ops[0]).toMatchObject({ action: 'feedback:reply', targetType: 'feedback', accountId: admin.accountId, realm: 'ADMIN' });
    const inbox = await t.database.db
      .select({ title: messages.title })
      .from(messageRecipients)
      .innerJoin(messages, eq(messages.id, messageRecipients.messageId))
      .where(eq(messageRecipients.accountId, me.accountId));
    expect(inbox).toEqual([{ title: FEEDBACK_REPLIED_TITLE }]);

    const closed = await post(`/api/admin/feedback/${item.id}/reply`, admin, { reply: '已答复', close: true });
    expect(closed.json().data).toMatchObject({ status: 'CLOSED', reply: '已答复', repliedBy: { id: admin.accountId }, closedAt: expect.any(String) });
    const mine = (await get('/api/feedback/my', me)).json().data as Page<FeedbackItem>;
    expect(mine.list).toEqual([expect.objectContaining({ id: item.id, status: 'CLOSED', reply: '已答复' })]);
  });

  it('refuses bad replies, wrong callers and unknown ids, writing nothing', async () => {
    const me = await signIn(t, { realm: 'USER' });
    const item = (await post('/api/feedback', me, { type: 'CONSULT', content: 'q' })).json().data as FeedbackItem;
    const admin = await signIn(t, { realm: 'ADMIN', buttons: ['feedback:reply'] });
    const noButton = await signIn(t, { realm: 'ADMIN', buttons: ['news:edit'] });
    const url = `/api/admin/feedback/${item.id}/reply`;
    expect((await post(url, null, { reply: 'x' })).statusCode).toBe(401);
    expect((await post(url, me, { reply: 'x' })).statusCode).toBe(401);
    expect((await post(url, noButton, { reply: 'x' })).statusCode).toBe(403);
    expect((await get('/api/admin/feedback', noButton)).statusCode).toBe(403);
    const empty = await post(url, admin, { reply: '  ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe(CONTENT_MSG.replyRequired);
    const long = await post(url, admin, { reply: 'x'.repeat(2001) });
    expect(long.json().message).toBe(CONTENT_MSG.replyTooLong);
    expect((await post('/api/admin/feedback/00000000-0000-4000-8000-000000000000/reply', admin, { reply: 'x' })).statusCode).toBe(404);
    const [row] = await t.database.db.select().from(feedback).where(eq(feedback.id, item.id));
    expect(row).toMatchObject({ status: 'OPEN', reply: null });
    expect(await t.database.db.select().from(operationRecords).where(eq(operationRecords.targetId, item.id))).toHaveLength(0);
    expect(await t.database.db.select().from(messageRecipients).where(eq(messageRecipients.accountId, me.accountId))).toHaveLength(0);
  });
});

/** A fresh participant's feedback and an admin allowed to answer it. */
async function openFeedback(content = '请问如何修改团队名称？') {
  const me = await signIn(t, { realm: 'USER' });
  const admin = await signIn(t, { realm: 'ADMIN', buttons: ['feedback:reply'] });
  const item = (await post('/api/feedback', me, { type: 'CONSULT', content })).json().data as FeedbackItem;
  return { me, admin, item };
}
const rowOf = async (id: string) => (await t.database.db.select().from(feedback).where(eq(feedback.id, id)))[0]!;
const opsOn = (id: string) => t.database.db.select().from(operationRecords).where(eq(operationRecords.targetId, id));
const inboxOf = (accountId: string) => t.database.db.select().from(messageRecipients).where(eq(messageRecipients.accountId, accountId));

describe('reply concurrency (lastRepliedAt)', () => {
  it('of two admins answering an open feedback at once, one wins and the other is refused as STALE', async () => {
    const { me, admin, item } = await openFeedback();
    const other = await signIn(t, { realm: 'ADMIN', buttons: ['feedback:reply'] });
    const [a, b] = await Promise.all([
      post(`/api/admin/feedback/${item.id}/reply`, admin, { reply: '甲的回复', lastRepliedAt: null }),
      post(`/api/admin/feedback/${item.id}/reply`, other, { reply: '乙的回复', lastRepliedAt: null }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 400]);
    const loser = a.statusCode === 400 ? a : b;
    const winner = a.statusCode === 200 ? a : b;
    expect(loser.json()).toMatchObject({ message: FEEDBACK_MSG.feedbackReplyStale, data: { reason: 'STALE' } });
    const row = await rowOf(item.id);
    expect(row.reply).toBe((winner.json().data as AdminFeedbackItem).reply);
    expect(await opsOn(item.id)).toHaveLength(1);
    expect(await inboxOf(me.accountId)).toHaveLength(1);
  });

  it('a reply written against the current answer replaces it (and tells the participant again); an outdated one is refused', async () => {
    const { me, admin, item } = await openFeedback();
    const first = (await post(`/api/admin/feedback/${item.id}/reply`, admin, { reply: '第一次', lastRepliedAt: null })).json().data as AdminFeedbackItem;
    expect(first.repliedAt).toEqual(expect.any(String));

    const stale = await post(`/api/admin/feedback/${item.id}/reply`, admin, { reply: '过时的', lastRepliedAt: null });
    expect(stale.statusCode).toBe(400);
    expect(stale.json()).toMatchObject({ message: FEEDBACK_MSG.feedbackReplyStale, data: { reason: 'STALE' } });
    const older = await post(`/api/admin/feedback/${item.id}/reply`, admin, { reply: '过时的', lastRepliedAt: '2020-01-01T00:00:00.000Z' });
    expect(older.json().data).toEqual({ reason: 'STALE' });
    expect((await rowOf(item.id)).reply).toBe('第一次');

    const second = await post(`/api/admin/feedback/${item.id}/reply`, admin, { reply: '更正后的回复', lastRepliedAt: first.repliedAt });
    expect(second.statusCode).toBe(200);
    expect(second.json().data).toMatchObject({ status: 'REPLIED', reply: '更正后的回复' });
    expect(((await get(`/api/feedback/${item.id}`, me)).json().data as FeedbackItem).reply).toBe('更正后的回复');
    expect(await inboxOf(me.accountId)).toHaveLength(2);
    const ops = await opsOn(item.id);
    expect(ops.map((o) => o.action)).toEqual(['feedback:reply', 'feedback:reply']);
    expect(ops.map((o) => o.summary).join('\n')).toContain('更新对用户');
  });

  it('refuses a malformed lastRepliedAt with its text', async () => {
    const { admin, item } = await openFeedback();
    const res = await post(`/api/admin/feedback/${item.id}/reply`, admin, { reply: 'x', lastRepliedAt: 'yesterday' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(FEEDBACK_MSG.lastRepliedAtInvalid);
    expect((await rowOf(item.id)).status).toBe('OPEN');
  });
});

describe('closing', () => {
  it('closes without a reply, audited, no message; the participant sees it closed; a closed feedback takes no reply', async () => {
    const { me, admin, item } = await openFeedback('垃圾信息');
    const res = await post(`/api/admin/feedback/${item.id}/close`, admin, undefined);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: FEEDBACK_MSG.feedbackClosedOk, data: { id: item.id, status: 'CLOSED', reply: null, closedAt: expect.any(String) } });
    const ops = await opsOn(item.id);
    expect(ops).toHaveLength(1);
    expect(ops[0]).toMatchObject({ action: 'feedback:close', targetType: 'feedback', accountId: admin.accountId });
    expect(await inboxOf(me.accountId)).toHaveLength(0);
    expect(((await get(`/api/feedback/${item.id}`, me)).json().data as FeedbackItem).status).toBe('CLOSED');

    for (const body of [{ reply: '迟到的回复' }, { reply: '迟到的回复', lastRepliedAt: null }, { reply: 'x', close: true }]) {
      const late = await post(`/api/admin/feedback/${item.id}/reply`, admin, body);
      expect(late.statusCode).toBe(400);
      expect(late.json()).toMatchObject({ message: FEEDBACK_MSG.feedbackClosed, data: { reason: 'CLOSED' } });
    }
    const again = await post(`/api/admin/feedback/${item.id}/close`, admin, undefined);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ message: FEEDBACK_MSG.feedbackAlreadyClosed, data: { reason: 'CLOSED' } });
    expect(await rowOf(item.id)).toMatchObject({ status: 'CLOSED', reply: null });
    expect(await opsOn(item.id)).toHaveLength(1);
    expect(await inboxOf(me.accountId)).toHaveLength(0);
  });

  it('closes a replied feedback, keeping its reply; two closes at once: one succeeds', async () => {
    const { me, admin, item } = await openFeedback();
    await post(`/api/admin/feedback/${item.id}/reply`, admin, { reply: '已处理' });
    const [a, b] = await Promise.all([post(`/api/admin/feedback/${item.id}/close`, admin, undefined), post(`/api/admin/feedback/${item.id}/close`, admin, undefined)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 400]);
    expect(await rowOf(item.id)).toMatchObject({ status: 'CLOSED', reply: '已处理' });
    expect((await opsOn(item.id)).map((o) => o.action).sort()).toEqual(['feedback:close', 'feedback:reply']);
    expect((await get('/api/feedback/my', me)).json().data.list[0]).toMatchObject({ status: 'CLOSED', reply: '已处理' });
  });

  it('needs the feedback:reply button; unknown ids are 404', async () => {
    const { me, item } = await openFeedback();
    const reader = await signIn(t, { realm: 'ADMIN', menus: ['UserFeedback'] });
    const admin = await signIn(t, { realm: 'ADMIN', buttons: ['feedback:reply'] });
    const url = `/api/admin/feedback/${item.id}/close`;
    expect((await post(url, null, undefined)).statusCode).toBe(401);
    expect((await post(url, me, undefined)).statusCode).toBe(401);
    expect((await get('/api/admin/feedback', reader)).statusCode).toBe(200);
    expect((await post(url, reader, undefined)).statusCode).toBe(403);
    expect((await post(`/api/admin/feedback/${item.id}/reply`, reader, { reply: 'x' })).statusCode).toBe(403);
    const missing = await post('/api/admin/feedback/00000000-0000-4000-8000-000000000000/close', admin, undefined);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe(CONTENT_MSG.feedbackNotFound);
    expect((await post('/api/admin/feedback/nope/close', admin, undefined)).statusCode).toBe(400);
    expect((await rowOf(item.id)).status).toBe('OPEN');
  });
});

describe('admin list filters', () => {
  it('filters by keyword (content, contact, participant), type, status and submission time', async () => {
    const tag = `kw${Date.now().toString(36)}`;
    const me = await signIn(t, { realm: 'USER', name: `参赛者${tag}` });
    const admin = await signIn(t, { realm: 'ADMIN', buttons: ['feedback:reply'] });
    const bug = (await post('/api/feedback', me, { type: 'BUG', content: `上传失败 ${tag}` })).json().data as FeedbackItem;
    const consult = (await post('/api/feedback', me, { type: 'CONSULT', content: '报名何时截止', contact: `${tag}@example.com` })).json().data as FeedbackItem;
    await post(`/api/admin/feedback/${consult.id}/reply`, admin, { reply: '见通知' });
    const list = async (query: string) => {
      const res = await get(`/api/admin/feedback?size=100&${query}`, admin);
      expect(res.statusCode, query).toBe(200);
      return (res.json().data as Page<AdminFeedbackItem>).list.map((f) => f.id);
    };
    expect(await list(`keyword=${tag}`)).toEqual([consult.id, bug.id]);
    expect(await list(`keyword=${encodeURIComponent(`参赛者${tag}`)}`)).toEqual([consult.id, bug.id]);
    expect(await list(`keyword=${me.username.toUpperCase()}`)).toEqual([consult.id, bug.id]);
    expect(await list(`keyword=${tag}&type=BUG`)).toEqual([bug.id]);
    expect(await list(`keyword=${tag}&status=REPLIED`)).toEqual([consult.id]);
    expect(await list(`keyword=${tag}&status=OPEN`)).toEqual([bug.id]);
    expect(await list(`keyword=${tag}&status=CLOSED`)).toEqual([]);
    expect(await list(`keyword=${tag}&from=2000-01-01&to=2999-12-31`)).toEqual([consult.id, bug.id]);
    expect(await list(`keyword=${tag}&to=2000-01-01`)).toEqual([]);
    expect(await list(`keyword=${tag}&from=2999-01-01%2000:00:00`)).toEqual([]);
    const total = (await get(`/api/admin/feedback?keyword=${tag}&size=1`, admin)).json().data as Page<AdminFeedbackItem>;
    expect(total).toMatchObject({ total: 2, size: 1 });
    expect(total.list[0]!.repliedBy).toMatchObject({ id: admin.accountId });

    const refusals: [string, string][] = [
      ['from=2025-02-01&to=2025-01-01', ADMIN_MSG.dateRangeInvalid],
      ['from=yesterday', ADMIN_MSG.dateTimeInvalid],
      ['status=DONE', CONTENT_MSG.feedbackStatusInvalid],
      [`keyword=${'x'.repeat(51)}`, ADMIN_MSG.keywordTooLong],
    ];
    for (const [query, message] of refusals) {
      const res = await get(`/api/admin/feedback?${query}`, admin);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().message).toBe(message);
    }
  });
});
