import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { CONTENT_MSG, type InboxMessage, type MessageSummary, type Page } from '@contest/shared';
import { accounts, messageRecipients } from '../../db/schema.js';
import { createContentTestApp } from '../../../test/content-app.js';
import type { TestApp } from '../../../test/helpers.js';
import { signIn, type SignedIn } from '../../../test/sign-in.js';
import type { ContentServices } from '../content/content.module.js';
import { deliverMessage } from './deliver.js';
import { hasUnreadExpr } from './messages.repository.js';
import { hasUnread } from './messages.service.js';

let t: TestApp & { content: ContentServices };

beforeAll(async () => {
  t = await createContentTestApp();
});
afterAll(async () => {
  await t?.close();
});

const call = async <T>(method: 'GET' | 'PUT', url: string, who?: SignedIn) => {
  const res = await t.app.inject({ method, url, headers: who?.headers ?? {} });
  return { status: res.statusCode, body: res.json() as { message: string; data: T } };
};

/** Three messages to `who`, oldest first, with distinct times. */
async function inboxOf(who: SignedIn, titles = ['m1', 'm2', 'm3']): Promise<string[]> {
  const ids: string[] = [];
  for (const [i, title] of titles.entries()) {
    const id = await deliverMessage(t.database.db, { title, body: `<p>${title}</p>`, accountIds: [who.accountId, who.accountId] });
    await t.database.db
      .update(messageRecipients)
      .set({ createdAt: new Date(Date.UTC(2025, 5, 1 + i)) })
      .where(and(eq(messageRecipients.messageId, id), eq(messageRecipients.accountId, who.accountId)));
    ids.push(id);
  }
  return ids;
}

describe('participant inbox', () => {
  it('lists own messages newest first, pages them, and counts unread', async () => {
    const me = await signIn(t, { realm: 'USER' });
    const other = await signIn(t, { realm: 'USER' });
    await inboxOf(me);
    await inboxOf(other, ['theirs']);
    const list = await call<Page<InboxMessage>>('GET', '/api/messages', me);
    expect(list.status).toBe(200);
    expect(list.body.data.list.map((m) => m.title)).toEqual(['m3', 'm2', 'm1']);
    expect(list.body.data).toMatchObject({ page: 1, size: 10, total: 3 });
    expect(list.body.data.list[0]).toMatchObject({ body: '<p>m3</p>', kind: 'SYSTEM', read: false, readAt: null, createdAt: '2025-06-03T00:00:00.000Z' });
    const page2 = await call<Page<InboxMessage>>('GET', '/api/messages?page=2&size=2', me);
    expect(page2.body.data.list.map((m) => m.title)).toEqual(['m1']);
    expect((await call<MessageSummary>('GET', '/api/messages/summary', me)).body.data).toEqual({ unreadCount: 3 });
    expect(await t.content.messages.hasUnread(me.accountId)).toBe(true);
  });

  it('opening a message marks it read once; unread-first order puts it last', async () => {
    const me = await signIn(t, { realm: 'USER' });
    const [, , newest] = await inboxOf(me);
    const opened = await call<InboxMessage>('GET', `/api/messages/${newest}`, me);
    expect(opened.status).toBe(200);
    expect(opened.body.data).toMatchObject({ id: newest, title: 'm3', read: true });
    const firstRead = opened.body.data.readAt;
    expect(firstRead).toEqual(expect.any(String));
    const again = await call<InboxMessage>('GET', `/api/messages/${newest}`, me);
    expect(again.body.data.readAt).toBe(firstRead);

    expect((await call<MessageSummary>('GET', '/api/messages/summary', me)).body.data.unreadCount).toBe(2);
    const unreadFirst = await call<Page<InboxMessage>>('GET', '/api/messages?order=unread', me);
    expect(unreadFirst.body.data.list.map((m) => [m.title, m.read])).toEqual([
      ['m2', false],
      ['m1', false],
      ['m3', true],
    ]);
    const byTime = await call<Page<InboxMessage>>('GET', '/api/messages?order=time', me);
    expect(byTime.body.data.list.map((m) => m.title)).toEqual(['m3', 'm2', 'm1']);
  });

  it("answers 404 for another participant's message and leaves it unread", async () => {
    const me = await signIn(t, { realm: 'USER' });
    const other = await signIn(t, { realm: 'USER' });
    const [theirs] = await inboxOf(other, ['private']);
    const res = await call('GET', `/api/messages/${theirs}`, me);
    expect(res.status).toBe(404);
    expect(res.body.message).toBe(CONTENT_MSG.messageNotFound);
    const [row] = await t.database.db.select().from(messageRecipients).where(eq(messageRecipients.messageId, theirs!));
    expect(row!.readAt).toBeNull();
    expect((await call('GET', '/api/messages/not-an-id', me)).status).toBe(404);
    expect((await call('GET', '/api/messages/00000000-0000-4000-8000-000000000000', me)).status).toBe(404);
  });

  it('read-all marks only the caller\'s messages', async () => {
    const me = await signIn(t, { realm: 'USER' });
    const other = await signIn(t, { realm: 'USER' });
    await inboxOf(me);
    await inboxOf(other, ['x']);
    const res = await call<{ updated: number }>('PUT', '/api/messages/read-all', me);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ message: CONTENT_MSG.allRead, data: { updated: 3 } });
    expect((await call<MessageSummary>('GET', '/api/messages/summary', me)).body.data.unreadCount).toBe(0);
    expect(await hasUnread(t.database.db, me.accountId)).toBe(false);
    expect(await hasUnread(t.database.db, other.accountId)).toBe(true);
    const flags = await t.database.db
      .select({ id: accounts.id, unread: hasUnreadExpr(accounts.id) })
      .from(accounts)
      .where(sql`${accounts.id} in (${me.accountId}, ${other.accountId})`);
    expect(Object.fromEntries(flags.map((f) => [f.id, f.unread]))).toEqual({ [me.accountId]: false, [other.accountId]: true });
    const left = await t.database.db
      .select()
      .from(messageRecipients)
      .where(and(eq(messageRecipients.accountId, other.accountId), isNull(messageRecipients.readAt)));
    expect(left).toHaveLength(1);
  });

  it('refuses anonymous callers and other realms (401), and bad queries (400)', async () => {
    for (const url of ['/api/messages', '/api/messages/summary']) expect((await call('GET', url)).status).toBe(401);
    expect((await call('PUT', '/api/messages/read-all')).status).toBe(401);
    const admin = await signIn(t, { realm: 'ADMIN', roleCode: 'SUPER_ADMIN' });
    expect((await call('GET', '/api/messages/summary', admin)).status).toBe(401);
    const me = await signIn(t, { realm: 'USER' });
    const bad = await call('GET', '/api/messages?order=random', me);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(CONTENT_MSG.messageOrderInvalid);
    expect((await call<MessageSummary>('GET', '/api/messages/summary', me)).body.data).toEqual({ unreadCount: 0 });
  });

  it('experts read their own notices (returned sheets, reminders) and nobody else\'s', async () => {
    const expert = await signIn(t, { realm: 'EXPERT' });
    const other = await signIn(t, { realm: 'USER' });
    const [mine] = await inboxOf(expert, ['评分被退回']);
    const [theirs] = await inboxOf(other, ['别人的']);
    const list = await call<Page<InboxMessage>>('GET', '/api/messages', expert);
    expect(list.status).toBe(200);
    expect(list.body.data.list.map((m) => m.title)).toEqual(['评分被退回']);
    expect((await call('GET', `/api/messages/${mine}`, expert)).status).toBe(200);
    expect((await call('GET', `/api/messages/${theirs}`, expert)).status).toBe(404);
    expect((await call<MessageSummary>('GET', '/api/messages/summary', expert)).body.data).toEqual({ unreadCount: 0 });
  });
});
