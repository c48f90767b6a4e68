import {
  CONTENT_MSG,
  FEEDBACK_MSG,
  FEEDBACK_TYPE_DICT,
  TEMPLATE_EVENTS,
  type AdminFeedbackItem,
  type AdminFeedbackQuery,
  type FeedbackItem,
  type FileRef,
  type Page,
  type PageQuery,
  type feedbackCreateSchema,
  type feedbackReplySchema,
} from '@contest/shared';
import type { z } from 'zod';
import type { Db } from '../../db/client.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { MASKED_PII, type Pii } from '../../lib/pii.js';
import { recordOperation, type OperationActor } from '../audit/operation-log.js';
import { uniqueNoOf } from '../files/files.service.js';
import { notifyEvent } from '../notices/notify.js';
import type { FeedbackAttachmentRow, FeedbackRepository, FeedbackRow, FoundFeedback } from './feedback.repository.js';

type CreateInput = z.output<typeof feedbackCreateSchema>;
type ReplyInput = z.output<typeof feedbackReplySchema>;

const STREAM_PATH = '/api/attachment/stream/';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Default title of the notice telling a participant their feedback was answered (FEEDBACK_REPLIED). */
export const FEEDBACK_REPLIED_TITLE = TEMPLATE_EVENTS.FEEDBACK_REPLIED.defaults.subject;

/** The participant reads dates in Beijing time. */
const beijingDate = (at: Date) => new Date(at.getTime() + 8 * 3600_000).toISOString().slice(0, 10);

const fileRef = (f: FeedbackAttachmentRow): FileRef => ({ uniqueNo: f.uniqueNo, name: f.originalName, size: f.size, filePath: `${STREAM_PATH}${f.uniqueNo}` });

export function createFeedbackService(deps: {
  db: Db;
  repo: FeedbackRepository;
  /** Runs after a reply's commit, which may have queued an email notice (the outbox's kick). */
  afterCommit?: () => void;
}) {
  const { db, repo, afterCommit = () => {} } = deps;

  async function typeNames(): Promise<Map<string, string>> {
    return new Map((await repo.dictItems(FEEDBACK_TYPE_DICT)).map((i) => [i.code, i.name]));
  }

  /** Rows -> answers with their files and type names, in two queries for a whole page. */
  async function present(rows: FeedbackRow[]): Promise<FeedbackItem[]> {
    const [names, files] = await Promise.all([typeNames(), repo.filesByIds([...new Set(rows.flatMap((r) => r.attachmentIds))])]);
    const byId = new Map(files.map((f) => [f.id, f]));
    return rows.map((r) => ({
      id: r.id,
      type: r.type,
      typeName: names.get(r.type) ?? r.type,
      content: r.content,
      contact: r.contact,
      attachments: r.attachmentIds.flatMap((id) => (byId.has(id) ? [fileRef(byId.get(id)!)] : [])),
      status: r.status,
      reply: r.reply,
      repliedAt: r.repliedAt?.toISOString() ?? null,
      createdAt: r.createdAt.toISOString(),
    }));
  }

  async function presentAdmin(found: FoundFeedback[]): Promise<AdminFeedbackItem[]> {
    const items = await present(found.map((f) => f.row));
    return items.map((item, i) => {
      const { row, owner, replier } = found[i]!;
      // Nothing changes a closed feedback afterwards, so its last change is when it was closed.
      // Contact and phone masked (lib/pii.ts); GET /admin/pii/feedback/:id has them in full.
      return {
        ...item,
        contact: MASKED_PII.contact(item.contact),
        owner: { ...owner, phone: MASKED_PII.phone(owner.phone) },
        repliedBy: replier,
        closedAt: row.status === 'CLOSED' ? row.updatedAt.toISOString() : null,
      };
    });
  }

  /** A closed feedback takes no reply, and is not closed twice. */
  function refuseClosed(row: FeedbackRow, message: string): void {
    if (row.status === 'CLOSED') throw badRequest(message, { reason: 'CLOSED' });
  }

  /** Only the caller's own FEEDBACK uploads may be attached; anything else is one refusal. */
  async function ownFeedbackFiles(accountId: string, refs: string[]): Promise<string[]> {
    const uniqueNos = refs.map(uniqueNoOf);
    if (uniqueNos.some((u) => u === null)) throw badRequest(CONTENT_MSG.feedbackAttachmentInvalid, { field: 'attachments' });
    const wanted = [...new Set(uniqueNos as string[])];
    const rows = await repo.filesByUniqueNo(wanted);
    const usable = rows.filter((r) => r.ownerId === accountId && r.origin === 'FEEDBACK');
    if (usable.length !== wanted.length) throw badRequest(CONTENT_MSG.feedbackAttachmentInvalid, { field: 'attachments' });
    const byNo = new Map(usable.map((r) => [r.uniqueNo, r.id]));
    return wanted.map((u) => byNo.get(u)!);
  }

  return {
    async create(accountId: string, input: CreateInput): Promise<FeedbackItem> {
      const type = (await repo.dictItems(FEEDBACK_TYPE_DICT)).find((i) => i.code === input.type && i.enabled);
      if (!type) throw badRequest(CONTENT_MSG.feedbackTypeInvalid, { field: 'type' });
      const attachmentIds = await ownFeedbackFiles(accountId, input.attachments);
      const row = await repo.insert(db, { ownerId: accountId, type: input.type, content: input.content, contact: input.contact, attachmentIds });
      return (await present([row]))[0]!;
    },

    async mine(accountId: string, query: PageQuery): Promise<Page<FeedbackItem>> {
      const { rows, total } = await repo.page({ ownerId: accountId }, query.page, query.size);
      return { list: await present(rows.map((r) => r.row)), page: query.page, size: query.size, total };
    },

    /** Someone else's feedback is 404, like a missing one. */
    async own(accountId: string, id: string): Promise<FeedbackItem> {
      const found = UUID.test(id) ? await repo.find(id) : undefined;
      if (!found || found.row.ownerId !== accountId) throw notFound(CONTENT_MSG.feedbackNotFound);
      return (await present([found.row]))[0]!;
    },

    /** `pii`: the caller's view of personal information; items are masked either way, it decides how contacts are searched. */
    async adminList(query: AdminFeedbackQuery, pii: Pii): Promise<Page<AdminFeedbackItem>> {
      const { rows, total } = await repo.page(
        { status: query.status, type: query.type, keyword: query.keyword, fullPii: pii.full, from: query.from, to: query.to },
        query.page,
        query.size,
      );
      return { list: await presentAdmin(rows), page: query.page, size: query.size, total };
    },

    async adminDetail(id: string): Promise<AdminFeedbackItem> {
      const found = await repo.find(id);
      if (!found) throw notFound(CONTENT_MSG.feedbackNotFound);
      return (await presentAdmin([found]))[0]!;
    },

    /**
     * Reply (and maybe close), audited, and the participant told (FEEDBACK_REPLIED: inbox, email
     * when on), all in one transaction. The row is locked first, so of two admins answering at
     * once the second sees the first's reply: with `lastRepliedAt` (the console always sends it)
     * it is refused as STALE rather than silently replacing the colleague's answer; a deliberate
     * second reply (the admin saw the current one) replaces it.
     */
    async reply(actor: OperationActor, id: string, input: ReplyInput): Promise<AdminFeedbackItem> {
      await db.transaction(async (tx) => {
        const found = await repo.find(id, tx, true);
        if (!found) throw notFound(CONTENT_MSG.feedbackNotFound);
        refuseClosed(found.row, FEEDBACK_MSG.feedbackClosed);
        if (input.lastRepliedAt !== undefined) {
          const seen = input.lastRepliedAt === null ? null : Date.parse(input.lastRepliedAt);
          if ((found.row.repliedAt?.getTime() ?? null) !== seen) throw badRequest(FEEDBACK_MSG.feedbackReplyStale, { reason: 'STALE' });
        }
        const status = input.close ? 'CLOSED' : 'REPLIED';
        await repo.reply(tx, id, { reply: input.reply, status, repliedBy: actor.auth.accountId }, new Date());
        await recordOperation(tx, actor, {
          action: 'feedback:reply',
          targetType: 'feedback',
          targetId: id,
          summary: `${found.row.reply ? '更新对' : '回复'}用户 ${found.owner.username} 的反馈${input.close ? '并关闭' : ''}：${input.reply.slice(0, 200)}`,
        });
        await notifyEvent(tx, {
          code: 'FEEDBACK_REPLIED',
          accountIds: [found.row.ownerId],
          vars: { submittedDate: beijingDate(found.row.createdAt) },
          senderId: actor.auth.accountId,
        });
      });
      afterCommit();
      return this.adminDetail(id);
    },

    /** Closes without a reply (spam, settled elsewhere): audited; the participant sees the status, no message. */
    async close(actor: OperationActor, id: string): Promise<AdminFeedbackItem> {
      await db.transaction(async (tx) => {
        const found = await repo.find(id, tx, true);
        if (!found) throw notFound(CONTENT_MSG.feedbackNotFound);
        refuseClosed(found.row, FEEDBACK_MSG.feedbackAlreadyClosed);
        await repo.close(tx, id, new Date());
        await recordOperation(tx, actor, {
          action: 'feedback:close',
          targetType: 'feedback',
          targetId: id,
          summary: `关闭用户 ${found.owner.username} 的反馈（${found.row.reply ? '已回复' : '未回复'}）：${found.row.content.slice(0, 100)}`,
        });
      });
      return this.adminDetail(id);
    },
  };
}
export type FeedbackService = ReturnType<typeof createFeedbackService>;
