import { attachments } from '../../db/schema/files.js';
import { readModel } from '../../db/read-model.js';

/**
 * What modules/files lets the other modules read (docs/architecture.md, "Database"): read-only
 * projections they join like tables, and the row types. Writes go through this module.
 */
export const attachmentsView = readModel(attachments, 'attachments_view');
export type AttachmentsRow = typeof attachments.$inferSelect;
