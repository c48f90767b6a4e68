import { noticeOutbox } from '../../db/schema/notices.js';
import { readModel } from '../../db/read-model.js';

/**
 * What modules/notices lets the other modules read (docs/architecture.md, "Database"): read-only
 * projections they join like tables, and the row types. Writes go through this module.
 */
export const noticeOutboxView = readModel(noticeOutbox, 'notice_outbox_view');
export type NoticeOutboxRow = typeof noticeOutbox.$inferSelect;
