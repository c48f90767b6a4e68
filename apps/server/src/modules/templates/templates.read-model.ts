import { messageTemplates } from '../../db/schema/templates.js';
import { readModel } from '../../db/read-model.js';

/**
 * What modules/templates lets the other modules read (docs/architecture.md, "Database"): read-only
 * projections they join like tables, and the row types. Writes go through this module.
 */
export const messageTemplatesView = readModel(messageTemplates, 'message_templates_view');
export type MessageTemplatesRow = typeof messageTemplates.$inferSelect;
