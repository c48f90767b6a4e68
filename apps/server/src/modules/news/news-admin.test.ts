import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { and, count, eq } from 'drizzle-orm';
import {
  ADMIN_MSG,
  CONTENT_MSG,
  LIST_QUERY_MSG,
  NEWS_MSG as N,
  type AdminNewsDetail,
  type AdminNewsRow,
  type NewsDetail,
  type NewsListItem,
  type Page,
  type UploadedFile,
} from '@contest/shared';
import { attachments, news, operationRecords } from '../../db/schema.js';
import { registerIdentity } from '../auth/identity.module.js';
import { registerContent } from '../content/content.module.js';
import { registerFiles } from '../files/files.module.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { fakeFile, multipart } from '../../../test/files-helpers.js';
import { signIn, type SignedIn } from '../../../test/sign-in.js';

/** The content module's clock: scheduled articles go public when the tests move it. */
let clock = Date.UTC(2030, 0, 10, 2, 0, 0);
const hour = 3_600_000;

let t: TestApp;
let editor: SignedIn;
let publisher: SignedIn;
let deleter: SignedIn;
let reader: SignedIn;
let superAdmin: SignedIn;
let cover: UploadedFile;

interface Answer<T> {
  status: number;
  body: { status: number; code: string; message: string; data: T };
  headers: Record<string, unknown>;
}

async function call<T = unknown>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, who?: { headers: Record<string, string> } | null, payload?: unknown, headers: Record<string, string> = {}): Promise<Answer<T>> {
  const res = await t.app.inject({ method, url, headers: { ...who?.headers, ...headers }, ...(payload === undefined ? {} : { payload: payload as object }) });
  return { status: res.statusCode, body: res.json(), headers: res.headers };
}

const ops = async (targetId: string) =>
  t.database.db.select().from(operationRecords).where(and(eq(operationRecords.targetType, 'news'), eq(operationRecords.targetId, targetId)));
const newsCount = async () => (await t.database.db.select({ n: count() }).from(news))[0]!.n;
const opsCount = async () => (await t.database.db.select({ n: count() }).from(operationRecords))[0]!.n;

const article = (over: Record<string, unknown> = {}) => ({
  category: 'CONTEST_DYNAMIC',
  title: '大赛启动',
  summary: '摘要',
  body: '<p>正文</p>',
  ...over,
});

async function create(over: Record<string, unknown> = {}): Promise<AdminNewsDetail> {
  const res = await call<AdminNewsDetail>('POST', '/api/admin/news', editor, article(over));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

async function publish(id: string, payload?: unknown): Promise<Answer<AdminNewsDetail>> {
  return call<AdminNewsDetail>('POST', `/api/admin/news/${id}/publish`, publisher, payload);
}

const publicTitles = async (query = '') => (await call<Page<NewsListItem>>('GET', `/api/news?size=100${query}`)).body.data.list.map((n) => n.title);

beforeAll(async () => {
  t = await createTestApp({}, { bare: true });
  await t.app.register(
    async (api: FastifyInstance) => {
      const identity = await registerIdentity(api, t.app.deps);
      await registerFiles(api, t.app.deps, identity);
      await registerContent(api, t.app.deps, identity, { now: () => new Date(clock) });
    },
    { prefix: '/api' },
  );
  await t.app.ready();
  [editor, publisher, deleter, reader, superAdmin] = await Promise.all([
    signIn(t, { realm: 'ADMIN', buttons: ['news:edit'] }),
    signIn(t, { realm: 'ADMIN', buttons: ['news:publish'] }),
    signIn(t, { realm: 'ADMIN', buttons: ['news:delete'] }),
    signIn(t, { realm: 'ADMIN', menus: ['siteContentManagement'] }),
    signIn(t, { realm: 'ADMIN', roleCode: 'SUPER_ADMIN' }),
  ]);
  // The editor's upload, as the cover field and the body's image button send it.
  const form = multipart({ origin: 'NEWS', name: 'cover.png' }, { name: 'cover.png', content: fakeFile.png(2048) });
  const res = await t.app.inject({ method: 'POST', url: '/api/attachment/upload/public', payload: form.payload, headers: { ...form.headers, ...editor.headers } });
  expect(res.statusCode, res.body).toBe(200);
  cover = res.json().data as UploadedFile;
});

afterAll(async () => {
  await t?.close();
});

describe('POST /api/admin/news', () => {
  it('creates a draft: bodies allow-listed, the cover checked, an operation record written', async () => {
    const before = await opsCount();
    const res = await call<AdminNewsDetail>(
      'POST',
      '/api/admin/news',
      editor,
      article({
        title: '  新闻一  ',
        titleEn: 'News one',
        summaryEn: 'Summary',
        body: `<p onclick="x()">正文<script>alert(1)</script></p><img src="/api/attachment/stream/${cover.uniqueNo}?preview=1" onerror="alert(1)"><img src="https://evil.example/p.png"><a href="javascript:alert(1)">x</a>`,
        bodyEn: '<p>Body<iframe src="//evil.example"></iframe></p>',
        source: '组委会',
        cover: cover.uniqueNo,
        pinned: true,
      }),
    );
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(N.newsCreated);
    const created = res.body.data;
    expect(created).toMatchObject({
      category: 'CONTEST_DYNAMIC',
      title: '新闻一',
      titleEn: 'News one',
      status: 'DRAFT',
      scheduled: false,
      pinned: true,
      summary: '摘要',
      summaryEn: 'Summary',
      source: '组委会',
      body: `<p>正文</p><img src="/api/attachment/stream/${cover.uniqueNo}?preview=1" /><a>x</a>`,
      bodyEn: '<p>Body</p>',
      cover: cover.uniqueNo,
      coverPath: `/api/attachment/stream/${cover.uniqueNo}`,
      publishAt: null,
      createdAt: new Date(clock).toISOString(),
      updatedAt: new Date(clock).toISOString(),
    });
    expect(created.authorName).toEqual(expect.any(String));
    // Stored clean, not only served clean.
    const [row] = await t.database.db.select().from(news).where(eq(news.id, created.id));
    expect(row!.body).not.toContain('script');
    expect(row!.bodyEn).toBe('<p>Body</p>');
    const records = await ops(created.id);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ action: 'news:edit', realm: 'ADMIN', accountId: editor.accountId, result: 'SUCCESS' });
    expect(records[0]!.summary).toContain('新闻一');
    expect(await opsCount()).toBe(before + 1);
    // A draft is not public, and the uploaded image is readable by anyone.
    expect(await publicTitles()).not.toContain('新闻一');
    expect((await t.app.inject({ method: 'GET', url: `/api/attachment/stream/${cover.uniqueNo}?preview=1` })).statusCode).toBe(200);
  });

  it('accepts the cover as its stream path too; an empty cover or publish time means none', async () => {
    const created = await create({ title: '路径封面', cover: `/api/attachment/stream/${cover.uniqueNo}`, publishAt: null, summary: null, titleEn: '' });
    expect(created).toMatchObject({ cover: cover.uniqueNo, publishAt: null, summary: '', titleEn: null });
    expect((await create({ title: '无封面', cover: '' })).cover).toBeNull();
  });

  it.each([
    [{ category: undefined }, N.newsCategoryRequired, 'category'],
    [{ category: 'SPORTS' }, CONTENT_MSG.newsCategoryInvalid, 'category'],
    [{ title: undefined }, N.newsTitleRequired, 'title'],
    [{ title: '   ' }, N.newsTitleRequired, 'title'],
    [{ title: 'x'.repeat(101) }, N.newsTitleTooLong, 'title'],
    [{ titleEn: 'x'.repeat(101) }, N.newsTitleEnTooLong, 'titleEn'],
    [{ summary: 'x'.repeat(301) }, N.newsSummaryTooLong, 'summary'],
    [{ summaryEn: 'x'.repeat(301) }, N.newsSummaryEnTooLong, 'summaryEn'],
    [{ body: `<p>${'x'.repeat(200_000)}</p>` }, N.newsBodyTooLong, 'body'],
    [{ bodyEn: 'x'.repeat(200_001) }, N.newsBodyTooLong, 'bodyEn'],
    [{ source: 'x'.repeat(51) }, N.newsSourceTooLong, 'source'],
    [{ publishAt: '2030-01-01 10:00' }, N.newsPublishAtInvalid, 'publishAt'],
    [{ pinned: 'yes' }, N.newsPinnedInvalid, 'pinned'],
    [{ cover: 'AAAAAAAAAAAAAAAAAAAAAA' }, N.newsCoverInvalid, 'cover'],
    [{ cover: '../../etc/passwd' }, N.newsCoverInvalid, 'cover'],
  ])('refuses %j with its message and writes nothing', async (over, message, field) => {
    const [rows, records] = [await newsCount(), await opsCount()];
    const res = await call('POST', '/api/admin/news', editor, article(over));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect(res.body.data).toMatchObject({ field });
    expect(await newsCount()).toBe(rows);
    expect(await opsCount()).toBe(records);
  });

  it('refuses a cover that is not a news image (another origin, or private)', async () => {
    const [row] = await t.database.db
      .insert(attachments)
      .values({ uniqueNo: 'FeedbackPictureOnly001', origin: 'FEEDBACK', originalName: 'x.png', extension: 'png', mimeType: 'image/png', size: 1, sha256: 'x', storageKey: 'x' })
      .returning();
    const res = await call('POST', '/api/admin/news', editor, article({ cover: row!.uniqueNo }));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message: N.newsCoverInvalid, data: { field: 'cover' } });
  });
});

describe('PUT /api/admin/news/{id}', () => {
  it('saves with the version read; a save over a newer one is refused as STALE, nothing changed', async () => {
    const created = await create({ title: '待编辑' });
    clock += 1000;
    const saved = await call<AdminNewsDetail>('PUT', `/api/admin/news/${created.id}`, editor, article({ title: '已编辑', body: '<h2>新正文</h2>', updatedAt: created.updatedAt }));
    expect(saved.status).toBe(200);
    expect(saved.body.message).toBe(N.newsSaved);
    expect(saved.body.data).toMatchObject({ title: '已编辑', body: '<h2>新正文</h2>', updatedAt: new Date(clock).toISOString(), createdAt: created.createdAt });
    const records = await ops(created.id);
    expect(records.map((r) => r.action)).toEqual(['news:edit', 'news:edit']);
    expect(records[1]!.summary).toContain('标题、正文');

    const stale = await call<{ reason: string; updatedAt: string }>('PUT', `/api/admin/news/${created.id}`, editor, article({ title: '旧版本覆盖', updatedAt: created.updatedAt }));
    expect(stale.status).toBe(400);
    expect(stale.body.message).toBe(N.newsStale);
    expect(stale.body.data).toEqual({ reason: 'STALE', updatedAt: saved.body.data.updatedAt });
    const [row] = await t.database.db.select().from(news).where(eq(news.id, created.id));
    expect(row!.title).toBe('已编辑');
    expect(await ops(created.id)).toHaveLength(2);
  });

  it('two saves of one version at once: one wins, the other is STALE', async () => {
    const created = await create({ title: '并发编辑' });
    const [a, b] = await Promise.all([
      call('PUT', `/api/admin/news/${created.id}`, editor, article({ title: '甲', updatedAt: created.updatedAt })),
      call('PUT', `/api/admin/news/${created.id}`, editor, article({ title: '乙', updatedAt: created.updatedAt })),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 400]);
    const loser = a.status === 400 ? a : b;
    expect(loser.body).toMatchObject({ message: N.newsStale, data: { reason: 'STALE' } });
    expect(await ops(created.id)).toHaveLength(2);
  });

  it('saves twice within one millisecond of the clock: each gets a new version', async () => {
    const created = await create({ title: '同一毫秒' });
    const first = await call<AdminNewsDetail>('PUT', `/api/admin/news/${created.id}`, editor, article({ title: '一', updatedAt: created.updatedAt }));
    const second = await call<AdminNewsDetail>('PUT', `/api/admin/news/${created.id}`, editor, article({ title: '二', updatedAt: first.body.data.updatedAt }));
    expect(second.status).toBe(200);
    expect(second.body.data.updatedAt > first.body.data.updatedAt).toBe(true);
    const again = await call('PUT', `/api/admin/news/${created.id}`, editor, article({ title: '三', updatedAt: first.body.data.updatedAt }));
    expect(again.body.data).toMatchObject({ reason: 'STALE' });
  });

  it('needs the version, checks the fields like create, and is 404 for an unknown article', async () => {
    const created = await create({ title: '校验' });
    const missing = await call('PUT', `/api/admin/news/${created.id}`, editor, article());
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe(N.newsVersionRequired);
    const bad = await call('PUT', `/api/admin/news/${created.id}`, editor, article({ updatedAt: 'yesterday' }));
    expect(bad.body.message).toBe(N.newsVersionRequired);
    const long = await call('PUT', `/api/admin/news/${created.id}`, editor, article({ title: 'x'.repeat(101), updatedAt: created.updatedAt }));
    expect(long.body.message).toBe(N.newsTitleTooLong);
    const unknown = await call('PUT', '/api/admin/news/00000000-0000-4000-8000-000000000000', editor, article({ updatedAt: created.updatedAt }));
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe(N.newsMissing);
    expect(await ops(created.id)).toHaveLength(1);
  });
});

describe('publishing', () => {
  it('publishes now: the public list and article show it at once', async () => {
    const created = await create({ title: '立即发布', category: 'MEDICAL_INSURANCE' });
    const res = await publish(created.id);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(N.newsPublished);
    expect(res.body.data).toMatchObject({ status: 'PUBLISHED', scheduled: false, publishAt: new Date(clock).toISOString() });
    expect(await publicTitles('&category=MEDICAL_INSURANCE')).toContain('立即发布');
    expect((await call('GET', `/api/news/${created.id}`)).status).toBe(200);
    const records = await ops(created.id);
    expect(records.at(-1)).toMatchObject({ action: 'news:publish', accountId: publisher.accountId });
  });

  it('a future publish time publishes then: not public before, public after (the clock moves)', async () => {
    const created = await create({ title: '定时发布' });
    const at = new Date(clock + 2 * hour).toISOString();
    const res = await publish(created.id, { publishAt: at });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(N.newsScheduled);
    expect(res.body.data).toMatchObject({ status: 'PUBLISHED', scheduled: true, publishAt: at });
    expect((await ops(created.id)).at(-1)!.summary).toContain('定时发布');
    expect(await publicTitles()).not.toContain('定时发布');
    expect((await call('GET', `/api/news/${created.id}`)).status).toBe(404);
    // The admin list says it waits.
    const listed = await call<Page<AdminNewsRow>>('GET', '/api/admin/news?keyword=定时发布', reader);
    expect(listed.body.data.list[0]).toMatchObject({ id: created.id, scheduled: true });

    clock += 2 * hour - 1000;
    expect(await publicTitles()).not.toContain('定时发布');
    clock += 1000;
    expect(await publicTitles()).toContain('定时发布');
    expect((await call<NewsDetail>('GET', `/api/news/${created.id}`)).body.data).toMatchObject({ title: '定时发布', status: 'PUBLISHED' });
    const after = await call<Page<AdminNewsRow>>('GET', '/api/admin/news?keyword=定时发布', reader);
    expect(after.body.data.list[0]).toMatchObject({ scheduled: false });
  });

  it("without a time, a draft's own publish time is used (a future one schedules it)", async () => {
    const at = new Date(clock + hour).toISOString();
    const created = await create({ title: '草稿定时', publishAt: at });
    const res = await publish(created.id, {});
    expect(res.body.message).toBe(N.newsScheduled);
    expect(res.body.data.publishAt).toBe(at);
    clock += hour;
    expect(await publicTitles()).toContain('草稿定时');
  });

  it('refuses an empty body, a bad time and an unknown article', async () => {
    const empty = await create({ title: '空正文', body: '<p> </p><script>x</script>' });
    const res = await publish(empty.id);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message: N.newsBodyRequired, data: { field: 'body' } });
    // An image alone is content.
    const picture = await create({ title: '只有图片', body: `<img src="/api/attachment/stream/${cover.uniqueNo}?preview=1">` });
    expect((await publish(picture.id)).status).toBe(200);
    const bad = await publish(empty.id, { publishAt: 'soon' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(N.newsPublishAtInvalid);
    expect((await publish('00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await ops(empty.id)).map((r) => r.action)).toEqual(['news:edit']);
  });

  it('offline takes it off the public pages; offline of an unpublished article is refused', async () => {
    const created = await create({ title: '将下线' });
    await publish(created.id);
    expect(await publicTitles()).toContain('将下线');
    const res = await call<AdminNewsDetail>('POST', `/api/admin/news/${created.id}/offline`, publisher);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(N.newsOfflined);
    expect(res.body.data.status).toBe('OFFLINE');
    expect(await publicTitles()).not.toContain('将下线');
    expect((await call('GET', `/api/news/${created.id}`)).status).toBe(404);
    expect((await ops(created.id)).at(-1)!.summary).toContain('下线');

    const again = await call('POST', `/api/admin/news/${created.id}/offline`, publisher);
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ message: N.newsNotPublished, data: { reason: 'NOT_PUBLISHED', status: 'OFFLINE' } });
    // Published again: back in the list under its first publish time.
    const republished = await publish(created.id);
    expect(republished.body.data.status).toBe('PUBLISHED');
    expect(await publicTitles()).toContain('将下线');
    expect((await call('POST', '/api/admin/news/00000000-0000-4000-8000-000000000000/offline', publisher)).status).toBe(404);
  });

  it('pinning puts it first in the public list; unpinning puts it back', async () => {
    const old = await create({ title: '旧闻置顶', category: 'MEDICAL_INSURANCE' });
    await publish(old.id, { publishAt: new Date(clock - 100 * hour).toISOString() });
    expect((await publicTitles('&category=MEDICAL_INSURANCE'))[0]).not.toBe('旧闻置顶');
    const pinned = await call<AdminNewsDetail>('PUT', `/api/admin/news/${old.id}/pinned`, publisher, { pinned: true });
    expect(pinned.status).toBe(200);
    expect(pinned.body.message).toBe(N.newsPinned);
    expect((await publicTitles('&category=MEDICAL_INSURANCE'))[0]).toBe('旧闻置顶');
    const unpinned = await call('PUT', `/api/admin/news/${old.id}/pinned`, publisher, { pinned: false });
    expect(unpinned.body.message).toBe(N.newsUnpinned);
    expect((await publicTitles('&category=MEDICAL_INSURANCE'))[0]).not.toBe('旧闻置顶');
    const bad = await call('PUT', `/api/admin/news/${old.id}/pinned`, publisher, { pinned: 'yes' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(N.newsPinnedInvalid);
    expect((await call('PUT', '/api/admin/news/00000000-0000-4000-8000-000000000000/pinned', publisher, { pinned: true })).status).toBe(404);
    expect((await ops(old.id)).map((r) => r.action)).toEqual(['news:edit', 'news:publish', 'news:publish', 'news:publish']);
  });
});

describe('DELETE /api/admin/news/{id}', () => {
  it('deletes for good and records it; then 404', async () => {
    const created = await create({ title: '将删除' });
    await publish(created.id);
    const res = await call('DELETE', `/api/admin/news/${created.id}`, deleter);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(N.newsDeleted);
    expect(await publicTitles()).not.toContain('将删除');
    expect((await call('GET', `/api/admin/news/${created.id}`, reader)).status).toBe(404);
    expect((await call('DELETE', `/api/admin/news/${created.id}`, deleter)).status).toBe(404);
    expect((await ops(created.id)).at(-1)).toMatchObject({ action: 'news:delete', accountId: deleter.accountId });
  });

  it('delete and publish at once: one of them finds nothing, never a 500', async () => {
    const created = await create({ title: '删除与发布' });
    const [removed, published] = await Promise.all([call('DELETE', `/api/admin/news/${created.id}`, deleter), publish(created.id)]);
    expect(removed.status).toBe(200);
    expect([200, 404]).toContain(published.status);
    expect((await t.database.db.select().from(news).where(eq(news.id, created.id))).length).toBe(0);
  });
});

describe('GET /api/admin/news', () => {
  let ids: Record<string, string>;
  beforeAll(async () => {
    ids = {};
    const base = Date.UTC(2029, 5, 1, 0, 0, 0);
    for (const [key, over] of Object.entries({
      fa: { title: '筛选甲', titleEn: 'Filter Alpha', category: 'MEDICAL_INSURANCE', publishAt: new Date(base).toISOString() },
      fb: { title: '筛选乙', category: 'CONTEST_DYNAMIC', publishAt: new Date(base + 24 * hour).toISOString(), pinned: true },
      fc: { title: '筛选丙_100%', category: 'CONTEST_DYNAMIC', publishAt: new Date(base + 48 * hour).toISOString() },
    })) {
      ids[key] = (await create(over)).id;
      clock += 1000;
    }
    await publish(ids.fb!);
  });

  const list = async (query: string) => call<Page<AdminNewsRow>>('GET', `/api/admin/news?${query}`, reader);

  it('filters by category, status, pinned, keyword (Chinese or English title) and publish time', async () => {
    expect((await list('keyword=筛选&category=MEDICAL_INSURANCE')).body.data.list.map((r) => r.title)).toEqual(['筛选甲']);
    expect((await list('keyword=筛选&status=PUBLISHED')).body.data.list.map((r) => r.title)).toEqual(['筛选乙']);
    expect((await list('keyword=筛选&pinned=true')).body.data.list.map((r) => r.title)).toEqual(['筛选乙']);
    expect((await list('keyword=filter alpha')).body.data.list.map((r) => r.title)).toEqual(['筛选甲']);
    // % and _ are taken literally.
    expect((await list('keyword=_100%25')).body.data.list.map((r) => r.title)).toEqual(['筛选丙_100%']);
    // Beijing days: 2029-06-01 08:00 is the first article's publish time.
    expect((await list('keyword=筛选&publishFrom=2029-06-02&publishTo=2029-06-03')).body.data.list.map((r) => r.title).sort()).toEqual(['筛选丙_100%', '筛选乙']);
    expect((await list('keyword=筛选&publishFrom=2029-06-01 08:00:00&publishTo=2029-06-01 08:00:00')).body.data.list.map((r) => r.title)).toEqual(['筛选甲']);
  });

  it('orders pinned first then last edited; sorts by publish or update time; pages', async () => {
    expect((await list('keyword=筛选')).body.data.list.map((r) => r.title)).toEqual(['筛选乙', '筛选丙_100%', '筛选甲']);
    expect((await list('keyword=筛选&sort=publishAt&order=asc')).body.data.list.map((r) => r.title)).toEqual(['筛选甲', '筛选乙', '筛选丙_100%']);
    expect((await list('keyword=筛选&sort=updatedAt&order=asc')).body.data.list.map((r) => r.title)).toEqual(['筛选甲', '筛选丙_100%', '筛选乙']);
    const second = await list('keyword=筛选&sort=publishAt&order=desc&page=2&size=2');
    expect(second.body.data).toMatchObject({ page: 2, size: 2, total: 3 });
    expect(second.body.data.list.map((r) => r.title)).toEqual(['筛选甲']);
    const row = (await list('keyword=筛选乙')).body.data.list[0]!;
    expect(row).toMatchObject({ id: ids.fb, category: 'CONTEST_DYNAMIC', status: 'PUBLISHED', pinned: true, titleEn: null });
    expect(row).not.toHaveProperty('body');
  });

  it.each([
    ['status=GONE', N.newsStatusInvalid],
    ['category=SPORTS', CONTENT_MSG.newsCategoryInvalid],
    ['pinned=maybe', N.newsPinnedInvalid],
    ['sort=title', LIST_QUERY_MSG.sortInvalid],
    ['order=up', LIST_QUERY_MSG.orderInvalid],
    ['publishFrom=2029-13-01', ADMIN_MSG.dateTimeInvalid],
    ['publishFrom=2029-06-03&publishTo=2029-06-01', ADMIN_MSG.dateRangeInvalid],
    [`keyword=${'x'.repeat(51)}`, ADMIN_MSG.keywordTooLong],
  ])('refuses %s', async (query, message) => {
    const res = await list(query);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
  });

  it('GET /api/admin/news/{id}: the whole article; 404 unknown, 400 not an id', async () => {
    const res = await call<AdminNewsDetail>('GET', `/api/admin/news/${ids.fa}`, reader);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: ids.fa, title: '筛选甲', titleEn: 'Filter Alpha', body: '<p>正文</p>', bodyEn: null, summary: '摘要', cover: null });
    const unknown = await call('GET', '/api/admin/news/00000000-0000-4000-8000-000000000000', reader);
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe(N.newsMissing);
    expect((await call('GET', '/api/admin/news/nope', reader)).status).toBe(400);
  });
});

describe('permissions', () => {
  const ID = '00000000-0000-4000-8000-000000000001';
  // [method, url, payload, the button (null: the menu) that admits]
  const CALLS: ['GET' | 'POST' | 'PUT' | 'DELETE', string, unknown, string | null][] = [
    ['GET', '/api/admin/news', undefined, null],
    ['GET', `/api/admin/news/${ID}`, undefined, null],
    ['GET', `/api/admin/news/${ID}/preview`, undefined, null],
    ['POST', '/api/admin/news', article(), 'news:edit'],
    ['PUT', `/api/admin/news/${ID}`, article({ updatedAt: new Date().toISOString() }), 'news:edit'],
    ['POST', `/api/admin/news/${ID}/publish`, {}, 'news:publish'],
    ['POST', `/api/admin/news/${ID}/offline`, undefined, 'news:publish'],
    ['PUT', `/api/admin/news/${ID}/pinned`, { pinned: true }, 'news:publish'],
    ['DELETE', `/api/admin/news/${ID}`, undefined, 'news:delete'],
  ];

  it.each(CALLS)('%s %s: 401 anonymous or participant, 403 without its button, admitted with it', async (method, url, payload, button) => {
    const before = await opsCount();
    expect((await call(method, url, null, payload)).status).toBe(401);
    const participant = await signIn(t, { realm: 'USER' });
    expect((await call(method, url, participant, payload)).status).toBe(401);
    const expert = await signIn(t, { realm: 'EXPERT' });
    expect((await call(method, url, expert, payload)).status).toBe(401);
    const others = await signIn(t, { realm: 'ADMIN', buttons: ['doc:edit'] });
    expect((await call(method, url, others, payload)).status).toBe(403);
    const holders = { 'news:edit': editor, 'news:publish': publisher, 'news:delete': deleter } as const;
    for (const [code, who] of Object.entries(holders)) {
      const res = await call(method, url, who, payload);
      // Holding the button admits (the call then answers 200, or 404 for the unknown id); the menu admits reading.
      if (button === null || button === code) expect(res.status, `${code}`).not.toBe(403);
      else expect(res.status, `${code}`).toBe(403);
    }
    if (button !== null) expect((await call(method, url, reader, payload)).status).toBe(403);
    else expect((await call(method, url, reader, payload)).status).not.toBe(403);
    // A super admin holds every button.
    expect((await call(method, url, superAdmin, payload)).status).not.toBe(403);
    expect(await opsCount()).toBe(before + (method === 'POST' && url === '/api/admin/news' ? 2 : 0));
  });
});

describe('preview of /dynamic-look', () => {
  it('shows a draft to whoever holds the menu, in the asked language', async () => {
    const created = await create({ title: '预览草稿', titleEn: 'Preview', body: '<p>中</p>', bodyEn: '<p>en</p>' });
    const res = await call<NewsDetail>('GET', `/api/admin/news/${created.id}/preview`, reader);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: created.id, status: 'DRAFT', title: '预览草稿', body: '<p>中</p>', previous: null, next: null });
    const en = await call<NewsDetail>('GET', `/api/admin/news/${created.id}/preview?lang=en`, reader);
    expect(en.body.data).toMatchObject({ title: 'Preview', body: '<p>en</p>' });
  });
});

describe('English pages', () => {
  let both: AdminNewsDetail;
  let chineseOnly: AdminNewsDetail;
  beforeAll(async () => {
    clock += hour;
    both = await create({ title: '双语新闻', titleEn: 'Bilingual news', summary: '中文摘要', summaryEn: 'English summary', body: '<p>中文正文</p>', bodyEn: '<p>English body</p>', category: 'MEDICAL_INSURANCE' });
    await publish(both.id);
    clock += 1000;
    chineseOnly = await create({ title: '仅中文', summary: '仅中文摘要', body: '<p>仅中文正文</p>', category: 'MEDICAL_INSURANCE' });
    await publish(chineseOnly.id);
  });

  const titlesIn = async (query: string, headers: Record<string, string> = {}) => {
    const res = await call<Page<NewsListItem>>('GET', `/api/news?category=MEDICAL_INSURANCE&size=100${query}`, null, undefined, headers);
    return res.body.data.list.filter((n) => [both.id, chineseOnly.id].includes(n.id)).map((n) => [n.title, n.summary]);
  };

  it('lang=en answers the English title and summary, falling back to the Chinese', async () => {
    expect(await titlesIn('&lang=en')).toEqual([
      ['仅中文', '仅中文摘要'],
      ['Bilingual news', 'English summary'],
    ]);
    expect(await titlesIn('')).toEqual([
      ['仅中文', '仅中文摘要'],
      ['双语新闻', '中文摘要'],
    ]);
  });

  it('without lang, the Accept-Language header decides; lang wins over it', async () => {
    expect((await titlesIn('', { 'accept-language': 'en-US,en;q=0.9' }))[1]).toEqual(['Bilingual news', 'English summary']);
    expect((await titlesIn('&lang=zh-cn', { 'accept-language': 'en-US' }))[1]).toEqual(['双语新闻', '中文摘要']);
    expect((await titlesIn('', { 'accept-language': 'fr-FR,zh-CN;q=0.5' }))[1]).toEqual(['双语新闻', '中文摘要']);
    const res = await call('GET', '/api/news?lang=en');
    expect(String(res.headers.vary)).toMatch(/accept-language/i);
  });

  it('the article answers the English body (else the Chinese one) and English neighbours', async () => {
    const en = await call<NewsDetail>('GET', `/api/news/${both.id}?lang=en`);
    expect(en.body.data).toMatchObject({ title: 'Bilingual news', summary: 'English summary', body: '<p>English body</p>' });
    expect(en.body.data.previous).toEqual({ id: chineseOnly.id, title: '仅中文' });
    const fallback = await call<NewsDetail>('GET', `/api/news/${chineseOnly.id}`, null, undefined, { 'accept-language': 'en' });
    expect(fallback.body.data).toMatchObject({ title: '仅中文', body: '<p>仅中文正文</p>' });
    expect(fallback.body.data.next).toEqual({ id: both.id, title: 'Bilingual news' });
    const zh = await call<NewsDetail>('GET', `/api/news/${both.id}?lang=zh-cn`);
    expect(zh.body.data).toMatchObject({ title: '双语新闻', body: '<p>中文正文</p>' });
  });
});
