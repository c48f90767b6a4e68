import { z } from 'zod';
import { optionalQuery, pageQueryFields, type IsoDateTime } from '../admin/common.js';
import type { FileRef } from './documents.js';
import { CONTENT_MSG as M } from './messages.js';

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

/** GET /admin/feedback */
export const adminFeedbackQuerySchema = z.object({
  ...pageQueryFields,
  status: optionalQuery(z.enum(FEEDBACK_STATUSES, { error: M.feedbackStatusInvalid })),
  type: optionalQuery(z.string().max(64, M.feedbackTypeInvalid)),
});
export type AdminFeedbackQuery = z.infer<typeof adminFeedbackQuerySchema>;

/** POST /admin/feedback/{id}/reply. `close` true closes it (status CLOSED) instead of REPLIED. */
export const feedbackReplySchema = z.object({
  reply: z.string({ error: M.replyRequired }).trim().min(1, M.replyRequired).max(FEEDBACK_REPLY_MAX, M.replyTooLong),
  close: z.boolean().optional().default(false),
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
}
