import {
  NEWS_MSG as N,
  type AdminNewsDetail,
  type AdminNewsListQuery,
  type AdminNewsRow,
  type Page,
  type newsBodySchema,
  type newsPublishSchema,
  type newsUpdateSchema,
} from '@contest/shared';
import type { z } from 'zod';
import type { Db } from '../../db/client.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { htmlToText, sanitizeHtml } from '../../lib/sanitize-html.js';
import { beijingTime } from '../../lib/xlsx-stream.js';
import { iso, isoOrNull } from '../admin/admin-util.js';
import { recordOperation, type OperationActor } from '../audit/operation-log.js';
import { uniqueNoOf } from '../files/files.service.js';
import { createNewsRepository, type AdminNewsListRow, type NewsInsert, type NewsRepository, type NewsRow } from './news.repository.js';
import { createNewsService } from './news.service.js';

type BodyInput = z.output<typeof newsBodySchema>;
type UpdateInput = z.output<typeof newsUpdateSchema>;
type PublishInput = z.output<typeof newsPublishSchema>;

const STREAM_PATH = '/api/attachment/stream/';
const CATEGORY_NAMES = { MEDICAL_INSURANCE: '医保资讯', CONTEST_DYNAMIC: '大赛动态' } as const;

export interface NewsAdminDeps {
  db: Db;
  repo: NewsRepository;
  now: () => Date;
}

/** Something to read: text, or at least a picture (an image-only notice is a real article). */
const hasContent = (html: string) => htmlToText(html) !== '' || /<img\s/i.test(html);

const quoted = (title: string) => `「${title}」`;

/**
 * 新闻资讯 (docs/rules/content.md, "News"): drafts, publishing (now or at a time ahead), offline, pinning and deleting.
 * Every write runs on the locked row and records its operation in the same transaction.
 */
export function createNewsAdminService({ db, repo, now }: NewsAdminDeps) {
  const isScheduled = (row: Pick<NewsRow, 'status' | 'publishAt'>) => row.status === 'PUBLISHED' && !!row.publishAt && row.publishAt.getTime() > now().getTime();

  function toRow(row: AdminNewsListRow): AdminNewsRow {
    return {
      id: row.id,
      category: row.category,
      title: row.title,
      titleEn: row.titleEn,
      status: row.status,
      scheduled: isScheduled(row),
      pinned: row.pinned,
      coverPath: row.coverPath,
      source: row.source,
      publishAt: isoOrNull(row.publishAt),
      createdAt: iso(row.createdAt),
      updatedAt: iso(row.updatedAt),
      authorName: row.authorName,
    };
  }

  async function toDetail(row: NewsRow, tx: Db): Promise<AdminNewsDetail> {
    return {
      ...toRow({ ...row, authorName: await repo.authorName(row.id, tx) }),
      summary: row.summary,
      summaryEn: row.summaryEn,
      body: sanitizeHtml(row.body),
      bodyEn: row.bodyEn ? sanitizeHtml(row.bodyEn) : null,
      cover: row.coverPath ? uniqueNoOf(row.coverPath) : null,
    };
  }

  /** The cover's stream path, after checking it is an image uploaded for news (public). */
  async function coverPathOf(cover: string | null, tx: Db): Promise<string | null> {
    if (!cover) return null;
    const uniqueNo = uniqueNoOf(cover);
    const found = uniqueNo ? await repo.newsImage(uniqueNo, tx) : undefined;
    if (!found) throw badRequest(N.newsCoverInvalid, { field: 'cover' });
    return `${STREAM_PATH}${found.uniqueNo}`;
  }

  async function fieldsOf(body: BodyInput, tx: Db): Promise<Omit<NewsInsert, 'status'>> {
    return {
      category: body.category,
      title: body.title,
      titleEn: body.titleEn,
      summary: body.summary,
      summaryEn: body.summaryEn,
      body: body.body,
      bodyEn: body.bodyEn,
      source: body.source,
      coverPath: await coverPathOf(body.cover, tx),
      publishAt: body.publishAt ? new Date(body.publishAt) : null,
      pinned: body.pinned,
    };
  }

  /**
   * The next version stamp: now, but always after the current one (a JS Date keeps milliseconds
   * and the column microseconds; two saves in one millisecond must still differ).
   */
  const nextStamp = (current: NewsRow) => new Date(Math.max(now().getTime(), current.updatedAt.getTime() + 1));

  async function locked(tx: Db, id: string): Promise<NewsRow> {
    const row = await repo.lock(tx, id);
    if (!row) throw notFound(N.newsMissing);
    return row;
  }

  /** What a save changed, for the operation record. */
  function describeChanges(before: NewsRow, after: NewsRow): string {
    const labels: [keyof NewsRow, string][] = [
      ['category', '类别'],
      ['title', '标题'],
      ['titleEn', '英文标题'],
      ['summary', '摘要'],
      ['summaryEn', '英文摘要'],
      ['body', '正文'],
      ['bodyEn', '英文正文'],
      ['source', '来源'],
      ['coverPath', '封面'],
      ['publishAt', '发布时间'],
      ['pinned', '置顶'],
    ];
    const same = (a: unknown, b: unknown) => (a instanceof Date || b instanceof Date ? (a as Date | null)?.getTime() === (b as Date | null)?.getTime() : (a ?? null) === (b ?? null));
    return labels.filter(([key]) => !same(before[key], after[key])).map(([, label]) => label).join('、') || '无变化';
  }

  return {
    async list(q: AdminNewsListQuery): Promise<Page<AdminNewsRow>> {
      const { rows, total } = await repo.adminPage(q);
      return { list: rows.map(toRow), page: q.page, size: q.size, total };
    },

    async detail(id: string): Promise<AdminNewsDetail> {
      const row = await repo.find(id);
      if (!row) throw notFound(N.newsMissing);
      return toDetail(row, db);
    },

    /** A new article is a draft; publishing is its own call (and button). */
    async create(actor: OperationActor, body: BodyInput): Promise<AdminNewsDetail> {
      return db.transaction(async (tx) => {
        const at = now();
        const row = await repo.insert(tx, { ...(await fieldsOf(body, tx)), status: 'DRAFT', authorId: actor.auth.accountId, createdAt: at, updatedAt: at });
        await recordOperation(tx, actor, {
          action: 'news:edit',
          targetType: 'news',
          targetId: row.id,
          summary: `新增资讯${quoted(row.title)}（${CATEGORY_NAMES[row.category]}，草稿）`,
        });
        return toDetail(row, tx);
      });
    },

    /** Refused (STALE) when someone saved, published or pinned it since `updatedAt` was read. */
    async update(actor: OperationActor, id: string, body: UpdateInput): Promise<AdminNewsDetail> {
      return db.transaction(async (tx) => {
        const current = await locked(tx, id);
        if (current.updatedAt.getTime() !== Date.parse(body.updatedAt)) {
          throw badRequest(N.newsStale, { reason: 'STALE', updatedAt: iso(current.updatedAt) });
        }
        const row = (await repo.update(tx, id, { ...(await fieldsOf(body, tx)), updatedAt: nextStamp(current) }))!;
        await recordOperation(tx, actor, {
          action: 'news:edit',
          targetType: 'news',
          targetId: id,
          summary: `编辑资讯${quoted(row.title)}：${describeChanges(current, row)}`,
        });
        return toDetail(row, tx);
      });
    },

    /**
     * Publishes now, or at `publishAt` (else the article's own publish time, else now). A time
     * ahead keeps it out of the public lists until then; nothing has to run at that moment.
     */
    async publish(actor: OperationActor, id: string, input: PublishInput): Promise<AdminNewsDetail> {
      return db.transaction(async (tx) => {
        const current = await locked(tx, id);
        if (!hasContent(sanitizeHtml(current.body))) throw badRequest(N.newsBodyRequired, { field: 'body' });
        const publishAt = input.publishAt ? new Date(input.publishAt) : (current.publishAt ?? now());
        const row = (await repo.update(tx, id, { status: 'PUBLISHED', publishAt, updatedAt: nextStamp(current) }))!;
        const scheduled = isScheduled(row);
        await recordOperation(tx, actor, {
          action: 'news:publish',
          targetType: 'news',
          targetId: id,
          summary: `${scheduled ? '定时发布' : '发布'}资讯${quoted(row.title)}，发布时间 ${beijingTime(publishAt)}`,
        });
        return toDetail(row, tx);
      });
    },

    /** Takes a published (or scheduled) article off the public pages at once. */
    async offline(actor: OperationActor, id: string): Promise<AdminNewsDetail> {
      return db.transaction(async (tx) => {
        const current = await locked(tx, id);
        if (current.status !== 'PUBLISHED') throw badRequest(N.newsNotPublished, { reason: 'NOT_PUBLISHED', status: current.status });
        const row = (await repo.update(tx, id, { status: 'OFFLINE', updatedAt: nextStamp(current) }))!;
        await recordOperation(tx, actor, { action: 'news:publish', targetType: 'news', targetId: id, summary: `下线资讯${quoted(row.title)}` });
        return toDetail(row, tx);
      });
    },

    async setPinned(actor: OperationActor, id: string, pinned: boolean): Promise<AdminNewsDetail> {
      return db.transaction(async (tx) => {
        const current = await locked(tx, id);
        const row = (await repo.update(tx, id, { pinned, updatedAt: nextStamp(current) }))!;
        await recordOperation(tx, actor, {
          action: 'news:publish',
          targetType: 'news',
          targetId: id,
          summary: `${pinned ? '置顶' : '取消置顶'}资讯${quoted(row.title)}`,
        });
        return toDetail(row, tx);
      });
    },

    /** Gone for good; its images stay (other articles may show them). */
    async remove(actor: OperationActor, id: string): Promise<void> {
      await db.transaction(async (tx) => {
        const current = await locked(tx, id);
        await repo.delete(tx, id);
        await recordOperation(tx, actor, {
          action: 'news:delete',
          targetType: 'news',
          targetId: id,
          summary: `删除资讯${quoted(current.title)}（${CATEGORY_NAMES[current.category]}）`,
        });
      });
    },
  };
}
export type NewsAdminService = ReturnType<typeof createNewsAdminService>;

/** The public reader and the console's editor over one repository (what the routes get). */
export function createNewsServices({ db, now }: { db: Db; now: () => Date }) {
  const repo = createNewsRepository(db);
  return { service: createNewsService({ repo, now }), admin: createNewsAdminService({ db, repo, now }) };
}
