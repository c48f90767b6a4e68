import { z } from 'zod';
import { dateTimeQuery, keywordQuery, optionalQuery, pageQueryFields, rangeIsOrdered, type IsoDateTime } from '../admin/common.js';
import { ADMIN_MSG } from '../admin/messages.js';
import type { FileRef } from './documents.js';
import { CONTENT_MSG as M } from './messages.js';
import { FEEDBACK_MSG } from './feedback-messages.js';

export { FEEDBACK_MSG } from './feedback-messages.js';

export const FEEDBACK_CONTENT_MAX = 1000;
export const FEEDBACK_CONTACT_MAX = 100;
export const FEEDBACK_ATTACHMENTS_MAX = 3;
export const FEEDBACK_REPLY_MAX = 2000;
/** Types are the enabled items of this dictionary (GET /dic/module?module=FEEDBACK). */
export const FEEDBACK_TYPE_DICT = 'FEEDBACK_TYPE';

export const FEEDBACK_STATUSES = ['OPEN', 'REPLIED', 'CLOSED'] as const;
export type FeedbackStatus = (typeof FEEDBACK_STATUSES)[number];

/**
 * POST /feedback. `attachments`: uniqueNo or filePath of the caller's own FEEDBACK uploads
 * (POST /attachment/piece/upload with origin FEEDBACK).
 */
export const feedbackCreateSchema = z.object({
  type: z.string({ error: M.feedbackTypeRequired }).trim().min(1, M.feedbackTypeRequired).max(64, M.feedbackTypeInvalid),
  content: z.string({ error: M.feedbackContentRequired }).trim().min(1, M.feedbackContentRequired).max(FEEDBACK_CONTENT_MAX, M.feedbackContentTooLong),
  contact: z
    .string({ error: M.feedbackContactTooLong })
    .trim()
    .max(FEEDBACK_CONTACT_MAX, M.feedbackContactTooLong)
    .nullish()
    .transform((v) => (v ? v : null)),
  attachments: z
    .array(z.string({ error: M.feedbackAttachmentInvalid }).max(200, M.feedbackAttachmentInvalid), { error: M.feedbackAttachmentInvalid })
    .max(FEEDBACK_ATTACHMENTS_MAX, M.feedbackAttachmentsTooMany)
    .default([]),
});
export type FeedbackCreate = z.input<typeof feedbackCreateSchema>;

/** GET /feedback/my */
export const feedbackMyQuerySchema = z.object({ ...pageQueryFields });

/** GET /admin/feedback. `keyword` matches the content, the contact, and the participant's username, name or phone. */
export const adminFeedbackQuerySchema = z
  .object({
    ...pageQueryFields,
    status: optionalQuery(z.enum(FEEDBACK_STATUSES, { error: M.feedbackStatusInvalid })),
    type: optionalQuery(z.string().max(64, M.feedbackTypeInvalid)),
    keyword: keywordQuery,
    /** Submission time, Beijing time, both ends inclusive (`YYYY-MM-DD` or `YYYY-MM-DD HH:mm:ss`). */
    from: dateTimeQuery,
    to: dateTimeQuery,
  })
  .refine(rangeIsOrdered, { message: ADMIN_MSG.dateRangeInvalid, path: ['from'] });
export type AdminFeedbackQuery = z.infer<typeof adminFeedbackQuerySchema>;

/**
 * POST /admin/feedback/{id}/reply. `close` true closes it (status CLOSED) instead of REPLIED.
 * `lastRepliedAt`: the `repliedAt` of the item as the admin saw it (null when it had no reply):
 * when the item was replied since, the reply is refused (400, `data.reason = 'STALE'`) instead
 * of silently replacing a colleague's answer. Left out, the reply replaces whatever is there.
 */
export const feedbackReplySchema = z.object({
  reply: z.string({ error: M.replyRequired }).trim().min(1, M.replyRequired).max(FEEDBACK_REPLY_MAX, M.replyTooLong),
  close: z.boolean().optional().default(false),
  lastRepliedAt: z.iso.datetime({ offset: true, error: FEEDBACK_MSG.lastRepliedAtInvalid }).nullable().optional(),
});
export type FeedbackReply = z.input<typeof feedbackReplySchema>;

export interface FeedbackItem {
  id: string;
  /** FEEDBACK_TYPE item code, and its name (disabled items still resolve). */
  type: string;
  typeName: string;
  content: string;
  contact: string | null;
  attachments: FileRef[];
  status: FeedbackStatus;
  /** Plain text. */
  reply: string | null;
  repliedAt: IsoDateTime | null;
  createdAt: IsoDateTime;
}

export interface AdminFeedbackItem extends FeedbackItem {
  owner: { id: string; username: string; name: string | null; phone: string | null };
  /** The admin who wrote the current reply (or closed it without one), null before. */
  repliedBy: { id: string; username: string; name: string | null } | null;
  closedAt: IsoDateTime | null;
}
